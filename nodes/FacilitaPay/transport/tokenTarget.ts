import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

/*
 * Where the account's token may go: the base URL of the credentials (production, sandbox, or a
 * custom one, checked), the local hosts plain http may reach, and tokenMayGoTo, which the
 * credential's authenticate and its Test button ask before the token is put on a request.
 */

export const PRODUCTION_BASE_URL = 'https://api.facilitapay.com/api/v1';
export const SANDBOX_BASE_URL = 'https://sandbox-api.facilitapay.com/api/v1';

/**
 * Whether a host name, as `new URL()` gives it, is on this machine or a private network: the
 * only places plain http may go (a local sandbox, a proxy next to n8n). Literal addresses in
 * 127/8, 10/8, 172.16/12, 192.168/16, ::1, fc00::/7 and fe80::/10, and `localhost` or a name
 * ending in `.localhost`; any other name (`localhost.evil.example`, `10.evil.example`) is not.
 */
export function isLocalHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
	if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
	// `new URL()` writes IPv6 addresses in full hextets: fc00::/7 starts fcXX or fdXX, fe80::/10
	// starts fe8X to febX.
	if (/^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host)) return true;
	if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return false;
	const [a, b] = host.split('.').map(Number);
	return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/**
 * Why the bearer token may not travel to this parsed URL on its own terms, or undefined when it
 * may: https, or plain http to a local or private host only, and no user name or password in the
 * URL (`http://127.0.0.1@evil.example` goes to evil.example).
 */
function transportProblem(url: URL, text: string): string | undefined {
	if (url.username !== '' || url.password !== '')
		return `"${text}" carries a user name or password before its host: enter it as https://host/api/v1`;
	if (url.protocol === 'https:') return undefined;
	if (url.protocol === 'http:') {
		if (isLocalHost(url.hostname)) return undefined;
		return `"${text}" uses plain http to a host outside this machine or network, which would send the token unencrypted: use https://`;
	}
	return `"${text}" must start with https:// (or http:// for a local sandbox)`;
}

/**
 * Why a custom base URL cannot be used, or undefined when it can: it must be an http(s) URL, and
 * plain http only for loopback or private addresses.
 */
export function baseUrlProblem(url: string): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return `"${url}" is not a URL: enter it as https://host/api/v1`;
	}
	return transportProblem(parsed, url);
}

/** The API base URL the credentials point at, without a trailing slash. */
export function credentialBaseUrl(credentials: ICredentialDataDecryptedObject): string {
	const environment = (credentials.environment as string | undefined) ?? 'production';
	let url = PRODUCTION_BASE_URL;
	if (environment === 'sandbox') url = SANDBOX_BASE_URL;
	if (environment === 'custom') {
		url = String(credentials.baseUrl ?? '').trim();
		const problem = baseUrlProblem(url);
		if (problem) throw new Error(`FacilitaPay credentials: the Base URL ${problem}.`);
	}
	return url.replace(/\/+$/, '');
}

/**
 * THE host rule: whether the bearer token of these credentials may be attached to a request to
 * `url`. Only when the URL's host (name and port, compared exactly) is the host of the
 * credentials' own base URL, over https or, to a local or private host, plain http, with no user
 * name or password in the URL. Never when the credentials' base URL itself is refused.
 * `authenticate` decides with it for every request of every node, the credential test included;
 * the Base URL itself is checked by `baseUrlProblem` with the same transport rule.
 */
export function tokenMayGoTo(url: string, credentials: ICredentialDataDecryptedObject): boolean {
	let own: URL;
	let target: URL;
	try {
		own = new URL(credentialBaseUrl(credentials));
		target = new URL(url);
	} catch {
		return false;
	}
	return transportProblem(target, url) === undefined && target.host === own.host;
}

/** How axios tells an absolute URL (which makes it ignore `baseURL`). */
const ABSOLUTE_URL = /^([a-z][a-z\d+\-.]*:)?\/\//i;

/**
 * Where a request n8n is about to send goes: its `url` (or the legacy `uri` of n8n's HTTP Request
 * node), against `baseURL` when relative. A relative URL is resolved both as axios sends it (the
 * two joined with one slash) and as the URL standard reads it, so that the token goes only when
 * both readings reach the same allowed host. Empty when it cannot be told.
 */
export function requestTargets(options: IDataObject): string[] {
	const raw = options.url ?? options.uri;
	const url = raw === undefined || raw === null ? '' : String(raw);
	const base = options.baseURL === undefined ? undefined : String(options.baseURL);
	if (ABSOLUTE_URL.test(url) || base === undefined) return url === '' ? [] : [url];
	if (url === '') return [base];
	const joined = `${base.replace(/\/?\/$/, '')}/${url.replace(/^\/+/, '')}`;
	try {
		return [joined, new URL(url, base).href];
	} catch {
		return [joined];
	}
}
