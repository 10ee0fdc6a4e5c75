// n8n's Retry button (executions list → Retry) headlessly: POST /rest/executions/:id/retry as the
// owner, and reading executions of any running n8n through its public API.
import { listExecutions as listExecutionsApi } from '../../../scripts/n8n-runtime.mjs';
import { sharedState, waitFor } from './state.mjs';

/** @typedef {import('./state.mjs').E2eState} E2eState */

/**
 * @typedef {{url: string, apiKey: string, client?: {call: (method: string, route: string, body?: unknown) => Promise<{status: number, ok: boolean, json: any, text: string}>}}} N8nServer
 * A running n8n server: its base URL, an API key for the public API and, optionally, a REST client
 * logged in as the owner (setupOwner().client); without one, retryExecution() logs in.
 */

/** @param {N8nServer | E2eState | undefined} n8n @returns {N8nServer} */
function serverOf(n8n) {
	const source = /** @type {any} */ (n8n ?? sharedState());
	const url = source.url ?? source.n8nUrl;
	if (!url || !source.apiKey) throw new Error('No running n8n server (url and apiKey) was given.');
	return { url: String(url).replace(/\/$/, ''), apiKey: source.apiKey, client: source.client };
}

/**
 * One execution through the public API (`GET /api/v1/executions/:id`), with its data unless told.
 * @param {N8nServer | E2eState | undefined} n8n
 * @param {string|number} executionId
 * @param {{includeData?: boolean}} [options]
 */
export async function getExecution(n8n, executionId, { includeData = true } = {}) {
	const { url, apiKey } = serverOf(n8n);
	const response = await fetch(
		`${url}/api/v1/executions/${executionId}?includeData=${includeData}`,
		{ headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json' } },
	);
	const text = await response.text();
	if (!response.ok)
		throw new Error(
			`GET /api/v1/executions/${executionId}: HTTP ${response.status} ${text.slice(0, 300)}`,
		);
	return JSON.parse(text);
}

/** Whether an execution (as the public API shows it) has ended. @param {any} execution */
export const executionEnded = (execution) =>
	Boolean(execution) &&
	!['new', 'running', 'waiting', 'unknown'].includes(String(execution.status)) &&
	(execution.finished === true || Boolean(execution.stoppedAt));

/**
 * Waits for an execution of `workflowId` that is not among `known` (ids) and has ended; returns it
 * with its data. For executions n8n starts on its own (a webhook call, a trigger).
 * @param {N8nServer | E2eState | undefined} n8n
 * @param {string} workflowId
 * @param {{known?: Iterable<string|number>, timeoutMs?: number}} [options]
 */
export async function waitForNewExecution(
	n8n,
	workflowId,
	{ known = [], timeoutMs = 60_000 } = {},
) {
	const server = serverOf(n8n);
	const seen = new Set([...known].map(String));
	const found = await waitFor(
		async () => {
			const list = await listExecutionsApi(server.url, server.apiKey, {
				workflowId,
				includeData: false,
				limit: 20,
			});
			return list.find((e) => !seen.has(String(e.id)) && executionEnded(e)) ?? null;
		},
		{ what: `a new finished execution of workflow ${workflowId}`, timeoutMs },
	);
	return getExecution(server, found.id);
}

/**
 * Retries a failed execution the way the executions list's Retry button does, headlessly:
 * `POST /rest/executions/:id/retry` with `{ loadWorkflow }` as the logged-in owner
 * (`loadWorkflow: true` = "Retry with currently saved workflow", `false` = "Retry with original
 * workflow"). n8n runs a NEW execution (mode "retry", `retryOf` = the failed one) that resumes at
 * the node that failed, with its original input items. Only an execution that was saved with its
 * data, has not succeeded and is not queued can be retried (any mode: webhook, trigger, cli…).
 *
 * n8n 2.41.1 and 1.123.81 both answer once the retry has ended, with `{data: {id, mode: "retry",
 * retryOf, status, finished, data…}}` (in queue mode `data` carries no run data: the worker ran
 * it). Older n8n answered only whether it finished; then the new execution is found by its
 * `retryOf`. Either way this waits until the retried execution has ended and reads it, with its
 * data, through the public API (`GET /api/v1/executions/:id?includeData=true`).
 * @param {N8nServer | E2eState | undefined} n8n
 * @param {string|number} executionId
 * @param {{loadWorkflow?: boolean, timeoutMs?: number}} [options]
 * @returns {Promise<{id: string, status: string, mode: string, retryOf: string|null, execution: any, runData: any, answer: any}>}
 */
export async function retryExecution(
	n8n,
	executionId,
	{ loadWorkflow = false, timeoutMs = 120_000 } = {},
) {
	const server = serverOf(n8n);
	const { setupOwner } = await import('../../../scripts/n8n-runtime.mjs');
	const client = server.client ?? (await setupOwner(server.url)).client;
	const original = await getExecution(server, executionId, { includeData: false });
	const retriesBefore = async () =>
		(
			await listExecutionsApi(server.url, server.apiKey, {
				workflowId: String(original.workflowId),
				includeData: false,
				limit: 250,
			})
		).filter((e) => String(e.retryOf ?? '') === String(executionId));
	const earlier = new Set((await retriesBefore()).map((e) => String(e.id)));

	const response = await client.call('POST', `/rest/executions/${executionId}/retry`, {
		loadWorkflow,
	});
	if (!response.ok)
		throw new Error(
			`POST /rest/executions/${executionId}/retry: HTTP ${response.status} ${response.text.slice(0, 400)}`,
		);
	const answer = response.json?.data ?? response.json;
	let id = answer && typeof answer === 'object' && answer.id ? String(answer.id) : null;
	if (!id) {
		const created = await waitFor(
			async () => (await retriesBefore()).find((e) => !earlier.has(String(e.id))) ?? null,
			{ what: `the execution retrying ${executionId}`, timeoutMs },
		);
		id = String(created.id);
	}
	const execution = await waitFor(
		async () => {
			const current = await getExecution(server, /** @type {string} */ (id));
			return executionEnded(current) ? current : null;
		},
		{ what: `the retried execution ${id} to end`, timeoutMs },
	);
	return {
		id,
		status: execution.status,
		mode: execution.mode,
		retryOf: execution.retryOf == null ? null : String(execution.retryOf),
		execution,
		runData: execution.data,
		answer,
	};
}
