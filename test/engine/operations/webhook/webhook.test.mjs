// Webhook > Enable and Disable on n8n's engine, against a FacilitaPay scripted by route. What the
// editor shows (notices, operation texts) is read from the description in
// test/unit/actions/webhook/webhook.description.test.ts.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';

const HOOK = 'https://n8n.example.com/webhook/facilitapay';
const ENABLE = 'POST /enable_webhooks';
const DISABLE = 'GET /disable_webhooks';

const op = useOperations();
const waits = skipRetryWaits();

const enable = (url) => ({ resource: 'webhook', operation: 'enable', url });

describe('Webhook > Enable', () => {
	it('posts the URL and returns the secret with the URL', async () => {
		const { items, requests, error } = await op.run({
			parameters: enable(HOOK),
			replies: { [ENABLE]: { data: { secret: '3718' } } },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', route: ENABLE, body: { url: HOOK } });
		expect(requests[0].body).toEqual({ url: HOOK });
		expect(items).toEqual([{ json: { secret: '3718', url: HOOK }, pairedItem: { item: 0 } }]);
	});

	it('accepts http:// and trims spaces', async () => {
		const { items, requests } = await op.run({
			parameters: enable('  http://hooks.example.org/fp  '),
			replies: { [ENABLE]: { data: { secret: 42 } } },
		});
		expect(requests[0].body).toEqual({ url: 'http://hooks.example.org/fp' });
		expect(items[0].json).toEqual({ secret: '42', url: 'http://hooks.example.org/fp' });
	});

	it('typed in, an empty URL is refused by n8n before the workflow starts (the field is required)', async () => {
		const { error, requests } = await op.run({ parameters: enable('') });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
	});

	it.each([
		[
			'an empty URL',
			'',
			/Invalid URL \(item 0\): is empty; enter a web address such as https:\/\/n8n\.example\.com\/webhook\/facilitapay/,
		],
		['text that is not a URL', 'my webhook', /Invalid URL \(item 0\): is not a web address/],
		[
			'another scheme',
			'ftp://example.com/hook',
			/Invalid URL \(item 0\): starts with ftp:; the address must start with http:\/\/ or https:\/\//,
		],
	])('refuses %s and sends nothing', async (_name, url, message) => {
		const { error, requests } = await op.run({
			parameters: enable('={{ $json.url }}'),
			items: [{ json: { url } }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent to FacilitaPay');
	});

	it('names the item whose URL is wrong', async () => {
		const { error, requests } = await op.run({
			parameters: [enable(HOOK), enable('mailto:ops@example.com')],
			replies: { [ENABLE]: { data: { secret: '1' } } },
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid URL \(item 1\)/);
	});

	it('is retried after a 503 (enabling again converges to the same URL)', async () => {
		const { items, requests } = await op.run({
			parameters: enable(HOOK),
			replies: {
				[ENABLE]: [reply(503, 'Service Unavailable'), { data: { secret: '9999' } }],
			},
		});
		expect(requests).toHaveLength(2);
		expect(waits).toHaveLength(1);
		expect(requests[1].body).toEqual({ url: HOOK });
		expect(items[0].json.secret).toBe('9999');
	});

	it('fails readably when the answer carries no secret', async () => {
		const { error } = await op.run({
			parameters: enable(HOOK),
			replies: { [ENABLE]: { data: {} } },
		});
		expect(error.message).toMatch(/answer has no secret/);
	});
});

describe('Webhook > Disable', () => {
	it('sends GET /disable_webhooks and reports it', async () => {
		const { items, requests } = await op.run({
			parameters: { resource: 'webhook', operation: 'disable' },
			replies: { [DISABLE]: { data: 'ok' } },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', route: DISABLE });
		expect(requests[0].body).toBeUndefined();
		expect(items).toEqual([{ json: { disabled: true, result: 'ok' }, pairedItem: { item: 0 } }]);
	});

	it('is retried after a 502', async () => {
		const { requests, items } = await op.run({
			parameters: { resource: 'webhook', operation: 'disable' },
			replies: { [DISABLE]: [reply(502, 'Bad Gateway'), { data: 'ok' }] },
		});
		expect(requests).toHaveLength(2);
		expect(items[0].json).toEqual({ disabled: true, result: 'ok' });
	});
});
