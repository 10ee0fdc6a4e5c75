import { description as enableDescription } from '../../../../nodes/FacilitaPay/actions/webhook/enable.operation';
import { description as disableDescription } from '../../../../nodes/FacilitaPay/actions/webhook/disable.operation';
import { description as resourceDescription } from '../../../../nodes/FacilitaPay/actions/webhook/Webhook.resource';
import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { httpError } from '../../helpers/serviceAnswers';
import { skipRetryWaits } from '../../helpers/retryWaits';

skipRetryWaits();

const HOOK = 'https://n8n.example.com/webhook/facilitapay';
const enable = (url: string) => ({ resource: 'webhook', operation: 'enable', url });

describe('Webhook > Enable', () => {
	it('posts the URL and returns the secret with the URL', async () => {
		const { output, requests } = await runNode({
			parameters: enable(HOOK),
			replies: [{ data: { secret: '3718' } }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/enable_webhooks');
		expect(requests[0].body).toEqual({ url: HOOK });
		expect(output).toEqual([{ json: { secret: '3718', url: HOOK }, pairedItem: { item: 0 } }]);
	});

	it('accepts http:// and trims spaces', async () => {
		const { output, requests } = await runNode({
			parameters: enable('  http://hooks.example.org/fp  '),
			replies: [{ data: { secret: 42 } }],
		});
		expect(requests[0].body).toEqual({ url: 'http://hooks.example.org/fp' });
		expect(output[0].json).toEqual({ secret: '42', url: 'http://hooks.example.org/fp' });
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
		const { error, requests } = await runNodeExpectingError({ parameters: enable(url) });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent to FacilitaPay');
	});

	it('names the item whose URL is wrong', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: [enable(HOOK), enable('mailto:ops@example.com')],
			replies: [{ data: { secret: '1' } }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid URL \(item 1\)/);
	});

	it('is retried after a 503 (enabling again converges to the same URL)', async () => {
		const { output, requests } = await runNode({
			parameters: enable(HOOK),
			replies: [httpError(503, 'Service Unavailable'), { data: { secret: '9999' } }],
		});
		expect(requests).toHaveLength(2);
		expect(output[0].json.secret).toBe('9999');
	});

	it('fails readably when the answer carries no secret', async () => {
		const { error } = await runNodeExpectingError({
			parameters: enable(HOOK),
			replies: [{ data: {} }],
		});
		expect(error.message).toMatch(/answer has no secret/);
	});

	it('says there is one URL per account and that the trigger does this by itself', () => {
		const text = JSON.stringify([enableDescription, resourceDescription]);
		expect(text).toMatch(/ONE webhook URL per account/);
		expect(text).toMatch(/replaces the URL used by any other workflow or system/);
		expect(text).toMatch(/FacilitaPay Trigger node does this by itself/);
	});
});

describe('Webhook > Disable', () => {
	it('sends GET /disable_webhooks and reports it', async () => {
		const { output, requests } = await runNode({
			parameters: { resource: 'webhook', operation: 'disable' },
			replies: [{ data: 'ok' }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('GET');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/disable_webhooks');
		expect(requests[0].body).toBeUndefined();
		expect(output[0].json).toEqual({ disabled: true, result: 'ok' });
	});

	it('is retried after a 502', async () => {
		const { requests } = await runNode({
			parameters: { resource: 'webhook', operation: 'disable' },
			replies: [httpError(502, 'Bad Gateway'), { data: 'ok' }],
		});
		expect(requests).toHaveLength(2);
	});

	it('warns, in a notice and in the operation list, that ALL notifications of the account stop', () => {
		const notice = disableDescription.find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/turns off ALL notifications of the FacilitaPay account/);
		const operations = resourceDescription[0].options as Array<{
			value: string;
			description: string;
		}>;
		expect(operations.find((o) => o.value === 'disable')?.description).toMatch(/ALL notifications/);
	});
});
