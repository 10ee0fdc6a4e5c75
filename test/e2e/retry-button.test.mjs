// n8n's Retry button (issue 17), in a real n8n 2.41.1 and 1.123.81: a failed execution retried from
// the executions list ("Retry with original workflow" = loadWorkflow false, "Retry with currently
// saved workflow" = loadWorkflow true; POST /rest/executions/:id/retry as the owner) is a NEW
// execution, mode "retry" (what the node's this.getMode() returns there), that runs only the failed
// node again, with its original items. No payout that reached FacilitaPay in the failed execution may
// be sent again there:
// - definite failure: 4 payouts, Max Parallel Requests 1, Retry On Fail off; items 0 and 1 are paid,
//   item 2 is refused with 429 ("did not process it": the node tries it 12 times, then fails) and the
//   run stops, item 3 is never sent. The fault is removed and the execution retried: items 0 and 1
//   come out `alreadyDone: true` without a request, items 2 and 3 are paid once.
// - unknown outcome: item 1 created by the sandbox, which then drops the connection (`reset_after`);
//   the retry finds it at FacilitaPay and does not send it again.
// - both: a FacilitaPay Trigger in the same workflow keeps its registration (workflow static data),
//   and the retry writes no static data.
// - the Idempotency Key (parameter `idempotencyKey`, = the order id): the same four orders in a second, ordinary
//   execution are not sent again.
// The executions are started by a Webhook node of an active workflow (mode "webhook", saved with
// their data when they fail: saveDataErrorExecution "all"), so the running server can retry them.
// n8n 1.123.81 runs on a server of this file (Node 20), with the unknown-outcome failure: its 429
// path takes the node about 60 s to give up there (see the note at its describe).
import fs from 'node:fs';
import {
	ensureN8n,
	freePort,
	installPackageInto,
	removeUserFolder,
	setupOwner,
	createApiKey,
	startN8n,
} from '../../scripts/n8n-runtime.mjs';
import { ACCOUNTS } from './lib/operation-phases.mjs';
import {
	CLI_TIMEOUT,
	INSTALL_TIMEOUT,
	NODE_TYPES,
	activateWorkflow,
	createWorkflowViaApi,
	deactivateWorkflow,
	describeE2e,
	getWorkflowViaApi,
	nodeOutput,
	requirePieces,
	retryExecution,
	sandboxApi,
	sandboxControl,
	sandboxMark,
	sandboxRequests,
	sharedState,
	startPrivateSandbox,
	validCpf,
	waitFor,
	waitForNewExecution,
	listExecutions,
} from './lib/n8n-e2e.mjs';

const PAYOUTS = 'FacilitaPay';
const TRIGGER = 'FacilitaPay Trigger';
const PAYOUT_ROUTE = 'POST /api/v1/transactions';

/**
 * Webhook → Code (one item per payout in the body) → FacilitaPay Create Payout; optionally a
 * FacilitaPay Trigger (not connected) whose registration lives in the workflow's static data.
 * @param {{name: string, path: string, credentials: {id: string, name: string}, idempotencyKey?: boolean, withTrigger?: boolean}} options
 */
function payoutWorkflow({ name, path, credentials, idempotencyKey = false, withTrigger = false }) {
	const creds = { facilitaPayApi: credentials };
	return {
		name,
		settings: {
			executionOrder: 'v1',
			saveDataErrorExecution: 'all',
			saveDataSuccessExecution: 'all',
		},
		nodes: [
			{
				id: 'webhook',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: path,
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			},
			{
				id: 'payouts',
				name: 'Payouts',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: 'return $input.first().json.body.payouts.map((payout) => ({ json: payout }));',
				},
			},
			{
				id: 'facilitapay',
				name: PAYOUTS,
				type: NODE_TYPES.action,
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					resource: 'transaction',
					operation: 'createPayout',
					subjectId: '={{ $json.subjectId }}',
					value: '={{ $json.value }}',
					currency: 'USD',
					exchangeCurrency: 'BRL',
					fromBankAccountId: ACCOUNTS.usdCashOut,
					toBankAccountId: ACCOUNTS.brlCustomer,
					// The node's "Idempotency Key" is a parameter of its own (shown for money-moving
					// operations), not an option under Request Options.
					...(idempotencyKey ? { idempotencyKey: '={{ $json.orderId }}' } : {}),
					requestOptions: { concurrency: 1 },
				},
				credentials: creds,
			},
			...(withTrigger
				? [
						{
							id: 'trigger',
							name: TRIGGER,
							type: NODE_TYPES.trigger,
							typeVersion: 1,
							position: [0, 300],
							// An event the payouts never cause: the trigger only has to stay registered.
							parameters: { events: ['subject_reproved'] },
							webhookId: `wh-${path}`,
							credentials: creds,
						},
					]
				: []),
		],
		connections: {
			Webhook: { main: [[{ node: 'Payouts', type: 'main', index: 0 }]] },
			Payouts: { main: [[{ node: PAYOUTS, type: 'main', index: 0 }]] },
		},
	};
}

/**
 * One n8n (2.x shared or 1.x of this file) with a private sandbox and the two workflows.
 * @typedef {{
 *   label: string, server: {url: string, apiKey: string, client: any},
 *   state: any, plain: {id: string, path: string}, keyed: {id: string, path: string}
 * }} Instance
 */

/**
 * Creates and activates the workflows on `server`, waiting for the trigger's registration.
 * @param {string} label @param {{url: string, apiKey: string, client: any}} server @param {any} sb
 * @returns {Promise<Instance>}
 */
async function prepareInstance(label, server, sb) {
	const state = { ...sb.state, n8nUrl: server.url, apiKey: server.apiKey };
	const tag = `${label.replace(/\W/g, '')}-${Date.now().toString(36)}`;
	const plainPath = `retry-plain-${tag}`;
	const keyedPath = `retry-keyed-${tag}`;
	const plain = await createWorkflowViaApi(
		payoutWorkflow({
			name: `e2e retry button (${label})`,
			path: plainPath,
			credentials: sb.credentials,
			withTrigger: true,
		}),
		state,
	);
	const keyed = await createWorkflowViaApi(
		payoutWorkflow({
			name: `e2e idempotency key (${label})`,
			path: keyedPath,
			credentials: sb.credentials,
			idempotencyKey: true,
		}),
		state,
	);
	const mark = await sandboxMark(state);
	await activateWorkflow(plain.id, state);
	await activateWorkflow(keyed.id, state);
	await waitFor(
		async () =>
			(
				await sandboxRequests(
					{ after: mark, method: 'POST', pathPrefix: '/enable_webhooks' },
					state,
				)
			).length > 0,
		{ what: `the FacilitaPay Trigger (${label}) to register its URL` },
	);
	await waitFor(
		async () =>
			(await getWorkflowViaApi(plain.id, state)).staticData?.[`node:${TRIGGER}`]?.secretHmac,
		{ what: `the trigger's registration (${label}) in the workflow static data` },
	);
	return {
		label,
		server,
		state,
		plain: { id: String(plain.id), path: plainPath },
		keyed: { id: String(keyed.id), path: keyedPath },
	};
}

/** A person of the sandbox, new for each case (its transactions are only that case's). @param {any} state */
async function newSubject(state) {
	const seed = (Date.now() % 100000) + Math.floor(Math.random() * 1000) + 52000;
	const person = await sandboxApi(
		'POST',
		'/subject/people',
		{
			person: {
				document_type: 'cpf',
				document_number: validCpf(seed),
				social_name: `Retry Button ${seed}`,
				fiscal_country: 'BR',
			},
		},
		state,
	);
	const id = person.json?.data?.id;
	if (!id) throw new Error(`Could not create a subject: ${person.text}`);
	return id;
}

/**
 * Starts the workflow through its production webhook URL and returns the execution once it ended.
 * The webhook answers 404 until activation is done (a 404 starts nothing).
 * @param {Instance} n8n @param {{id: string, path: string}} workflow @param {object} body
 */
async function startExecution(n8n, workflow, body) {
	const known = (await listExecutions({ workflowId: workflow.id, limit: 100 }, n8n.state)).map(
		(e) => e.id,
	);
	await waitFor(
		async () => {
			const response = await fetch(`${n8n.server.url}/webhook/${workflow.path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			await response.text();
			if (response.status === 404) return null;
			if (!response.ok) throw new Error(`webhook answered HTTP ${response.status}`);
			return true;
		},
		{ what: `POST /webhook/${workflow.path} to start an execution` },
	);
	return waitForNewExecution(n8n.server, workflow.id, { known });
}

/** The payout requests the sandbox received since `mark`: value and HTTP status of each. @param {any} state @param {number} mark */
async function payoutRequests(state, mark) {
	const requests = await sandboxRequests(
		{ after: mark, method: 'POST', route: PAYOUT_ROUTE },
		state,
	);
	return requests.map((r) => ({
		value: r.body?.transaction?.value ?? null,
		status: r.status,
		fault: r.fault ?? null,
	}));
}

/** Values of the payouts FacilitaPay created (the request reached it and was handled). @param {Array<{value: string|null, status: number|null, fault: string|null}>} requests */
const created = (requests) =>
	requests
		.filter((r) => r.value !== null && (r.fault === 'reset_after' || Number(r.status) < 300))
		.map((r) => r.value);

/** How many times each value occurs. @param {string[]} values */
function countBy(values) {
	/** @type {Record<string, number>} */
	const counts = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
}

/** The subject's transactions at FacilitaPay, by value → ids. @param {any} state @param {string} subjectId */
async function transactionsByValue(state, subjectId) {
	const answer = await sandboxApi('GET', `/subject/${subjectId}/transactions`, undefined, state);
	/** @type {Record<string, string[]>} */
	const byValue = {};
	for (const t of answer.json?.data ?? []) (byValue[t.value] ??= []).push(t.id);
	return byValue;
}

/** Notes what a case measured (printed at the end of the file). @type {string[]} */
const figures = [];

/**
 * How the first execution fails. `definite`: items 0 and 1 paid, item 2 refused with 429 ("did not
 * process it") until the node gives up, the run stops, item 3 not sent. `unknown`: item 0 paid,
 * item 1 created by FacilitaPay which then drops the connection (`reset_after`: the node cannot know
 * it was paid), the run stops, items 2 and 3 not sent.
 */
const FAILURES = {
	definite: {
		fault: { route: PAYOUT_ROUTE, kind: '429', retry_after: 0, skip: 2, count: 100 },
		message: /item 2/,
	},
	unknown: {
		fault: { route: PAYOUT_ROUTE, kind: 'reset_after', skip: 1, count: 1 },
		message: /^Outcome unknown \(item 1\)/,
	},
};

/**
 * A failed execution of the 4 payouts, then n8n's Retry (with `loadWorkflow`): whatever FacilitaPay
 * created in the failed run (items 0 and 1) is not sent again and comes out `alreadyDone: true`,
 * items 2 and 3 are paid once, and the trigger's registration in the same workflow survives.
 * @param {Instance} n8n @param {{failure: keyof typeof FAILURES, loadWorkflow: boolean, values: string[]}} options
 */
async function retryCase(n8n, { failure, loadWorkflow, values }) {
	const subjectId = await newSubject(n8n.state);
	const payouts = values.map((value, i) => ({ subjectId, value, orderId: `order-${value}-${i}` }));
	await sandboxControl('POST', '/faults', FAILURES[failure].fault, n8n.state);
	const mark = await sandboxMark(n8n.state);
	const runStartedAt = Date.now();
	const failed = await startExecution(n8n, n8n.plain, { payouts });
	const runSeconds = (Date.now() - runStartedAt) / 1000;
	await sandboxControl('DELETE', '/faults', undefined, n8n.state);
	const firstRun = await payoutRequests(n8n.state, mark);

	// The failed execution: FacilitaPay created items 0 and 1 (item 1 without answering, for
	// `unknown`), then the run stopped.
	expect(failed.status).toBe('error');
	expect(`${failed.data?.resultData?.error?.message}`).toMatch(FAILURES[failure].message);
	expect(created(firstRun)).toEqual(values.slice(0, 2));
	if (failure === 'definite')
		expect(firstRun.filter((r) => r.status === 429).length).toBeGreaterThan(0);
	else expect(firstRun.find((r) => r.value === values[1])?.fault).toBe('reset_after');

	const staticBefore = (await getWorkflowViaApi(n8n.plain.id, n8n.state)).staticData;
	expect(staticBefore?.[`node:${TRIGGER}`]?.secretHmac).toEqual(expect.any(String));
	const retryMark = await sandboxMark(n8n.state);
	const startedAt = Date.now();
	const retried = await retryExecution(n8n.server, failed.id, { loadWorkflow });
	const seconds = (Date.now() - startedAt) / 1000;
	const inRetry = await payoutRequests(n8n.state, retryMark);
	const lookups = (await sandboxRequests({ after: retryMark, method: 'GET' }, n8n.state)).map((r) =>
		String(r.url).split('?')[0].replace(subjectId, ':subject'),
	);
	const output = nodeOutput(retried.execution, PAYOUTS);
	const staticAfter = (await getWorkflowViaApi(n8n.plain.id, n8n.state)).staticData;
	const atFacilitaPay = await transactionsByValue(n8n.state, subjectId);
	const holds = Object.fromEntries(values.map((v) => [v, atFacilitaPay[v]?.length ?? 0]));
	figures.push(
		`${n8n.label} ${failure} failure, retry with loadWorkflow ${loadWorkflow}: execution ${failed.id} (${runSeconds.toFixed(1)} s, ` +
			`created ${JSON.stringify(created(firstRun))}, ${firstRun.filter((r) => r.status === 429).length} × 429) → ` +
			`${retried.id} (mode ${retried.mode}, retryOf ${retried.retryOf}, ${retried.status}, ${seconds.toFixed(1)} s): ` +
			`sent ${JSON.stringify(inRetry.map((r) => `${r.value}→${r.status}`))}, GETs ${JSON.stringify(lookups)}; ` +
			`FacilitaPay holds ${JSON.stringify(holds)}; output alreadyDone ` +
			`${JSON.stringify(Array.isArray(output) ? output.map((i) => i.alreadyDone ?? null) : output)}; ` +
			`trigger registration kept: ${JSON.stringify(staticAfter?.[`node:${TRIGGER}`]) === JSON.stringify(staticBefore?.[`node:${TRIGGER}`])}, ` +
			`static data unchanged: ${JSON.stringify(staticAfter) === JSON.stringify(staticBefore)}; ` +
			`output item 1: ${JSON.stringify(Array.isArray(output) ? { id: output[1].id, alreadyDone: output[1].alreadyDone, alreadyDoneNote: output[1].alreadyDoneNote } : null)}`,
	);

	// n8n's side: a new execution in mode "retry" that retried the failed one, and succeeded.
	expect(retried.mode).toBe('retry');
	expect(retried.retryOf).toBe(String(failed.id));
	expect(retried.id).not.toBe(String(failed.id));
	expect(retried.status).toBe('success');
	// n8n re-ran only the failed node, with the items it had: Webhook and Code kept their runs.
	const runs = retried.runData?.resultData?.runData ?? {};
	expect(Object.fromEntries(Object.entries(runs).map(([node, r]) => [node, r.length]))).toEqual({
		Webhook: 1,
		Payouts: 1,
		[PAYOUTS]: 1,
	});
	expect(runs.Payouts[0].startTime).toBe(failed.data.resultData.runData.Payouts[0].startTime);
	// Only items 2 and 3 were sent in the retry: each payout reached FacilitaPay exactly once.
	expect(inRetry.map((r) => r.value)).toEqual(values.slice(2));
	expect(countBy(created([...firstRun, ...inRetry]))).toEqual(
		Object.fromEntries(values.map((v) => [v, 1])),
	);
	expect(holds).toEqual(Object.fromEntries(values.map((v) => [v, 1])));
	// The node's output: items 0 and 1 already done (with FacilitaPay's record when the node shows
	// it), items 2 and 3 paid now.
	expect(Array.isArray(output)).toBe(true);
	expect(output).toHaveLength(4);
	for (const i of [0, 1]) {
		expect(output[i]).toMatchObject({ alreadyDone: true, alreadyDoneNote: expect.any(String) });
		if (output[i].id !== undefined) expect(output[i].id).toBe(atFacilitaPay[values[i]][0]);
	}
	for (const i of [2, 3]) {
		expect(output[i].alreadyDone).not.toBe(true);
		expect(output[i]).toMatchObject({ id: atFacilitaPay[values[i]][0], value: values[i] });
	}
	// The FacilitaPay Trigger's registration in the same workflow survived the retry, and the retry
	// wrote no static data.
	expect(staticAfter?.[`node:${TRIGGER}`]).toEqual(staticBefore?.[`node:${TRIGGER}`]);
	expect(staticAfter).toEqual(staticBefore);
}

/**
 * Idempotency Key = the order id: the same four orders in a second, ordinary execution (not a retry)
 * send nothing and come out `alreadyDone: true`.
 * @param {Instance} n8n @param {{values: string[]}} options
 */
async function idempotencyKeyAcrossExecutions(n8n, { values }) {
	const subjectId = await newSubject(n8n.state);
	const tag = Date.now().toString(36);
	const payouts = values.map((value, i) => ({ subjectId, value, orderId: `key-${tag}-${i}` }));
	const mark = await sandboxMark(n8n.state);
	const first = await startExecution(n8n, n8n.keyed, { payouts });
	const firstRun = await payoutRequests(n8n.state, mark);
	expect(first.status).toBe('success');
	expect(created(firstRun)).toEqual(values);

	const secondMark = await sandboxMark(n8n.state);
	const second = await startExecution(n8n, n8n.keyed, { payouts });
	const secondRun = await payoutRequests(n8n.state, secondMark);
	const output = nodeOutput(second, PAYOUTS);
	const atFacilitaPay = await transactionsByValue(n8n.state, subjectId);
	figures.push(
		`${n8n.label} idempotency key: executions ${first.id} (mode ${first.mode}) and ${second.id} (mode ${second.mode}, ${second.status}); ` +
			`second sent ${JSON.stringify(secondRun.map((r) => `${r.value}→${r.status}`))}; ` +
			`FacilitaPay holds ${JSON.stringify(Object.fromEntries(Object.entries(atFacilitaPay).map(([v, ids]) => [v, ids.length])))}`,
	);

	expect(second.mode).not.toBe('retry');
	expect(second.status).toBe('success');
	expect(secondRun.map((r) => r.value)).toEqual([]);
	expect(Object.fromEntries(values.map((v) => [v, atFacilitaPay[v]?.length ?? 0]))).toEqual(
		Object.fromEntries(values.map((v) => [v, 1])),
	);
	expect(Array.isArray(output) && output.length).toBe(4);
	for (const item of output) expect(item).toMatchObject({ alreadyDone: true });
}

describeE2e("n8n's Retry button sends no payout twice", () => {
	afterAll(() => {
		if (figures.length > 0) console.log(`retry-button figures:\n${figures.join('\n')}`);
	});

	describe('n8n 2.41.1 (the shared server)', () => {
		/** @type {Instance} */
		let n8n;
		/** @type {any} */
		let sb;

		beforeAll(async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'node', 'trigger']);
			sb = await startPrivateSandbox({
				id: 'facilitapay-retry-sandbox',
				name: 'FacilitaPay Retry Sandbox',
			});
			const url = /** @type {string} */ (state.n8nUrl);
			const { client } = await setupOwner(url);
			n8n = await prepareInstance(
				'2.41.1',
				{ url, apiKey: /** @type {string} */ (state.apiKey), client },
				sb,
			);
		}, CLI_TIMEOUT);

		afterAll(async () => {
			if (sb) await sandboxControl('DELETE', '/faults', undefined, sb.state).catch(() => undefined);
			// The shared server stays up for other files: leave nothing of ours active there.
			for (const workflow of n8n ? [n8n.plain, n8n.keyed] : [])
				await deactivateWorkflow(workflow.id, n8n.state).catch(() => undefined);
			await sb?.close();
		});

		test.each([
			['Retry with original workflow', false, ['31.01', '31.02', '31.03', '31.04']],
			['Retry with currently saved workflow', true, ['32.01', '32.02', '32.03', '32.04']],
		])(
			'%s after item 2 was refused (429): items 0 and 1, paid before the failure, are not sent again and come out alreadyDone; items 2 and 3 are paid once; the trigger keeps its registration',
			(_name, loadWorkflow, values) =>
				retryCase(n8n, { failure: 'definite', loadWorkflow, values }),
			CLI_TIMEOUT,
		);

		test.each([
			['Retry with original workflow', false, ['33.01', '33.02', '33.03', '33.04']],
			['Retry with currently saved workflow', true, ['33.11', '33.12', '33.13', '33.14']],
		])(
			'%s after an unknown outcome on item 1 (created, then the connection dropped): it is found at FacilitaPay and not sent again',
			(_name, loadWorkflow, values) => retryCase(n8n, { failure: 'unknown', loadWorkflow, values }),
			CLI_TIMEOUT,
		);

		test(
			'Idempotency Key: a second ordinary execution with the same keys sends nothing and outputs alreadyDone for every item',
			() => idempotencyKeyAcrossExecutions(n8n, { values: ['34.01', '34.02', '34.03', '34.04'] }),
			CLI_TIMEOUT,
		);
	});

	// The unknown-outcome failure here, not the 429 one: measured on 2026-11-24, the failed execution
	// with 12 × 429 (Retry-After: 0) took 59.9 s in 1.123.81 against 0.8 s in 2.41.1: in 1.x the
	// node backs off as if no Retry-After had been given.
	describe('n8n 1.123.81 (a server of this file, Node 20)', () => {
		/** @type {Instance} */
		let n8n;
		/** @type {any} */
		let sb;
		/** @type {Awaited<ReturnType<typeof startN8n>> | undefined} */
		let server;

		beforeAll(async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'node', 'trigger']);
			await ensureN8n('v1');
			// `<run>-…` folders are kept/removed with the run's own by the global teardown.
			const userFolder = `${state.userFolder}-v1-retry`;
			removeUserFolder(userFolder);
			fs.mkdirSync(userFolder, { recursive: true });
			installPackageInto(userFolder, state.tarball);
			sb = await startPrivateSandbox(
				{
					id: 'facilitapay-retry-v1-sandbox',
					name: 'FacilitaPay Retry Sandbox (1.x)',
					cli: { version: 'v1', userFolder },
				},
				state,
			);
			server = await startN8n({
				version: 'v1',
				userFolder,
				port: await freePort(),
				brokerPort: await freePort(),
			});
			// 1.x answers /healthz/readiness before its REST routes exist (404 "Cannot POST /rest/login").
			const url = server.url;
			const { client } = await waitFor(() => setupOwner(url), {
				what: 'n8n 1.x to accept the owner set-up and log-in',
				timeoutMs: 60_000,
				intervalMs: 500,
			});
			const apiKey = await createApiKey(url, { client, label: 'e2e retry' });
			n8n = await prepareInstance('1.123.81', { url, apiKey, client }, sb);
		}, INSTALL_TIMEOUT);

		afterAll(async () => {
			if (sb) await sandboxControl('DELETE', '/faults', undefined, sb.state).catch(() => undefined);
			await server?.stop();
			await sb?.close();
		});

		test.each([
			['Retry with original workflow', false, ['35.01', '35.02', '35.03', '35.04']],
			['Retry with currently saved workflow', true, ['36.01', '36.02', '36.03', '36.04']],
		])(
			'1.x, %s after an unknown outcome on item 1: items 0 and 1 are not sent again, 2 and 3 are paid once',
			(_name, loadWorkflow, values) => retryCase(n8n, { failure: 'unknown', loadWorkflow, values }),
			CLI_TIMEOUT,
		);

		test(
			'1.x, Idempotency Key: a second ordinary execution with the same keys sends nothing',
			() => idempotencyKeyAcrossExecutions(n8n, { values: ['37.01', '37.02', '37.03', '37.04'] }),
			CLI_TIMEOUT,
		);
	});
});
