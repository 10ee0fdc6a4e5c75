// The sandbox of the e2e run: what it received, its API and control endpoints, a private sandbox
// for one test file, and valid CPFs for fixtures.
import { importIntoN8n } from '../../../scripts/n8n-runtime.mjs';
import { cliOptions, readAnswer, sharedState } from './state.mjs';

/** @typedef {import('./state.mjs').E2eState} E2eState */

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
	return readAnswer(response);
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
