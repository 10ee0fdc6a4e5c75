// The shared n8n: importing and running workflows with its CLI, publishing and unpublishing them,
// creating and reading them and their executions through the public API, and posting to a URL.
import {
	executeWorkflow,
	importIntoN8n,
	listExecutions as listExecutionsApi,
	n8nCli,
	nodeOutput,
} from '../../../scripts/n8n-runtime.mjs';
import { cliOptions, readAnswer, sharedState } from './state.mjs';

/** @typedef {import('./state.mjs').E2eState} E2eState */

/**
 * Imports workflows with `n8n import:workflow`.
 * @param {object|object[]} workflows
 * @param {E2eState} [state]
 */
export async function importWorkflows(workflows, state = sharedState()) {
	await importIntoN8n(
		'workflow',
		Array.isArray(workflows) ? workflows : [workflows],
		cliOptions(state),
	);
}

/**
 * Imports the workflow (unless `imported`), runs it with `n8n execute --id --rawOutput` and
 * returns the output items (json) of `nodeName`, the node's error if it failed, and the whole run.
 * @param {any} workflow
 * @param {{nodeName?: string, state?: E2eState, imported?: boolean}} [options]
 */
export async function runWorkflow(
	workflow,
	{ nodeName = 'FacilitaPay', state = sharedState(), imported = false } = {},
) {
	if (!imported) await importWorkflows(workflow, state);
	const result = await executeWorkflow(workflow.id, cliOptions(state));
	const runData = result.runData;
	const output = runData ? nodeOutput(runData, nodeName) : undefined;
	const error = output && !Array.isArray(output) ? output.error : runData?.resultData?.error;
	return {
		items: Array.isArray(output) ? output : [],
		error: error ?? null,
		exitCode: result.code,
		runData,
		stdout: result.stdout,
		stderr: result.stderr,
	};
}

/**
 * Activates ("publishes", in 2.x words) a workflow on the running shared server through the public
 * API. In 2.x the trigger's registration happens asynchronously right after the answer: wait for
 * its effect (e.g. the registration request in sandboxRequests) with waitFor().
 * @param {string} workflowId
 * @param {E2eState} [state]
 */
export async function activateWorkflow(workflowId, state = sharedState()) {
	return await postWorkflowAction(workflowId, ['publish', 'activate'], state);
}

/**
 * POSTs the first workflow action of the public API that this n8n knows (2.x names first, then 1.x's).
 * @param {string} workflowId
 * @param {string[]} actions
 * @param {E2eState} state
 */
async function postWorkflowAction(workflowId, actions, state) {
	if (!state.n8nUrl || !state.apiKey) throw new Error('The shared n8n server is not running.');
	const errors = [];
	for (const route of actions.map((action) => `/workflows/${workflowId}/${action}`)) {
		const response = await fetch(`${state.n8nUrl}/api/v1${route}`, {
			method: 'POST',
			headers: { 'X-N8N-API-KEY': state.apiKey, 'content-type': 'application/json' },
			body: '{}',
		});
		if (response.ok) return response.json();
		errors.push(`POST ${route}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
	}
	throw new Error(`Could not ${actions[0]} workflow ${workflowId}: ${errors.join('; ')}`);
}

/**
 * Creates a workflow on the running server through the public API (faster than the CLI import,
 * and the server knows about it at once). Returns the created workflow (with its id).
 * @param {any} workflow
 * @param {E2eState} [state]
 */
export async function createWorkflowViaApi(workflow, state = sharedState()) {
	if (!state.n8nUrl || !state.apiKey) throw new Error('The shared n8n server is not running.');
	const { name, nodes, connections, settings } = workflow;
	const response = await fetch(`${state.n8nUrl}/api/v1/workflows`, {
		method: 'POST',
		headers: { 'X-N8N-API-KEY': state.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({ name, nodes, connections, settings }),
	});
	const text = await response.text();
	if (!response.ok)
		throw new Error(`POST /api/v1/workflows: HTTP ${response.status} ${text.slice(0, 300)}`);
	return JSON.parse(text);
}

/**
 * Executions of the shared server (public API, with data), newest first.
 * @param {{workflowId?: string, status?: string, limit?: number}} [filter]
 * @param {E2eState} [state]
 */
export async function listExecutions(filter = {}, state = sharedState()) {
	if (!state.n8nUrl || !state.apiKey) throw new Error('The shared n8n server is not running.');
	return listExecutionsApi(state.n8nUrl, state.apiKey, filter);
}

export { nodeOutput };

/** Ids of the executions a workflow has so far. @param {string} workflowId @param {E2eState} [state] */
export async function knownExecutions(workflowId, state = sharedState()) {
	return new Set(
		(await listExecutions({ workflowId, limit: 100, includeData: false }, state)).map((e) =>
			String(e.id),
		),
	);
}

/** Runs any other n8n CLI command against the shared user folder. @param {string[]} args @param {E2eState} [state] */
export async function cli(args, state = sharedState()) {
	return n8nCli(args, { ...cliOptions(state), allowFailure: true });
}

/**
 * The binary data n8n kept for a node's output item in a CLI run (`runWorkflow().runData`): its
 * metadata ({mimeType, fileName, fileExtension, fileSize, id?, data?}) per binary property.
 * @param {any} runData @param {string} nodeName @param {number} [itemIndex]
 */
export function nodeBinary(runData, nodeName, itemIndex = 0) {
	const runs = (runData?.data ?? runData)?.resultData?.runData?.[nodeName];
	return runs?.[runs.length - 1]?.data?.main?.[0]?.[itemIndex]?.binary ?? null;
}

/**
 * Deactivates ("unpublishes", in 2.x words) a workflow on the running shared server through the
 * public API (`/unpublish`, falling back to 1.x's `/deactivate`). The trigger's delete() runs
 * right after: wait for its effect with waitFor().
 * @param {string} workflowId
 * @param {E2eState} [state]
 */
export async function deactivateWorkflow(workflowId, state = sharedState()) {
	return await postWorkflowAction(workflowId, ['unpublish', 'deactivate'], state);
}

/**
 * A workflow as the public API shows it (nodes, active, staticData…).
 * @param {string} workflowId
 * @param {E2eState} [state]
 */
export async function getWorkflowViaApi(workflowId, state = sharedState()) {
	if (!state.n8nUrl || !state.apiKey) throw new Error('The shared n8n server is not running.');
	const response = await fetch(`${state.n8nUrl}/api/v1/workflows/${workflowId}`, {
		headers: { 'X-N8N-API-KEY': state.apiKey, accept: 'application/json' },
	});
	const text = await response.text();
	if (!response.ok)
		throw new Error(
			`GET /api/v1/workflows/${workflowId}: HTTP ${response.status} ${text.slice(0, 300)}`,
		);
	return JSON.parse(text);
}

/**
 * POSTs straight to a URL (e.g. n8n's production webhook URL), as a forger would. `body` is sent
 * as JSON unless it is a string (sent as is, with `contentType`).
 * @param {string} url
 * @param {unknown} body
 * @param {{contentType?: string}} [options]
 * @returns {Promise<{status: number, text: string, json: any}>}
 */
export async function postRaw(url, body, { contentType = 'application/json' } = {}) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': contentType },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	return readAnswer(response);
}
