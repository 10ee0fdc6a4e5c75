// Helpers for the tests that drive a real n8n (test/e2e/*.test.mjs). The shared n8n (one install,
// one user folder, one server, one sandbox) is prepared by test/e2e/global-setup.mjs; these helpers
// read its state file. Add a workflow per operation with workflowWithNode() + runWorkflow().
import fs from 'node:fs';
import path from 'node:path';
import {
	CACHE_DIR,
	CREDENTIAL_TYPE,
	NODE_TYPES,
	ROOT,
	executeWorkflow,
	importIntoN8n,
	listExecutions as listExecutionsApi,
	n8nCli,
	nodeOutput,
} from '../../../scripts/n8n-runtime.mjs';

export { NODE_TYPES, CREDENTIAL_TYPE };

export const STATE_FILE = path.join(CACHE_DIR, 'e2e', 'state.json');
/** Per-test timeout for anything that boots n8n's CLI (each call takes 5-15 s on 2 cores). */
export const CLI_TIMEOUT = 120_000;
/** Timeout for a beforeAll that may install n8n (cold: several minutes). */
export const INSTALL_TIMEOUT = 900_000;

/**
 * Whether the e2e tests should run: `npm run test:e2e`, a jest run given a test/e2e path, or
 * FACILITAPAY_E2E=1. A plain `npm test` skips them (they need minutes and ~1 GB for n8n).
 */
export function e2eEnabled() {
	return process.env.FACILITAPAY_E2E === '1';
}

/** `describe` when e2e tests are enabled, else `describe.skip`. */
export function describeE2e(name, fn) {
	const d = /** @type {any} */ (globalThis).describe;
	return (e2eEnabled() ? d : d.skip)(name, fn);
}

/**
 * @typedef {{
 *   version: 'v2'|'v1', userFolder: string, n8nUrl: string|null, apiKey: string|null,
 *   sandboxUrl: string|null, sandboxToken: string, credentials: {id: string, name: string}|null,
 *   tarball: string, missing: string[]
 * }} E2eState
 */

/** The shared n8n prepared by global-setup.mjs. @returns {E2eState} */
export function sharedState() {
	const file = process.env.FACILITAPAY_E2E_STATE ?? STATE_FILE;
	if (!fs.existsSync(file)) {
		throw new Error(
			`No e2e state at ${file}: run the e2e tests through jest (npm run test:e2e), whose globalSetup prepares n8n.`,
		);
	}
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Fails with the list of pieces global-setup found missing (node, sandbox…). @param {E2eState} state @param {string[]} needs */
export function requirePieces(state, needs) {
	const missing = state.missing.filter((m) => needs.some((n) => m.startsWith(n)));
	if (missing.length > 0) throw new Error(`The e2e environment lacks: ${missing.join('; ')}`);
}

let counter = 0;
/** A workflow id unique to this run (n8n ids are strings of at most 36 characters). @param {string} prefix */
export function uniqueId(prefix) {
	counter += 1;
	return `${prefix}-${Date.now().toString(36)}-${counter}`.slice(0, 36);
}

/**
 * A workflow: Manual Trigger → one node (named "FacilitaPay" unless told), using the shared
 * sandbox credentials.
 * @param {{
 *   type?: string, parameters?: object, typeVersion?: number, name?: string, nodeName?: string,
 *   credentials?: {id: string, name: string} | null, id?: string, extraNodes?: object[]
 * }} options
 */
export function workflowWithNode({
	type = NODE_TYPES.action,
	parameters = {},
	typeVersion = 1,
	name,
	nodeName = 'FacilitaPay',
	credentials = sharedCredentialsOrNull(),
	id = uniqueId('e2e'),
} = {}) {
	return {
		id,
		name: name ?? `e2e ${type.split('.').pop()} ${JSON.stringify(parameters).slice(0, 60)}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'manual-trigger',
				name: 'When clicking Execute',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'node-under-test',
				name: nodeName,
				type,
				typeVersion,
				position: [220, 0],
				parameters,
				...(credentials ? { credentials: { [CREDENTIAL_TYPE]: credentials } } : {}),
			},
		],
		connections: {
			'When clicking Execute': { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
		},
		pinData: {},
	};
}

/**
 * A workflow holding a single trigger node (e.g. the FacilitaPay Trigger), to activate.
 * @param {{type?: string, parameters?: object, typeVersion?: number, id?: string, nodeName?: string, webhookId?: string}} options
 */
export function workflowWithTrigger({
	type = NODE_TYPES.trigger,
	parameters = {},
	typeVersion = 1,
	id = uniqueId('e2e-trigger'),
	nodeName = 'FacilitaPay Trigger',
	webhookId = `wh-${id}`,
} = {}) {
	const credentials = sharedCredentialsOrNull();
	return {
		id,
		name: `e2e trigger ${id}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'trigger-under-test',
				name: nodeName,
				type,
				typeVersion,
				position: [0, 0],
				parameters,
				webhookId,
				...(credentials ? { credentials: { [CREDENTIAL_TYPE]: credentials } } : {}),
			},
		],
		connections: {},
		pinData: {},
	};
}

function sharedCredentialsOrNull() {
	try {
		return sharedState().credentials;
	} catch {
		return null;
	}
}

/** @param {E2eState} state */
const cliOptions = (state) => ({ version: state.version, userFolder: state.userFolder });

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

/**
 * How many requests the sandbox has logged so far; pass it as `after` to sandboxRequests() to see
 * only what came later. (The log's `at` is the sandbox's virtual clock, not wall time.)
 * @param {E2eState} [state]
 */
export async function sandboxMark(state = sharedState()) {
	return (await fetchSandboxLog(state)).length;
}

/** @param {E2eState} state */
async function fetchSandboxLog(state) {
	if (!state.sandboxUrl)
		throw new Error('The sandbox is not running (sandbox/server.mjs missing?).');
	const response = await fetch(`${state.sandboxUrl}/_sandbox/requests`);
	if (!response.ok) throw new Error(`GET /_sandbox/requests: HTTP ${response.status}`);
	const body = await response.json();
	return /** @type {Array<{method: string, url: string, route?: string, query?: any, body?: any, at?: string}>} */ (
		body.data ?? []
	);
}

/**
 * Requests the sandbox received (GET /_sandbox/requests): those logged after the `after` mark
 * (see sandboxMark) and matching the filter.
 * @param {{after?: number, method?: string, route?: string, pathPrefix?: string}} [filter]
 * @param {E2eState} [state]
 */
export async function sandboxRequests(
	{ after = 0, method, route, pathPrefix } = {},
	state = sharedState(),
) {
	return (await fetchSandboxLog(state))
		.slice(after)
		.filter(
			(r) =>
				(!method || r.method === method) &&
				(!route || r.route === route) &&
				(!pathPrefix || String(r.url).includes(pathPrefix)),
		);
}

/** POST /_sandbox/reset. @param {E2eState} [state] */
export async function resetSandbox(state = sharedState()) {
	if (!state.sandboxUrl) throw new Error('The sandbox is not running.');
	const response = await fetch(`${state.sandboxUrl}/_sandbox/reset`, { method: 'POST' });
	if (!response.ok) throw new Error(`POST /_sandbox/reset: HTTP ${response.status}`);
}

/**
 * Calls the sandbox's API directly (as a test fixture, not as the node under test).
 * @param {string} method
 * @param {string} apiPath e.g. "/subject/people"
 * @param {unknown} [body]
 * @param {E2eState} [state]
 */
export async function sandboxApi(method, apiPath, body, state = sharedState()) {
	if (!state.sandboxUrl) throw new Error('The sandbox is not running.');
	const response = await fetch(`${state.sandboxUrl}/api/v1${apiPath}`, {
		method,
		headers: { authorization: `Bearer ${state.sandboxToken}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	let json = null;
	try {
		json = JSON.parse(text);
	} catch {
		json = null;
	}
	return { status: response.status, json, text };
}

/** A valid CPF (11 digits with correct check digits) derived from `seed`. @param {number} seed */
export function validCpf(seed) {
	const base = String(100000000 + ((seed * 7919) % 899999999))
		.slice(0, 9)
		.split('')
		.map(Number);
	if (new Set(base).size === 1) base[0] = (base[0] + 1) % 10;
	const check = (/** @type {number[]} */ digits) => {
		const sum = digits.reduce((acc, d, i) => acc + d * (digits.length + 1 - i), 0);
		const rest = sum % 11;
		return rest < 2 ? 0 : 11 - rest;
	};
	const d1 = check(base);
	const d2 = check([...base, d1]);
	return [...base, d1, d2].join('');
}

/** Runs any other n8n CLI command against the shared user folder. @param {string[]} args @param {E2eState} [state] */
export async function cli(args, state = sharedState()) {
	return n8nCli(args, { ...cliOptions(state), allowFailure: true });
}

/**
 * Polls `check` until it returns a truthy value (then returns it) or `timeoutMs` passes (then
 * throws with `what`). For things n8n does on its own: an execution appearing, a trigger
 * registering. Not a sleep: it returns as soon as the condition holds.
 * @template T
 * @param {() => Promise<T>} check
 * @param {{what: string, timeoutMs?: number, intervalMs?: number}} options
 * @returns {Promise<T>}
 */
export async function waitFor(check, { what, timeoutMs = 30_000, intervalMs = 250 }) {
	const deadline = Date.now() + timeoutMs;
	let lastError;
	for (;;) {
		try {
			const value = await check();
			if (value) return value;
		} catch (error) {
			lastError = error;
		}
		if (Date.now() > deadline) {
			throw new Error(
				`Timed out waiting for ${what}${lastError ? ` (last error: ${/** @type {Error} */ (lastError).message})` : ''}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/** GET on the sandbox's control API (/_sandbox/...). @param {string} route @param {E2eState} [state] */
export async function sandboxControl(method, route, body, state = sharedState()) {
	if (!state.sandboxUrl) throw new Error('The sandbox is not running.');
	const response = await fetch(`${state.sandboxUrl}/_sandbox${route}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok)
		throw new Error(`${method} /_sandbox${route}: HTTP ${response.status} ${text.slice(0, 300)}`);
	return text ? JSON.parse(text) : null;
}

// ---------------------------------------------------------------------------------------------
// Multi-node workflows and a private sandbox (test/e2e/operations*.test.mjs, bad-input.test.mjs)

/**
 * A FacilitaPay action node for chainWorkflow().
 * @param {string} name
 * @param {object} parameters
 * @param {{executeOnce?: boolean, onError?: string, credentials?: {id: string, name: string}}} [settings]
 */
export function actionStep(name, parameters, settings = {}) {
	return { name, type: NODE_TYPES.action, typeVersion: 1, parameters, ...settings };
}

/**
 * An HTTP Request node (n8n-nodes-base.httpRequest 4.2) sending JSON, e.g. to the sandbox's control
 * endpoints between two FacilitaPay nodes. `url` may be an n8n expression ("=…{{ … }}").
 * @param {string} name
 * @param {{method?: string, url: string, body?: object}} request
 * @param {{executeOnce?: boolean}} [settings]
 */
export function httpStep(name, { method = 'POST', url, body }, settings = {}) {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method,
			url,
			...(body === undefined
				? {}
				: { sendBody: true, specifyBody: 'json', jsonBody: JSON.stringify(body) }),
			options: {},
		},
		...settings,
	};
}

/** A Code node (JavaScript, once for all items). @param {string} name @param {string} jsCode */
export function codeStep(name, jsCode) {
	return { name, type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode } };
}

/**
 * Manual Trigger → steps, one after another (each step's output is the next one's input). Steps
 * are nodes without position/id ({name, type, typeVersion, parameters, executeOnce?, onError?,
 * credentials?}); FacilitaPay nodes get `credentials` unless they name their own.
 * @param {{steps: any[], id?: string, name?: string, credentials?: {id: string, name: string} | null}} options
 */
export function chainWorkflow({
	steps,
	id = uniqueId('e2e-chain'),
	name,
	credentials = sharedCredentialsOrNull(),
}) {
	const trigger = {
		id: 'manual-trigger',
		name: 'When clicking Execute',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodes = [trigger];
	/** @type {Record<string, any>} */
	const connections = {};
	let previous = trigger.name;
	steps.forEach((step, index) => {
		const { credentials: own, ...node } = step;
		const usesCredentials = node.type === NODE_TYPES.action || node.type === NODE_TYPES.trigger;
		const creds = own ?? credentials;
		nodes.push({
			id: `step-${index + 1}`,
			position: [220 * (index + 1), 0],
			...node,
			...(usesCredentials && creds ? { credentials: { [CREDENTIAL_TYPE]: creds } } : {}),
		});
		connections[previous] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
		previous = node.name;
	});
	return {
		id,
		name: name ?? `e2e chain ${id}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections,
		pinData: {},
	};
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
 * A second sandbox in this process, only for the calling test file: its own state, clock (frozen
 * at `now`, moved with POST /_sandbox/clock/advance) and webhook URL, so a test can advance days,
 * enable/disable webhooks or run settlements without disturbing the shared sandbox that other
 * files use. Imports credentials for it into the shared n8n. Returns a state object to pass to
 * the sandbox helpers (sandboxMark, sandboxRequests, sandboxApi, sandboxControl) and close().
 * `cli` imports the credentials into another n8n instead (e.g. the 1.x user folder).
 * @param {{id: string, name: string, now?: string, cli?: {version: 'v2'|'v1', userFolder: string}}} options
 * @param {E2eState} [state]
 */
export async function startPrivateSandbox({ id, name, now, cli: target }, state = sharedState()) {
	const { sandboxCredentials } = await import('../../../scripts/n8n-runtime.mjs');
	const { createSandbox } = await import('../../../sandbox/server.mjs');
	const sandbox = await createSandbox({
		port: 0,
		host: '127.0.0.1',
		token: state.sandboxToken,
		...(now ? { now } : {}),
	});
	await sandbox.listen();
	const sandboxUrl = String(sandbox.url).replace(/\/$/, '');
	const creds = sandboxCredentials({
		baseUrl: `${sandboxUrl}/api/v1`,
		token: state.sandboxToken,
		id,
		name,
	});
	await importIntoN8n('credentials', [creds], target ?? cliOptions(state));
	return {
		state: { ...state, sandboxUrl },
		credentials: { id: creds.id, name: creds.name },
		sandboxUrl,
		close: () => sandbox.close(),
	};
}

/**
 * Every operation of the action node, as "resource.operation", from the sources
 * (nodes/FacilitaPay/actions/<resource>/<operation>.operation.ts).
 */
export function allOperations() {
	const actions = path.join(ROOT, 'nodes', 'FacilitaPay', 'actions');
	const result = [];
	for (const resource of fs.readdirSync(actions).sort()) {
		const dir = path.join(actions, resource);
		if (!fs.statSync(dir).isDirectory()) continue;
		for (const file of fs.readdirSync(dir).sort()) {
			const match = /^(\w+)\.operation\.ts$/.exec(file);
			if (match) result.push(`${resource}.${match[1]}`);
		}
	}
	return result;
}

/** File in the run folder where tests note the operations they ran in a real n8n. @param {E2eState} state */
export const coverageFile = (state) => path.join(state.userFolder, 'operations-covered.jsonl');

/**
 * Notes that these operations ran in a real n8n with asserted outputs and requests (the global
 * teardown prints the total as "real-n8n operations covered: N/30").
 * @param {string[]} operations "resource.operation"
 * @param {{n8n?: string}} [options] which n8n ran them, e.g. "2.41.1" or "1.123.81"
 * @param {E2eState} [state]
 */
export function recordCoverage(operations, { n8n } = {}, state = sharedState()) {
	n8n ??= /** @type {any} */ (state).n8nVersion ?? state.version;
	fs.appendFileSync(coverageFile(state), `${JSON.stringify({ n8n, operations })}\n`);
}

/**
 * "real-n8n operations covered: N/M" lines, one per n8n, from the run's coverage file.
 * @param {string} userFolder
 */
export function coverageSummary(userFolder) {
	const file = path.join(userFolder, 'operations-covered.jsonl');
	if (!fs.existsSync(file)) return [];
	const all = allOperations();
	/** @type {Map<string, Set<string>>} */
	const byN8n = new Map();
	for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
		const { n8n, operations } = JSON.parse(line);
		if (!byN8n.has(n8n)) byN8n.set(n8n, new Set());
		for (const op of operations) byN8n.get(n8n)?.add(op);
	}
	return [...byN8n].map(([n8n, ops]) => {
		const missing = all.filter((op) => !ops.has(op));
		return `real-n8n operations covered (n8n ${n8n}): ${all.filter((op) => ops.has(op)).length}/${all.length}${missing.length ? `; not covered: ${missing.join(', ')}` : ''}`;
	});
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
	const text = await response.text();
	let json = null;
	try {
		json = JSON.parse(text);
	} catch {
		json = null;
	}
	return { status: response.status, text, json };
}

// ---------------------------------------------------------------------------------------------
// n8n's Retry button (executions list → Retry): POST /rest/executions/:id/retry as the owner

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
