// Queue mode, case 5: n8n's Retry button (issue 17) with the main and two workers. A Webhook-started
// execution of 4 payouts (Max Parallel Requests 1, Retry On Fail off) fails on a worker: items 0 and
// 1 paid, item 2 refused with 429 ("did not process it") until the node gives up, item 3 never sent.
// The fault is removed and the failed execution retried through the MAIN's REST API
// (`POST /rest/executions/:id/retry`, as the owner), once "with original workflow" and once "with
// currently saved workflow" (two failed executions): the main queues a new execution, mode "retry",
// that a worker runs. Items 0 and 1 must not reach FacilitaPay again (they come out
// `alreadyDone: true`), items 2 and 3 are paid once, and the FacilitaPay Trigger in the same
// workflow keeps its registration (static data). Case 4 stops the cluster's workers, so this file
// starts two of its own when needed.
import {
	CASE_TIMEOUT,
	api,
	caseCredentials,
	caseSandbox,
	createPayoutsWorkflow,
	describeQueue,
	ensureWorkers,
	executionsByWorker,
	nodeOutput,
	postWhenRegistered,
	queueState,
	registerSubjects,
	report,
	retryOnMain,
	stopAndWait,
	waitFor,
} from './lib/queue.mjs';
import { createActiveWorkflow } from './lib/queue.mjs';
import { getExecution, waitForNewExecution } from '../e2e/lib/n8n-e2e.mjs';
import { payoutsWorkflow } from '../e2e/lib/workflows.mjs';

const PAYOUTS = 'FacilitaPay';
const TRIGGER = 'FacilitaPay Trigger';
const PAYOUT_ROUTE = 'POST /api/v1/transactions';
/** Items 0 and 1 paid, then every payout refused with 429 ("did not process it"). */
const REFUSE_FROM_ITEM_2 = {
	route: PAYOUT_ROUTE,
	kind: '429',
	retry_after: 0,
	skip: 2,
	count: 100,
};

describeQueue("queue mode: n8n's Retry button sends no payout twice", () => {
	const sandbox = caseSandbox();
	/** @type {Awaited<ReturnType<typeof ensureWorkers>>} */
	let workers;
	/** @type {{id: string}} */
	let workflow;
	let path = '';

	beforeAll(async () => {
		workers = await ensureWorkers(2, { prefix: 'retry' });
		const credentials = await caseCredentials(sandbox, 'FacilitaPay Queue Retry');
		path = `queue-retry-${Date.now().toString(36)}`;
		workflow = await createPayoutsWorkflow({
			name: 'queue: Retry button on payouts',
			path,
			credentials,
		});
		await waitFor(
			async () =>
				(await api('GET', `/workflows/${workflow.id}`)).staticData?.[`node:${TRIGGER}`]?.secretHmac,
			{ what: "the FacilitaPay Trigger's registration in the workflow static data" },
		);
	}, CASE_TIMEOUT);

	afterAll(async () => {
		await workers?.stop();
	});

	/** The sandbox's request log (with bodies), from entry `after` on. @param {number} after */
	async function payoutRequests(after) {
		const log = (await sandbox.call('GET', '/_sandbox/requests')).data;
		return log
			.slice(after)
			.filter((/** @type {any} */ r) => r.route === PAYOUT_ROUTE)
			.map((/** @type {any} */ r) => ({
				value: r.body?.transaction?.value ?? null,
				status: r.status,
			}));
	}
	const mark = async () => (await sandbox.call('GET', '/_sandbox/requests')).data.length;
	/** @param {Array<{value: string|null, status: number}>} requests */
	const created = (requests) =>
		requests.filter((r) => r.value !== null && r.status < 300).map((r) => r.value);

	test.each([
		['Retry with original workflow', false, ['41.01', '41.02', '41.03', '41.04']],
		['Retry with currently saved workflow', true, ['42.01', '42.02', '42.03', '42.04']],
	])(
		'%s, run by a worker: items 0 and 1 (paid before the failure) are not sent again and come out alreadyDone; items 2 and 3 are paid once; the trigger keeps its registration',
		async (_name, loadWorkflow, values) => {
			const state = queueState();
			const server = { url: state.main.url, apiKey: state.apiKey };
			const [subjectId] = await registerSubjects(sandbox, 1, `Queue Retry ${values[0]}`);
			const payouts = values.map((value) => ({ subjectId, value }));

			await sandbox.call('POST', '/_sandbox/faults', REFUSE_FROM_ITEM_2);
			const before = await mark();
			const proxied = sandbox.requests().length;
			const known = (
				await api('GET', `/executions?workflowId=${workflow.id}&limit=250&includeData=false`)
			).data.map((/** @type {any} */ e) => e.id);
			const startedAt = Date.now();
			await postWhenRegistered(path, { payouts });
			const failed = await waitForNewExecution(server, workflow.id, {
				known,
				timeoutMs: 120_000,
			});
			const runSeconds = (Date.now() - startedAt) / 1000;
			await sandbox.call('DELETE', '/_sandbox/faults');
			const firstRun = await payoutRequests(before);

			expect(failed.status).toBe('error');
			expect(`${failed.data?.resultData?.error?.message}`).toMatch(/item 2/);
			expect(created(firstRun)).toEqual(values.slice(0, 2));

			const staticBefore = (await api('GET', `/workflows/${workflow.id}`)).staticData;
			const retryMark = await mark();
			const proxiedBeforeRetry = sandbox.requests().length;
			const retryStartedAt = Date.now();
			const retried = await retryOnMain(failed.id, { loadWorkflow });
			const retrySeconds = (Date.now() - retryStartedAt) / 1000;
			const inRetry = await payoutRequests(retryMark);
			const output = nodeOutput(retried.execution, PAYOUTS);
			const staticAfter = (await api('GET', `/workflows/${workflow.id}`)).staticData;
			const held = (await sandbox.call('GET', `/api/v1/subject/${subjectId}/transactions`)).data;
			/** @type {Record<string, string[]>} */
			const atFacilitaPay = {};
			for (const t of held) (atFacilitaPay[t.value] ??= []).push(t.id);
			const holds = Object.fromEntries(values.map((v) => [v, atFacilitaPay[v]?.length ?? 0]));
			const byWorker = executionsByWorker();
			const senders = sandbox
				.requests()
				.slice(proxiedBeforeRetry)
				.filter((r) => r.method === 'POST' && r.path.endsWith('/transactions'))
				.map((r) => r.process);
			report(
				`case 5 (retry button, loadWorkflow ${loadWorkflow}): execution ${failed.id} on ${byWorker.get(String(failed.id))} ` +
					`(${runSeconds.toFixed(1)} s; created ${JSON.stringify(created(firstRun))}, ${firstRun.filter((r) => r.status === 429).length} × 429) → ` +
					`retry ${retried.id} (mode ${retried.mode}, retryOf ${retried.retryOf}, ${retried.status}) on ${byWorker.get(String(retried.id))} ` +
					`in ${retrySeconds.toFixed(1)} s: sent ${JSON.stringify(inRetry.map((r) => `${r.value}→${r.status}`))} from ${JSON.stringify([...new Set(senders)])}; ` +
					`FacilitaPay holds ${JSON.stringify(holds)}; output alreadyDone ${JSON.stringify(Array.isArray(output) ? output.map((i) => i.alreadyDone ?? null) : output)}; ` +
					`static data unchanged: ${JSON.stringify(staticAfter) === JSON.stringify(staticBefore)}; ` +
					`requests through the proxy in all ${sandbox.requests().length - proxied}`,
			);

			// n8n's side: a new execution in mode "retry", run by a worker (not the main), succeeded.
			expect(retried.mode).toBe('retry');
			expect(retried.retryOf).toBe(String(failed.id));
			expect(retried.status).toBe('success');
			expect(workers.names).toEqual(expect.arrayContaining(byWorker.get(retried.id) ?? ['none']));
			expect(senders.every((process) => workers.names.includes(process))).toBe(true);
			// Only items 2 and 3 were sent in the retry; each payout reached FacilitaPay exactly once.
			expect(inRetry.map((r) => r.value)).toEqual(values.slice(2));
			expect(holds).toEqual(Object.fromEntries(values.map((v) => [v, 1])));
			expect(Array.isArray(output)).toBe(true);
			expect(output).toHaveLength(4);
			for (const i of [0, 1]) {
				expect(output[i]).toMatchObject({
					alreadyDone: true,
					alreadyDoneNote: expect.any(String),
				});
				if (output[i].id !== undefined) expect(output[i].id).toBe(atFacilitaPay[values[i]][0]);
			}
			for (const i of [2, 3]) {
				expect(output[i].alreadyDone).not.toBe(true);
				expect(output[i]).toMatchObject({ id: atFacilitaPay[values[i]][0], value: values[i] });
			}
			// The trigger's registration survived; the retry wrote no static data.
			expect(staticBefore?.[`node:${TRIGGER}`]?.secretHmac).toEqual(expect.any(String));
			expect(staticAfter).toEqual(staticBefore);
			// The failed execution is still there, unchanged, for the record.
			expect((await getExecution(server, failed.id, { includeData: false })).status).toBe('error');
		},
		CASE_TIMEOUT,
	);

	/**
	 * Starts the workflow through the webhook processor and returns the execution once it ended.
	 * @param {{id: string}} target @param {string} targetPath @param {object} body
	 */
	async function runOnce(target, targetPath, body) {
		const state = queueState();
		const known = (
			await api('GET', `/executions?workflowId=${target.id}&limit=250&includeData=false`)
		).data.map((/** @type {any} */ e) => e.id);
		await postWhenRegistered(targetPath, body);
		return waitForNewExecution({ url: state.main.url, apiKey: state.apiKey }, target.id, {
			known,
			timeoutMs: 120_000,
		});
	}

	test(
		'days later (the workers restarted, FacilitaPay 49 h on) and after an edit of To Bank Account, Retry with currently saved workflow pays nothing twice; another execution with identical payouts pays them again (issue 24)',
		async () => {
			const state = queueState();
			const credentials = await caseCredentials(sandbox, 'FacilitaPay Queue Retry Later');
			const laterPath = `queue-retry-later-${Date.now().toString(36)}`;
			const later = await createActiveWorkflow(
				payoutsWorkflow({ name: 'queue: Retry days later', path: laterPath, credentials }),
			);
			const [subjectId] = await registerSubjects(sandbox, 1, 'Queue Retry Later');
			const subject = (await sandbox.call('GET', `/api/v1/subject/people/${subjectId}`)).data;
			const account = await sandbox.call('POST', `/api/v1/subject/${subjectId}/bank_accounts`, {
				bank_account: {
					currency: 'BRL',
					account_type: 'conta-corrente',
					account_number: '54321-0',
					branch_number: '0001',
					owner_name: subject.social_name,
					owner_document_type: 'cpf',
					owner_document_number: subject.document_number,
					branch_country: 'BRA',
					bank: { code: '031', name: 'Banco Beg S.A.' },
				},
			});
			const newAccount = account.data.id;
			const values = ['43.01', '43.02', '43.03', '43.04'];

			await sandbox.call('POST', '/_sandbox/faults', REFUSE_FROM_ITEM_2);
			const before = await mark();
			const failed = await runOnce(later, laterPath, {
				payouts: values.map((value) => ({ subjectId, value })),
			});
			await sandbox.call('DELETE', '/_sandbox/faults');
			expect(failed.status).toBe('error');
			expect(created(await payoutRequests(before))).toEqual(values.slice(0, 2));
			const failedOn = executionsByWorker().get(String(failed.id));

			// The weekend: every worker that ran it is gone, new ones take over; FacilitaPay's clock
			// moves on.
			await workers.stop();
			await stopAndWait(
				state.workers.map((w) => w.pid),
				"the cluster's workers to stop",
			);
			workers = await ensureWorkers(2, { prefix: 'retry-later' });
			await sandbox.call('POST', '/_sandbox/clock/advance', { hours: 49 });

			// The edit, saved: To Bank Account now names the subject's other account.
			const saved = await api('GET', `/workflows/${later.id}`);
			await api('PUT', `/workflows/${later.id}`, {
				name: saved.name,
				nodes: saved.nodes.map((/** @type {any} */ node) =>
					node.name === PAYOUTS
						? { ...node, parameters: { ...node.parameters, toBankAccountId: newAccount } }
						: node,
				),
				connections: saved.connections,
				settings: saved.settings,
			});

			const retryMark = await mark();
			const retried = await retryOnMain(failed.id, { loadWorkflow: true });
			const log = (await sandbox.call('GET', '/_sandbox/requests')).data.slice(retryMark);
			const inRetry = log.filter((/** @type {any} */ r) => r.route === PAYOUT_ROUTE);
			const output = nodeOutput(retried.execution, PAYOUTS);
			const retriedOn = executionsByWorker().get(String(retried.id));

			// Another ordinary execution with the same content, after the retry: another payment.
			const identicalMark = await mark();
			const identical = await runOnce(later, laterPath, {
				payouts: values.slice(0, 2).map((value) => ({ subjectId, value })),
			});
			const paidAgain = created(await payoutRequests(identicalMark));
			const held = (await sandbox.call('GET', `/api/v1/subject/${subjectId}/transactions`)).data;
			/** @type {Record<string, number>} */
			const holds = {};
			for (const t of held) holds[t.value] = (holds[t.value] ?? 0) + 1;
			report(
				`case 5 (days later): execution ${failed.id} on ${failedOn} failed; workers restarted, FacilitaPay 49 h on, To Bank Account edited → ` +
					`retry ${retried.id} (${retried.status}) on ${retriedOn}: sent ${JSON.stringify(inRetry.map((/** @type {any} */ r) => `${r.body?.transaction?.value}→${r.body?.transaction?.to_bank_account_id === newAccount ? 'new account' : 'old account'}`))}; ` +
					`output alreadyDone ${JSON.stringify(Array.isArray(output) ? output.map((i) => i.alreadyDone ?? null) : output)}; ` +
					`then an identical execution ${identical.id} (${identical.status}) paid ${JSON.stringify(paidAgain)}; FacilitaPay holds ${JSON.stringify(holds)}`,
			);

			expect(retried.mode).toBe('retry');
			expect(retried.status).toBe('success');
			expect(workers.started).toEqual(expect.arrayContaining(retriedOn ?? ['none']));
			expect(failedOn?.some((name) => workers.names.includes(name))).toBe(false);
			expect(inRetry.map((/** @type {any} */ r) => r.body.transaction.value)).toEqual(
				values.slice(2),
			);
			expect(
				inRetry.every(
					(/** @type {any} */ r) => r.body.transaction.to_bank_account_id === newAccount,
				),
			).toBe(true);
			expect(output.map((/** @type {any} */ item) => item.alreadyDone === true)).toEqual([
				true,
				true,
				false,
				false,
			]);
			expect(identical.status).toBe('success');
			expect(paidAgain).toEqual(values.slice(0, 2));
			expect(holds).toEqual({ 43.01: 2, 43.02: 2, 43.03: 1, 43.04: 1 });
		},
		CASE_TIMEOUT,
	);
});
