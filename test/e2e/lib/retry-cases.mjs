// n8n's Retry button (issue 17) sending no payout twice: the cases that retry-button.test.mjs
// (n8n 2.41.1, the shared server) and retry-button-v1.test.mjs (n8n 1.123.81) run on their n8n.
// An instance is one n8n with a private sandbox and two Webhook-started workflows of 4 payouts
// (prepareInstance); retryCase() makes one execution fail (a definite failure or an unknown outcome)
// and retries it the way the executions list's Retry button does; idempotencyKeyAcrossExecutions()
// runs the same orders twice. Uses jest's global `expect`.
import { payoutsWorkflow } from './workflows.mjs';
import {
	activateWorkflow,
	createWorkflowViaApi,
	deactivateWorkflow,
	getWorkflowViaApi,
	knownExecutions,
	nodeOutput,
} from './n8n.mjs';
import { retryExecution, waitForNewExecution } from './retry.mjs';
import {
	createPerson,
	samplePerson,
	sandboxApi,
	sandboxControl,
	sandboxMark,
	sandboxRequests,
} from './sandbox.mjs';
import { requirePieces, sharedState, waitFor } from './state.mjs';
import { TRIGGER, activateAndWaitForRegistration, waitForRegistrationSaved } from './trigger.mjs';

const PAYOUTS = 'FacilitaPay';
const PAYOUT_ROUTE = 'POST /api/v1/transactions';

/**
 * One n8n (2.x shared or 1.x of a test file) with a private sandbox and the two workflows.
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
	const editPath = `retry-edit-${tag}`;
	const plain = await createWorkflowViaApi(
		payoutsWorkflow({
			name: `e2e retry button (${label})`,
			path: plainPath,
			credentials: sb.credentials,
			withTrigger: true,
		}),
		state,
	);
	const keyed = await createWorkflowViaApi(
		payoutsWorkflow({
			name: `e2e idempotency key (${label})`,
			path: keyedPath,
			credentials: sb.credentials,
			idempotencyKey: true,
		}),
		state,
	);
	const edit = await createWorkflowViaApi(
		payoutsWorkflow({
			name: `e2e retry after an edit (${label})`,
			path: editPath,
			credentials: sb.credentials,
		}),
		state,
	);
	await activateWorkflow(keyed.id, state);
	await activateWorkflow(edit.id, state);
	await activateAndWaitForRegistration(plain.id, state, {
		what: `the FacilitaPay Trigger (${label}) to register its URL`,
	});
	await waitForRegistrationSaved(plain.id, state);
	return {
		label,
		server,
		state,
		plain: { id: String(plain.id), path: plainPath },
		keyed: { id: String(keyed.id), path: keyedPath },
		edit: { id: String(edit.id), path: editPath },
	};
}

/** A person of the sandbox, new for each case (its transactions are only that case's). @param {any} state */
async function newSubject(state) {
	return (await newPerson(state)).id;
}

/** A new person of the sandbox: its subject ID and the data it was registered with. @param {any} state */
async function newPerson(state) {
	const seed = (Date.now() % 100000) + Math.floor(Math.random() * 1000) + 52000;
	const person = samplePerson(seed, `Retry Button ${seed}`, { email: null, complete: false });
	return { id: (await createPerson(person, state)).id, person };
}

/**
 * Starts the workflow through its production webhook URL and returns the execution once it ended.
 * The webhook answers 404 until activation is done (a 404 starts nothing).
 * @param {Instance} n8n @param {{id: string, path: string}} workflow @param {object} body
 */
async function startExecution(n8n, workflow, body) {
	const known = await knownExecutions(workflow.id, n8n.state);
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

/** Notes what a case measured (printed after the calling file's tests). @type {string[]} */
const figures = [];

/**
 * For the calling describe block: before its tests, `setUp` gives an n8n (and the private sandbox
 * whose credentials it holds) and the instance is prepared on it (`holder.n8n`); after them the
 * faults are removed, the instance's workflows unpublished, that n8n stopped when `setUp` says how,
 * the sandbox closed, and what the cases measured printed.
 * @param {{
 *   label: string, timeout: number,
 *   setUp: (state: any) => Promise<{sb: any, server: {url: string, apiKey: string, client: any}, stop?: () => Promise<unknown>}>
 * }} options
 */
export function useRetryInstance({ label, timeout, setUp }) {
	const holder = {
		/** @type {Instance} */
		n8n: /** @type {any} */ (undefined),
	};
	/** @type {Awaited<ReturnType<typeof setUp>> | undefined} */
	let started;
	const g = /** @type {any} */ (globalThis);
	g.beforeAll(async () => {
		const state = sharedState();
		requirePieces(state, ['sandbox', 'node', 'trigger']);
		started = await setUp(state);
		holder.n8n = await prepareInstance(label, started.server, started.sb);
	}, timeout);
	g.afterAll(async () => {
		if (!started) return;
		const { sb, stop } = started;
		await sandboxControl('DELETE', '/faults', undefined, sb.state).catch(() => undefined);
		// A shared server stays up for other files: leave nothing of ours active there.
		for (const workflow of holder.n8n ? [holder.n8n.plain, holder.n8n.keyed, holder.n8n.edit] : [])
			await deactivateWorkflow(workflow.id, holder.n8n.state).catch(() => undefined);
		await stop?.();
		await sb.close();
		if (figures.length > 0) console.log(`retry-button figures:\n${figures.join('\n')}`);
	});
	return holder;
}

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
export async function retryCase(n8n, { failure, loadWorkflow, values }) {
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

	// What n8n carried into the retry: the failed execution's custom data, where the node wrote the
	// origin of its payments (docs/money.md).
	const failedData = failed.data?.resultData?.metadata ?? failed.customData ?? {};
	const retriedData =
		retried.execution?.data?.resultData?.metadata ?? retried.execution?.customData ?? {};
	figures.push(
		`${n8n.label} ${failure}, loadWorkflow ${loadWorkflow}: custom data of the failed execution ${JSON.stringify(failedData)}, of the retry ${JSON.stringify(retriedData)}`,
	);
	// v2|<origin execution>|…|<tag> (issue 32: tagged by this n8n and workflow).
	expect(String(failedData.facilitapay)).toMatch(new RegExp(`^v2\\|${failed.id}\\|`));
	expect(String(retriedData.facilitapay).split('|')[1]).toBe(String(failed.id));

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
export async function idempotencyKeyAcrossExecutions(n8n, { values }) {
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

/**
 * Issue 24, "paid twice" after an edit: the batch fails on item 2 (429), the user points To Bank
 * Account at another of the customer's accounts, saves, and clicks "Retry with currently saved
 * workflow": items 0 and 1 (paid before the failure) are not paid again; items 2 and 3 are paid once,
 * to the new account. `meanwhile` runs between the failure and the edit (days passing, n8n
 * restarted) and says what it did, for the figures.
 * @param {Instance} n8n @param {{values: string[], meanwhile?: () => Promise<string>}} options
 */
export async function editedRetryCase(n8n, { values, meanwhile }) {
	const { id: subjectId, person } = await newPerson(n8n.state);
	const account = await sandboxApi(
		'POST',
		`/subject/${subjectId}/bank_accounts`,
		{
			bank_account: {
				currency: 'BRL',
				account_type: 'conta-corrente',
				account_number: '54321-0',
				branch_number: '0001',
				owner_name: person.social_name,
				owner_document_type: 'cpf',
				owner_document_number: person.document_number,
				branch_country: 'BRA',
				bank: { code: '031', name: 'Banco Beg S.A.' },
			},
		},
		n8n.state,
	);
	expect(account.status).toBe(200);
	const newAccount = account.json.data.id;
	const payouts = values.map((value, i) => ({ subjectId, value, orderId: `order-${value}-${i}` }));
	await sandboxControl('POST', '/faults', FAILURES.definite.fault, n8n.state);
	const mark = await sandboxMark(n8n.state);
	const failed = await startExecution(n8n, n8n.edit, { payouts });
	await sandboxControl('DELETE', '/faults', undefined, n8n.state);
	expect(failed.status).toBe('error');
	expect(created(await payoutRequests(n8n.state, mark))).toEqual(values.slice(0, 2));
	const between = meanwhile ? `${await meanwhile()}, then ` : '';

	// The edit, saved: To Bank Account of the FacilitaPay node is now the new account.
	const saved = await getWorkflowViaApi(n8n.edit.id, n8n.state);
	const nodes = saved.nodes.map((node) =>
		node.name === PAYOUTS
			? { ...node, parameters: { ...node.parameters, toBankAccountId: newAccount } }
			: node,
	);
	const put = await fetch(`${n8n.server.url}/api/v1/workflows/${n8n.edit.id}`, {
		method: 'PUT',
		headers: { 'X-N8N-API-KEY': n8n.server.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({
			name: saved.name,
			nodes,
			connections: saved.connections,
			settings: saved.settings,
		}),
	});
	expect(put.status).toBe(200);

	const retryMark = await sandboxMark(n8n.state);
	const retried = await retryExecution(n8n.server, failed.id, { loadWorkflow: true });
	const inRetry = await sandboxRequests(
		{ after: retryMark, method: 'POST', route: PAYOUT_ROUTE },
		n8n.state,
	);
	const output = nodeOutput(retried.execution, PAYOUTS);
	figures.push(
		`${n8n.label} ${between}edited To Bank Account, retry with currently saved workflow: sent ${JSON.stringify(inRetry.map((r) => `${r.body?.transaction?.value}→${r.body?.transaction?.to_bank_account_id === newAccount ? 'new account' : 'old account'}`))}; output alreadyDone ${JSON.stringify(Array.isArray(output) ? output.map((i) => i.alreadyDone ?? null) : output)}`,
	);
	expect(retried.status).toBe('success');
	expect(inRetry.map((r) => r.body.transaction.value)).toEqual(values.slice(2));
	expect(inRetry.every((r) => r.body.transaction.to_bank_account_id === newAccount)).toBe(true);
	expect(output.map((item) => item.alreadyDone === true)).toEqual([true, true, false, false]);
}

/**
 * Issue 24: another execution with identical payouts (no key) is another payment: paid again.
 * @param {Instance} n8n @param {{values: string[]}} options
 */
export async function identicalExecutionsCase(n8n, { values }) {
	const subjectId = await newSubject(n8n.state);
	const payouts = values.map((value) => ({ subjectId, value }));
	const mark = await sandboxMark(n8n.state);
	const first = await startExecution(n8n, n8n.edit, { payouts });
	const second = await startExecution(n8n, n8n.edit, { payouts });
	const sent = created(await payoutRequests(n8n.state, mark));
	figures.push(
		`${n8n.label} two ordinary executions with identical payouts: ${first.status}, ${second.status}; created ${JSON.stringify(sent)}`,
	);
	expect([first.status, second.status]).toEqual(['success', 'success']);
	expect(countBy(sent)).toEqual(Object.fromEntries(values.map((v) => [v, 2])));
}

/**
 * Issue 39: item 1's payout is answered 504 by FacilitaPay's gateway and written `commitMs` later
 * (the sandbox's `late_commit`). The Retry button right after (before it is written): item 1 is not
 * found, and "not found" proves nothing yet, so it is not sent (Outcome unknown). Once it is written
 * and FacilitaPay's clock moved 11 minutes on, a Retry of that retry finds it (alreadyDone) and pays
 * items 2 and 3: every payout once at FacilitaPay.
 * @param {Instance} n8n @param {{values: string[], commitMs?: number}} options
 */
export async function lateCommitRetryCase(n8n, { values, commitMs = 8000 }) {
	const subjectId = await newSubject(n8n.state);
	const payouts = values.map((value, i) => ({ subjectId, value, orderId: `order-${value}-${i}` }));
	await sandboxControl(
		'POST',
		'/faults',
		{ route: PAYOUT_ROUTE, kind: 'late_commit', ms: commitMs, skip: 1, count: 1 },
		n8n.state,
	);
	const mark = await sandboxMark(n8n.state);
	const failed = await startExecution(n8n, n8n.plain, { payouts });
	const failedAt = Date.now();
	expect(failed.status).toBe('error');
	expect(`${failed.data?.resultData?.error?.message}`).toMatch(/^Outcome unknown \(item 1\)/);

	const soon = await retryExecution(n8n.server, failed.id, { loadWorkflow: false });
	const soonSeconds = (Date.now() - failedAt) / 1000;
	const afterSoon = await payoutRequests(n8n.state, mark);
	const soonMessage = String(soon.execution?.data?.resultData?.error?.message ?? '');
	// Still not written when the retry looked (the test needs it to be so).
	expect(soonSeconds * 1000).toBeLessThan(commitMs);

	await new Promise((resolve) =>
		setTimeout(resolve, Math.max(0, commitMs + 1000 - (Date.now() - failedAt))),
	);
	await sandboxControl('POST', '/clock/advance', { minutes: 11 }, n8n.state);
	// (A build that sent item 1 again made the first retry succeed: nothing is left to retry.)
	const later =
		soon.status === 'success'
			? soon
			: await retryExecution(n8n.server, soon.id, { loadWorkflow: false });
	const all = await payoutRequests(n8n.state, mark);
	const atFacilitaPay = await transactionsByValue(n8n.state, subjectId);
	const holds = Object.fromEntries(values.map((v) => [v, atFacilitaPay[v]?.length ?? 0]));
	const output = nodeOutput(later.execution, PAYOUTS);
	figures.push(
		`${n8n.label} late commit (${commitMs} ms after the 504): execution ${failed.id} → Retry ${soon.id} ${soonSeconds.toFixed(1)} s after (${soon.status}: ${soonMessage.slice(0, 160)}; payout requests so far ${JSON.stringify(afterSoon.map((r) => `${r.value}→${r.status}`))}) → ` +
			`clock +11 min, Retry ${later.id} (${later.status}): requests in all ${JSON.stringify(all.map((r) => `${r.value}→${r.status}`))}; FacilitaPay holds ${JSON.stringify(holds)}; output alreadyDone ${JSON.stringify(Array.isArray(output) ? output.map((i) => i.alreadyDone ?? null) : output)}`,
	);

	expect(soon.status).toBe('error');
	expect(soonMessage).toMatch(
		/^Outcome unknown \(item 1\): Its earlier try .* FacilitaPay may still be writing it/,
	);
	expect(afterSoon.map((r) => r.value)).toEqual(values.slice(0, 2));
	expect(later.status).toBe('success');
	expect(holds).toEqual(Object.fromEntries(values.map((v) => [v, 1])));
	expect(all.map((r) => r.value)).toEqual(values);
	expect(Array.isArray(output) && output.map((i) => i.alreadyDone ?? false)).toEqual([
		true,
		true,
		false,
		false,
	]);
}
