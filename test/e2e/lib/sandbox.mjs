// The sandbox of the e2e run: what it received, its API and control endpoints, a private sandbox
// for one test file, valid CPFs and people for fixtures, and credentials that sign in.
import { importIntoN8n, sandboxCredentials } from '../../../scripts/n8n-runtime.mjs';
import { ACCOUNT_IDS } from '../../../sandbox/accounts.mjs';
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

/**
 * The bodies of the POST requests the sandbox received after the `after` mark (see sandboxMark)
 * and matching the filter, in order.
 * @param {number} after @param {{route?: string, pathPrefix?: string}} filter @param {E2eState} [state]
 */
export async function postedBodies(after, filter, state = sharedState()) {
	return (await sandboxRequests({ after, method: 'POST', ...filter }, state)).map((r) => r.body);
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

/**
 * A Brazilian person for the sandbox, with a valid CPF derived from `seed`. `complete` adds what
 * card payments and checkouts need (address, phone); without it only the basic fields.
 * @param {number} seed @param {string} socialName
 * @param {{email?: string|null, complete?: boolean, fiscalCountry?: string}} [options]
 */
export function samplePerson(
	seed,
	socialName,
	{ email = `person.${seed}@example.com`, complete = true, fiscalCountry = 'BR' } = {},
) {
	return {
		document_type: 'cpf',
		document_number: validCpf(seed),
		social_name: socialName,
		fiscal_country: fiscalCountry,
		...(email === null ? {} : { email }),
		...(complete
			? {
					phone_country_code: '55',
					phone_area_code: '11',
					phone_number: '912345678',
					address_street: 'Rua Augusta',
					address_number: '500',
					address_neighborhood: 'Consolação',
					address_city: 'São Paulo',
					address_state: 'SP',
					address_postal_code: '01304000',
					address_country: 'BR',
				}
			: {}),
	};
}

/**
 * Registers `person` in the sandbox through its API (a fixture, not the node under test) and
 * returns the subject it created; throws when the sandbox refuses it.
 * @param {object} person @param {E2eState} [state]
 */
export async function createPerson(person, state = sharedState()) {
	const created = await sandboxApi('POST', '/subject/people', { person }, state);
	if (created.status >= 300 || !created.json?.data?.id)
		throw new Error(
			`The sandbox did not create the person: HTTP ${created.status} ${created.text}`,
		);
	return created.json.data;
}

/** The answer's `data`, or an error naming the sandbox's answer. @param {{status: number, json: any, text: string}} answer */
export function dataOf(answer) {
	if (answer.status >= 300)
		throw new Error(`The sandbox answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
	return answer.json.data;
}

/**
 * Calls the sandbox's API (as sandboxApi) and returns the answer's `data`; throws with the answer
 * when it is not a success.
 * @param {string} method @param {string} apiPath @param {unknown} [body] @param {E2eState} [state]
 */
export async function sandboxData(method, apiPath, body, state = sharedState()) {
	return dataOf(await sandboxApi(method, apiPath, body, state));
}

/**
 * A dynamic PIX the subject pays (`value` BRL, exchanged to USD, into the USD destination account),
 * created through the sandbox's API; returns the transaction.
 * @param {string} subjectId @param {string} value @param {E2eState} [state]
 */
export async function createDynamicPix(subjectId, value, state = sharedState()) {
	const transaction = {
		subject_id: subjectId,
		from_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
		to_bank_account_id: ACCOUNT_IDS.usdDestination,
		currency: 'BRL',
		exchange_currency: 'USD',
		value,
		use_dynamic_pix: true,
	};
	return sandboxData('POST', '/transactions', { transaction }, state);
}

/**
 * A card checkout page for the subject (`value` BRL, exchanged to USD), created through the
 * sandbox's API; returns it (its `id`, and `checkout_id` where the sandbox names one).
 * @param {string} subjectId @param {string} value @param {E2eState} [state]
 */
export async function createCheckout(subjectId, value, state = sharedState()) {
	const checkout = {
		subject_id: subjectId,
		to_bank_account_id: ACCOUNT_IDS.usdDestination,
		currency: 'BRL',
		exchange_currency: 'USD',
		value,
	};
	return sandboxData('POST', '/transactions/checkout', checkout, state);
}

/**
 * Imports credentials that sign in with the sandbox's username and password (sandbox/sandbox)
 * into the shared n8n.
 * @param {{id: string, name: string}} credentials @param {string} sandboxUrl @param {E2eState} [state]
 */
export async function importUsernamePasswordCredentials(
	{ id, name },
	sandboxUrl,
	state = sharedState(),
) {
	const signIn = sandboxCredentials({ baseUrl: `${sandboxUrl}/api/v1`, id, name, signIn: true });
	await importIntoN8n('credentials', [signIn], cliOptions(state));
}

/** A CPF as people type it: 000.000.000-00. @param {string} cpf */
export const formattedCpf = (cpf) =>
	`${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

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
 * A sandbox already running (`sb`, from startPrivateSandbox) made known to another n8n: its
 * credentials (same id and name) imported into `target`'s user folder. Two n8n instances on one
 * FacilitaPay account. Closing stays with the sandbox's owner.
 * @param {{state: any, credentials: {id: string, name: string}, sandboxUrl: string}} sb
 * @param {{version: 'v2'|'v1', userFolder: string, env?: Record<string, string>}} target
 */
export async function shareSandbox(sb, target) {
	const creds = sandboxCredentials({
		baseUrl: `${sb.sandboxUrl}/api/v1`,
		token: sb.state.sandboxToken,
		...sb.credentials,
	});
	await importIntoN8n('credentials', [creds], target);
	return { ...sb, close: async () => undefined };
}
