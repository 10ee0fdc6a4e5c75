import type { IDataObject } from 'n8n-workflow';

/** n8n's path for test URLs (N8N_ENDPOINT_WEBHOOK_TEST's default). */
const TEST_PATH = '/webhook-test/';

/**
 * The production URLs this trigger registered on this n8n instance, newest first: the records sent
 * to one of them are this workflow's events. A test URL never counts (a test listening is not production).
 */
export function productionUrls(staticData: IDataObject, instanceId: string): string[] {
	// Static data travels with an exported workflow: what another n8n instance registered is its
	// own (registration/stored.ts, ownUrls), until this instance registers its URL.
	const registeredBy = staticData.ownUrlsInstance;
	if (typeof registeredBy === 'string' && registeredBy !== instanceId) return [];
	const urls: string[] = [];
	const current = staticData.webhookUrl;
	if (typeof current === 'string' && current !== '' && staticData.testRegistration !== true) {
		urls.push(current);
	}
	const own = Array.isArray(staticData.ownUrls) ? staticData.ownUrls : [];
	for (const url of own) {
		if (typeof url === 'string' && url !== '' && !urls.includes(url) && !url.includes(TEST_PATH)) {
			urls.push(url);
		}
	}
	return urls;
}

/*
 * URLs compared as the same resource: the log's `url` may be written in another form than the one
 * registered (by FacilitaPay, or a proxy in front of n8n). Joined: scheme and host case, a default
 * port written or dropped (:443 for https, :80 for http), a trailing slash, percent-encoding of
 * unreserved characters (and the case of other escapes), dot segments, a fragment, an empty query.
 * Kept apart: another path, port, host, scheme, user or query.
 */

/** RFC 3986 unreserved characters: their percent-encoding means the same character. */
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Decodes escapes of unreserved characters; other escapes get upper-case hex. */
function normalEscapes(text: string): string {
	return text.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => {
		const char = String.fromCharCode(parseInt(hex, 16));
		return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
	});
}

/**
 * The normal form of a URL: pure. Two URLs FacilitaPay or a proxy may write for the same webhook
 * have the same normal form; a string that is no URL is its own form (trimmed).
 */
export function normalUrl(url: string): string {
	const text = url.trim();
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		return text;
	}
	// WHATWG URL lower-cases scheme and host, drops a default port and resolves dot segments.
	let path = normalEscapes(parsed.pathname);
	// Unreserved characters decoded may form dot segments again (%2E%2E): resolved once more.
	path = new URL(path, 'http://x').pathname;
	if (path.length > 1) path = path.replace(/\/+$/, '');
	if (path === '/') path = '';
	const search = parsed.search === '?' ? '' : normalEscapes(parsed.search);
	const user = parsed.username || parsed.password ? `${parsed.username}:${parsed.password}@` : '';
	return `${parsed.protocol}//${user}${parsed.host}${path}${search}`;
}

/** Whether a URL is one of `ours`, in normal form; built once for a list. */
export type UrlMatcher = (url: unknown) => boolean;

export function urlMatcher(ours: readonly string[]): UrlMatcher {
	const forms = new Set(ours.map(normalUrl));
	return (url) => typeof url === 'string' && forms.has(normalUrl(url));
}
