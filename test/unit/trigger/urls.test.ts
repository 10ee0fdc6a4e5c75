import { normalUrl, urlMatcher } from '../../../nodes/FacilitaPayTrigger/log/urls';

const OURS = 'https://n8n.example.com/webhook/3f1c-9a/webhook';

describe("the log's url in another form: the same webhook", () => {
	it.each<[string, string]>([
		['scheme and host case', 'HTTPS://N8N.Example.COM/webhook/3f1c-9a/webhook'],
		['the default port written', 'https://n8n.example.com:443/webhook/3f1c-9a/webhook'],
		['a trailing slash', 'https://n8n.example.com/webhook/3f1c-9a/webhook/'],
		[
			'unreserved characters percent-encoded',
			'https://n8n.example.com/%77ebhook/3f1c%2D9a/webhook',
		],
		['lower-case escapes', 'https://n8n.example.com/webhook/3f1c%2d9a/%77%65%62%68%6f%6f%6b'],
		['an empty query', 'https://n8n.example.com/webhook/3f1c-9a/webhook?'],
		['a fragment', 'https://n8n.example.com/webhook/3f1c-9a/webhook#x'],
		['a dot segment', 'https://n8n.example.com/webhook/x/../3f1c-9a/webhook'],
		['spaces around it', ` ${OURS} `],
		['all at once', 'HTTPS://n8n.EXAMPLE.com:443/%77ebhook/3f1c%2d9a/webhook/'],
	])('%s', (_what, written) => {
		expect(normalUrl(written)).toBe(normalUrl(OURS));
		expect(urlMatcher([OURS])(written)).toBe(true);
	});

	it('the default port dropped from what was registered with it (http :80 too)', () => {
		expect(
			urlMatcher(['https://n8n.example.com:443/webhook/a/webhook'])(OURS.replace('3f1c-9a', 'a')),
		).toBe(true);
		expect(
			urlMatcher(['http://n8n.local:80/webhook/a/webhook'])('http://n8n.local/webhook/a/webhook'),
		).toBe(true);
	});
});

describe('what differs stays apart', () => {
	it.each<[string, string]>([
		['another path', 'https://n8n.example.com/webhook/3f1c-9a/other'],
		['a path prefix (a proxy)', 'https://n8n.example.com/n8n/webhook/3f1c-9a/webhook'],
		['the path case', 'https://n8n.example.com/Webhook/3f1c-9a/webhook'],
		['another port', 'https://n8n.example.com:8443/webhook/3f1c-9a/webhook'],
		['the other default port', 'https://n8n.example.com:80/webhook/3f1c-9a/webhook'],
		['another host', 'https://n8n2.example.com/webhook/3f1c-9a/webhook'],
		['another scheme', 'http://n8n.example.com/webhook/3f1c-9a/webhook'],
		['a query', 'https://n8n.example.com/webhook/3f1c-9a/webhook?x=1'],
		['an encoded slash (reserved)', 'https://n8n.example.com/webhook%2F3f1c-9a/webhook'],
		['a user', 'https://u@n8n.example.com/webhook/3f1c-9a/webhook'],
		['no URL at all', 'n8n.example.com/webhook/3f1c-9a/webhook'],
	])('%s', (_what, written) => {
		expect(urlMatcher([OURS])(written)).toBe(false);
	});

	it('queries compare by their own normal form', () => {
		const withQuery = `${OURS}?a=%7e`;
		expect(urlMatcher([withQuery])(`${OURS}?a=~`)).toBe(true);
		expect(urlMatcher([withQuery])(`${OURS}?a=~&b`)).toBe(false);
	});

	it('a value that is no string is never ours; a string that is no URL matches only itself', () => {
		const matches = urlMatcher([OURS, 'not a url']);
		expect(matches(undefined)).toBe(false);
		expect(matches(42)).toBe(false);
		expect(matches('not a url')).toBe(true);
		expect(matches('not a url/')).toBe(false);
	});

	it('every earlier URL counts, in any form', () => {
		const matches = urlMatcher([OURS, 'https://old.example.com/webhook/3f1c-9a/webhook']);
		expect(matches('https://OLD.example.com:443/webhook/3f1c-9a/webhook/')).toBe(true);
		expect(matches('https://older.example.com/webhook/3f1c-9a/webhook')).toBe(false);
	});
});
