// Queue mode, case 3: the sign-in storm across processes. Username and Password credentials; one
// execution signs in and n8n stores the session token (in the shared database); the sandbox's
// clock then moves 25 hours, so the stored token has expired, and a sign-in now takes 2 s; 6
// executions of 3 items started at once through the webhook processor run on both workers. Each
// process may sign in once (it cannot see a token another process is obtaining at the same moment),
// so: at most one sign-in per process, at most 3 in all (the service allows 3 per 30 s), no refused
// sign-in, and every item comes back.
// Which process sent each sign-in is read from the client socket's owner (see lib/queue.mjs).
import {
	CASE_TIMEOUT,
	actionNode,
	allExecutions,
	caseCredentials,
	caseSandbox,
	countBy,
	createPeopleWorkflow,
	createWebhookWorkflow,
	describeQueue,
	executionsByWorker,
	nodeOutput,
	postWebhook,
	postWhenRegistered,
	queueState,
	registerSubjects,
	report,
	waitForExecutions,
} from './lib/queue.mjs';
import { validCpf } from '../e2e/lib/n8n-e2e.mjs';

const CONCURRENT = 6;
const ITEMS_PER_EXECUTION = 3;
const STORMS = 10;
const STORM_ITEMS = 50;

describeQueue('queue mode: sign-in storm across processes', () => {
	const sandbox = caseSandbox();

	test(
		`token expired: ${CONCURRENT} concurrent executions over both workers make at most one sign-in per process (≤ 3), none refused, 0 failed items`,
		async () => {
			const state = queueState();
			// Subjects to read back (created as fixtures with the static token).
			const subjectIds = await registerSubjects(
				sandbox,
				CONCURRENT * ITEMS_PER_EXECUTION,
				'Storm Person',
			);
			const credentials = await caseCredentials(
				sandbox,
				'FacilitaPay Queue Username and Password',
				{ signIn: true },
			);
			const path = `queue-storm-${Date.now().toString(36)}`;
			const workflow = await createWebhookWorkflow({
				name: 'queue: sign-in storm',
				path,
				items: {
					id: 'split',
					name: 'Subjects',
					type: 'n8n-nodes-base.splitOut',
					typeVersion: 1,
					position: [220, 0],
					parameters: {
						fieldToSplitOut: 'body.subjectIds',
						options: { destinationFieldName: 'subjectId' },
					},
				},
				action: actionNode({
					credentials,
					parameters: {
						resource: 'subject',
						operation: 'get',
						subjectId: '={{ $json.subjectId }}',
						simplify: false,
					},
				}),
			});
			const start = (/** @type {string[]} */ ids) => postWebhook(path, { subjectIds: ids });
			const signIns = (/** @type {number} */ after) =>
				sandbox
					.requests()
					.slice(after)
					.filter((r) => r.method === 'POST' && r.path.endsWith('/sign_in'));

			// 1. One execution signs in and leaves the token in the credentials (the shared database).
			await postWhenRegistered(path, { subjectIds: subjectIds.slice(0, 1) });
			await waitForExecutions(workflow.id, 1);
			expect(signIns(0).map((r) => r.status)).toEqual([200]);

			// 2. 25 hours later (the token lives 24 h): 6 executions at once. The sandbox's clock jumps
			// right after the sign-in; each request reaches the credential's sign-in with the token it was
			// sent with, so the token just refused is never handed out again.
			await sandbox.call('POST', '/_sandbox/clock/advance', { hours: 25 });
			// A sign-in takes 2 s (a slow service), so every execution meets the expired token before any
			// new token is stored: the storm the service's limit (3 sign-ins per 30 s) is about.
			await sandbox.call('POST', '/_sandbox/faults', {
				route: 'POST /api/v1/sign_in',
				rate: 1,
				kind: 'latency',
				ms: 2000,
			});
			const mark = sandbox.requests().length;
			const startedAt = Date.now();
			const batches = Array.from({ length: CONCURRENT }, (_, i) =>
				subjectIds.slice(i * ITEMS_PER_EXECUTION, (i + 1) * ITEMS_PER_EXECUTION),
			);
			const answers = await Promise.all(batches.map((ids) => start(ids)));
			expect(answers.map((a) => a.status)).toEqual(Array(CONCURRENT).fill(200));
			await waitForExecutions(workflow.id, 1 + CONCURRENT);
			const seconds = (Date.now() - startedAt) / 1000;

			const executions = (await allExecutions(workflow.id, { includeData: true }))
				.sort((a, b) => Number(a.id) - Number(b.id))
				.slice(1);
			expect(executions).toHaveLength(CONCURRENT);
			const ranBy = executionsByWorker();
			const perWorker = countBy(
				executions.map((e) => (ranBy.get(String(e.id)) ?? ['?']).join('+')),
			);
			const after = sandbox.requests().slice(mark);
			const storm = signIns(mark);
			const signInsPerProcess = countBy(storm.map((r) => r.process));
			const reads = after.filter((r) => r.method === 'GET' && r.path.includes('/subject/people/'));
			const outputs = executions.map((e) => nodeOutput(e, 'FacilitaPay'));
			const errors = executions
				.filter((e) => e.status !== 'success')
				.map((e) => {
					const error = e.data?.resultData?.error;
					return `${(ranBy.get(String(e.id)) ?? ['?']).join('+')}: ${error?.message ?? ''} ${error?.description ?? ''}`.trim();
				});
			report(
				`case 3 (sign-in storm): ${CONCURRENT} executions × ${ITEMS_PER_EXECUTION} items after expiry, per worker ${JSON.stringify(perWorker)}; ` +
					`sign-ins ${storm.length} ${JSON.stringify(countBy(storm.map((r) => `${r.process}→${r.status}`)))}; ` +
					`reads ${JSON.stringify(countBy(reads.map((r) => String(r.status))))}; executions ${JSON.stringify(countBy(executions.map((e) => e.status)))}; ${seconds.toFixed(1)} s` +
					(errors.length ? `; errors: ${JSON.stringify(countBy(errors))}` : ''),
			);

			// Spread over both workers.
			expect(Object.keys(perWorker).sort()).toEqual(state.workers.map((w) => w.name).sort());
			// At most one sign-in per process, ≤ 3 in all, none refused (429).
			expect(storm.length).toBeLessThanOrEqual(3);
			expect(signInsPerProcess).toEqual(
				Object.fromEntries(Object.keys(signInsPerProcess).map((name) => [name, 1])),
			);
			expect(storm.map((r) => r.status)).toEqual(storm.map(() => 200));
			// Every execution succeeded with every item.
			expect(countBy(executions.map((e) => e.status))).toEqual({ success: CONCURRENT });
			const got = outputs.flatMap((items, i) => {
				expect(Array.isArray(items)).toBe(true);
				return /** @type {any[]} */ (items).map((item) => ({ batch: i, id: item.id }));
			});
			expect(got.map((g) => g.id).sort()).toEqual(batches.flat().sort());
		},
		CASE_TIMEOUT,
	);

	test(
		`10 storms in a row: the token expires before each, ${CONCURRENT} executions × ${STORM_ITEMS} creates over both workers, 0 failed items, at most one sign-in per process per expiry`,
		async () => {
			const credentials = await caseCredentials(sandbox, 'FacilitaPay Queue Storms', {
				signIn: true,
			});
			const path = `queue-storms-${Date.now().toString(36)}`;
			const workflow = await createPeopleWorkflow({
				name: 'queue: ten sign-in storms',
				path,
				credentials,
			});
			const post = async (/** @type {object[]} */ people) =>
				(await postWebhook(path, { people })).status;
			let seed = (Date.now() % 100000) + 200000;
			const people = (/** @type {number} */ count) =>
				Array.from({ length: count }, () => ({
					cpf: validCpf(seed++),
					name: `Storm Creator ${seed}`,
				}));
			// The first execution signs in and stores the token.
			await postWhenRegistered(path, { people: people(1) });
			let finished = 1;
			await waitForExecutions(workflow.id, finished);
			/** @type {string[]} */
			const lines = [];
			let failedItems = 0;
			for (let storm = 1; storm <= STORMS; storm++) {
				await sandbox.call('POST', '/_sandbox/clock/advance', { hours: 25 });
				const mark = sandbox.requests().length;
				const statuses = await Promise.all(
					Array.from({ length: CONCURRENT }, () => post(people(STORM_ITEMS))),
				);
				expect(statuses).toEqual(Array(CONCURRENT).fill(200));
				finished += CONCURRENT;
				await waitForExecutions(workflow.id, finished);
				const executions = (await allExecutions(workflow.id, { includeData: true }))
					.sort((a, b) => Number(a.id) - Number(b.id))
					.slice(-CONCURRENT);
				const after = sandbox.requests().slice(mark);
				const storms = after.filter((r) => r.method === 'POST' && r.path.endsWith('/sign_in'));
				const creates = after.filter(
					(r) => r.method === 'POST' && r.path.endsWith('/subject/people'),
				);
				const failed = executions.filter((e) => e.status !== 'success');
				const outputs = executions.map((e) => nodeOutput(e, 'FacilitaPay'));
				const items = outputs.reduce((n, out) => n + (Array.isArray(out) ? out.length : 0), 0);
				failedItems += CONCURRENT * STORM_ITEMS - items;
				lines.push(
					`storm ${storm}: executions ${JSON.stringify(countBy(executions.map((e) => e.status)))}, items ${items}/${CONCURRENT * STORM_ITEMS}, ` +
						`sign-ins ${JSON.stringify(countBy(storms.map((r) => `${r.process}→${r.status}`)))}, creates ${JSON.stringify(countBy(creates.map((r) => String(r.status))))}` +
						(failed.length
							? `; errors: ${JSON.stringify(countBy(failed.map((e) => e.data?.resultData?.error?.message ?? '?')))}`
							: ''),
				);
				const perProcess = countBy(storms.map((r) => r.process));
				expect(Object.values(perProcess).every((n) => n <= 1)).toBe(true);
				expect(failed).toHaveLength(0);
			}
			report(`case 3b (10 storms): failed items ${failedItems}\n  ${lines.join('\n  ')}`);
			expect(failedItems).toBe(0);
		},
		CASE_TIMEOUT * 4,
	);
});
