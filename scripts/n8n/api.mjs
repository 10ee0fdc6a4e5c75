// Drives a running n8n through its internal REST API (owner, API keys) and its public API (executions).
import { BROWSER_ID, OWNER } from './common.mjs';

// ---------------------------------------------------------------------------------------------
// REST and public API

/**
 * A tiny cookie-keeping client for n8n's internal REST API.
 * @param {string} url
 */
export function restClient(url) {
	let cookie = '';
	/** @param {string} method @param {string} route @param {unknown} [body] */
	const call = async (method, route, body) => {
		const response = await fetch(`${url}${route}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'browser-id': BROWSER_ID,
				...(cookie ? { cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers.getSetCookie?.() ?? [];
		const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
		if (auth) cookie = auth;
		const text = await response.text();
		let json = null;
		try {
			json = text ? JSON.parse(text) : null;
		} catch {
			json = null;
		}
		return { status: response.status, ok: response.ok, json, text };
	};
	return {
		call,
		get cookie() {
			return cookie;
		},
	};
}

/**
 * Creates the owner account unless one exists, then logs in. Returns the logged-in client.
 * @param {string} url
 * @param {typeof OWNER} [owner]
 */
export async function setupOwner(url, owner = OWNER) {
	const client = restClient(url);
	const setup = await client.call('POST', '/rest/owner/setup', owner);
	const created = setup.ok;
	const login = await client.call('POST', '/rest/login', {
		emailOrLdapLoginId: owner.email,
		email: owner.email,
		password: owner.password,
	});
	if (!login.ok) {
		throw new Error(
			`Could not log in to n8n as ${owner.email} (HTTP ${login.status}: ${login.text.slice(0, 300)}).` +
				(created ? '' : ` Owner setup answered HTTP ${setup.status}: ${setup.text.slice(0, 200)}`),
		);
	}
	return { client, created };
}

/**
 * Creates an API key for the public API (/api/v1) with every scope the instance offers.
 * @param {string} url
 * @param {{client?: ReturnType<typeof restClient>, label?: string}} [options]
 * @returns {Promise<string>}
 */
export async function createApiKey(url, { client, label = `runtime-${Date.now()}` } = {}) {
	const rest = client ?? (await setupOwner(url)).client;
	const scopesResponse = await rest.call('GET', '/rest/api-keys/scopes');
	const scopes = scopesResponse.ok ? (scopesResponse.json?.data ?? []) : undefined;
	const body = { label, expiresAt: null, ...(scopes ? { scopes } : {}) };
	const response = await rest.call('POST', '/rest/api-keys', body);
	const data = response.json?.data;
	const key = data?.rawApiKey ?? data?.apiKey;
	if (!response.ok || !key)
		throw new Error(
			`Could not create an API key (HTTP ${response.status}: ${response.text.slice(0, 300)}).`,
		);
	return key;
}

/**
 * GET on the public API.
 * @param {string} url
 * @param {string} apiKey
 * @param {string} route e.g. "/executions?includeData=true"
 */
export async function publicApi(url, apiKey, route) {
	const response = await fetch(`${url}/api/v1${route}`, {
		headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json' },
	});
	const text = await response.text();
	if (!response.ok)
		throw new Error(`GET /api/v1${route} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
	return JSON.parse(text);
}

/**
 * Executions (newest first) through the public API, with their run data.
 * @param {string} url
 * @param {string} apiKey
 * @param {{workflowId?: string, status?: string, limit?: number, includeData?: boolean}} [filter]
 */
export async function listExecutions(
	url,
	apiKey,
	{ workflowId, status, limit = 50, includeData = true } = {},
) {
	const query = new URLSearchParams({ includeData: String(includeData), limit: String(limit) });
	if (workflowId) query.set('workflowId', workflowId);
	if (status) query.set('status', status);
	const body = await publicApi(url, apiKey, `/executions?${query}`);
	return body.data ?? [];
}

/**
 * The output items (their `json`) of one node in an execution's or a CLI run's data.
 * @param {any} runDataOrExecution  an execution from the public API or `executeWorkflow().runData`
 * @param {string} nodeName
 * @param {number} [outputIndex]
 */
export function nodeOutput(runDataOrExecution, nodeName, outputIndex = 0) {
	const root = runDataOrExecution?.data ?? runDataOrExecution;
	const runs = root?.resultData?.runData?.[nodeName];
	if (!runs) return undefined;
	const last = runs[runs.length - 1];
	if (last.error) return { error: last.error };
	return (last.data?.main?.[outputIndex] ?? []).map(
		(/** @type {{json: unknown}} */ item) => item.json,
	);
}
