// Queue mode, case 6 (issue 32, "paid twice"): one Idempotency Key in two executions started at the
// same moment (a webhook delivered twice), run by the two workers of the cluster. FacilitaPay is
// slowed (every payout request waits before it is handled), so that both executions are past their
// lookup before either payment exists. docs/money.md ("Overlapping runs of one key or one origin")
// says what happens across workers: never two payments silently — either one payment (the later
// execution finds it, or finds the key claimed in n8n's store and stops before sending: Outcome
// unknown), or an error naming both transactions. Each round reports which it was, and where the
// executions ran.
import {
	CASE_TIMEOUT,
	allExecutions,
	caseCredentials,
	caseSandbox,
	createActiveWorkflow,
	describeQueue,
	ensureWorkers,
	executionsByWorker,
	postWebhook,
	postWhenRegistered,
	queueState,
	registerSubjects,
	report,
	waitFor,
} from './lib/queue.mjs';
import { getExecution } from '../e2e/lib/n8n-e2e.mjs';
import { payoutsWorkflow } from '../e2e/lib/workflows.mjs';
import { nodeOutput } from './lib/queue.mjs';

const PAYOUT_ROUTE = 'POST /api/v1/transactions';
const ROUNDS = 3;

describeQueue('queue mode: one Idempotency Key in two executions at once, on two workers', () => {
	const sandbox = caseSandbox();
	/** @type {Awaited<ReturnType<typeof ensureWorkers>>} */
	let workers;
	/** @type {{id: string}} */
	let workflow;
	let path = '';

	beforeAll(async () => {
		workers = await ensureWorkers(2, { prefix: 'overlap' });
		const credentials = await caseCredentials(sandbox, 'FacilitaPay Queue Overlap');
		path = `queue-overlap-${Date.now().toString(36)}`;
		workflow = await createActiveWorkflow(
			payoutsWorkflow({ name: 'queue: one key at once', path, credentials, idempotencyKey: true }),
		);
		// Known to the webhook processor before the rounds: an empty batch pays nothing.
		await postWhenRegistered(path, { payouts: [] });
	}, CASE_TIMEOUT);

	afterAll(async () => {
		await sandbox.call('DELETE', '/_sandbox/faults').catch(() => undefined);
		await workers?.stop();
	});

	test(
		'two executions of one key at the same moment never pay twice silently',
		async () => {
			const state = queueState();
			const server = { url: state.main.url, apiKey: state.apiKey };
			const [subjectId] = await registerSubjects(sandbox, 1, 'Queue Overlap');
			const tag = Date.now().toString(36);
			const outcomes = [];
			for (let round = 1; round <= ROUNDS; round++) {
				const key = `ORDER-overlap-${tag}-${round}`;
				const body = { payouts: [{ subjectId, value: `61.0${round}`, orderId: key }] };
				const ended = await allExecutions(workflow.id);
				const known = new Set(ended.map((e) => String(e.id)));
				await sandbox.call('POST', '/_sandbox/faults', {
					route: PAYOUT_ROUTE,
					kind: 'latency',
					ms: 2000,
					count: 2,
				});
				const answers = await Promise.all([postWebhook(path, body), postWebhook(path, body)]);
				expect(answers.map((a) => a.status)).toEqual([200, 200]);
				const pair = await waitFor(
					async () => {
						const fresh = (await allExecutions(workflow.id)).filter(
							(e) => !known.has(String(e.id)),
						);
						const done = fresh.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
						return done.length === 2 && fresh.length === 2 ? done : null;
					},
					{ what: `the two executions of round ${round}`, timeoutMs: 120_000 },
				);
				await sandbox.call('DELETE', '/_sandbox/faults');
				const runs = await Promise.all(pair.map((e) => getExecution(server, e.id)));
				const held = (
					await sandbox.call('GET', `/api/v1/subject/${subjectId}/transactions`)
				).data.filter((t) => t.meta?.n8n_facilitapay_ref === `key:${key}`);
				const posts = (await sandbox.call('GET', '/_sandbox/requests')).data.filter(
					(r) =>
						r.route === PAYOUT_ROUTE &&
						r.body?.transaction?.meta?.n8n_facilitapay_ref === `key:${key}`,
				).length;
				const byWorker = executionsByWorker();
				const seen = runs.map((run) => {
					const output = nodeOutput(run, 'FacilitaPay');
					const error = run.data?.resultData?.error;
					return {
						id: String(run.id),
						worker: (byWorker.get(String(run.id)) ?? ['?']).join('+'),
						status: run.status,
						item: Array.isArray(output) ? output[0] : undefined,
						error: error ? `${error.message ?? ''} ${error.description ?? ''}` : '',
					};
				});
				const line =
					`case 6 round ${round}: ${posts} payout POST(s) carrying the key, ${held.length} transaction(s) under it; ` +
					seen
						.map(
							(s) =>
								`execution ${s.id} on ${s.worker}: ${s.status}` +
								(s.item ? ` ${s.item.alreadyDone ? 'alreadyDone' : 'paid'} ${s.item.id}` : '') +
								(s.error ? ` "${s.error.slice(0, 600)}"` : ''),
						)
						.join('; ');
				report(line);
				outcomes.push({ held: held.length, seen });

				// Never two payments silently.
				expect(held.length).toBeGreaterThanOrEqual(1);
				expect(held.length).toBeLessThanOrEqual(2);
				if (held.length === 2) {
					const naming = seen.filter((s) => held.every((t) => s.error.includes(t.id)));
					expect(naming.length).toBeGreaterThanOrEqual(1);
					// Each names its own payment as the one it made.
					const own = naming.map((s) => s.error.match(/^Done \(ID ([^)]+)\)/)?.[1]);
					if (naming.length === 2) expect(new Set(own).size).toBe(2);
				} else {
					const [paid] = held;
					for (const s of seen) {
						if (s.status === 'success') expect(s.item?.id).toBe(paid.id);
						else expect(s.error).toMatch(/outcome unknown|not sent|already|in progress/i);
					}
					expect(seen.some((s) => s.status === 'success' && s.item?.id === paid.id)).toBe(true);
				}
			}
			const landed = outcomes.filter((o) => new Set(o.seen.map((s) => s.worker)).size === 2);
			report(`case 6: ${landed.length}/${ROUNDS} rounds had the two executions on two workers`);
			expect(landed.length).toBeGreaterThanOrEqual(1);
		},
		CASE_TIMEOUT,
	);
});
