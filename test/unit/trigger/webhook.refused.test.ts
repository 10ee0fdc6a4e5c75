import type { IDataObject } from 'n8n-workflow';

import { SECRET, receive, registeredStaticData } from './triggerContext';
import { NOW } from './webhookClock';
import { item, notification, paymentApproved } from './webhookEvents';

// The trigger's webhook() as n8n calls it: forged or broken requests start nothing, and how the
// secret is checked.

describe('webhook: forged or broken requests start nothing', () => {
	it.each<[string, IDataObject]>([
		['a wrong secret', notification({ type: 'payment_approved', secret: '0000' })],
		['a secret of another length', notification({ type: 'payment_approved', secret: '37180' })],
		['no secret', { notification: { type: 'payment_approved', transaction_id: 'tx-1' } }],
		['an empty secret', notification({ type: 'payment_approved', secret: '' })],
		['a numeric secret that is wrong', notification({ type: 'payment_approved', secret: 3719 })],
		[
			'the secret as an object',
			notification({ type: 'payment_approved', secret: { value: SECRET } }),
		],
		['a body without notification', { type: 'payment_approved', secret: SECRET }],
	])('%s: 401, no execution, no API call', async (_name, body) => {
		const { responseData, response, requests } = await receive({ bodyData: body });
		expect(response.statusCode).toBe(401);
		expect(responseData).toEqual({ noWebhookResponse: true });
		expect(requests).toHaveLength(0);
		expect(JSON.stringify(response.body)).not.toContain(SECRET);
	});

	it('refuses every notification when no secret is stored, and says in the log how to fix it', async () => {
		const { response, logger } = await receive({ bodyData: paymentApproved, staticData: {} });
		expect(response.statusCode).toBe(401);
		expect(logger.warn).toHaveBeenCalledWith(
			expect.stringMatching(/Deactivate and activate the workflow/),
		);
	});

	it.each<[string, unknown, Buffer | undefined]>([
		['a body that is not JSON', 'type=payment_approved&secret=3718', undefined],
		['raw bytes that are not JSON', {}, Buffer.from('<xml>no</xml>')],
		['an empty body', {}, undefined],
		['a JSON array', {}, Buffer.from('[1,2]')],
		['a notification that is not an object', { notification: 'payment_approved' }, undefined],
	])('%s: 400', async (_name, bodyData, rawBody) => {
		const { responseData, response } = await receive({ bodyData, rawBody });
		expect(response.statusCode).toBe(400);
		expect(responseData).toEqual({ noWebhookResponse: true });
	});

	it('checks the secret before the type: a forged body without type is 401, not 400', async () => {
		const { response } = await receive({ bodyData: { notification: { secret: '9999' } } });
		expect(response.statusCode).toBe(401);
	});

	it.each<[string, IDataObject, Buffer | undefined]>([
		[
			'a deeply nested KYC payload',
			{ data: { id: 's', references: [nested(100_000)] } },
			undefined,
		],
		[
			'a body with too many values',
			notification({
				type: 'subject_reproved',
				subject_id: 's',
				items: Array.from({ length: 6_000 }, (_, i) => `i${i}`),
			}),
			undefined,
		],
		['a body larger than 256 KiB', {}, Buffer.from(`{"x":"${'a'.repeat(300_000)}"}`)],
	])('%s: 413 without reading it all', async (_name, bodyData, rawBody) => {
		const { response, requests } = await receive({ bodyData, rawBody });
		expect(response.statusCode).toBe(413);
		expect(requests).toHaveLength(0);
	});
});

function nested(levels: number): IDataObject {
	let value: IDataObject = { id: 'x' };
	for (let i = 0; i < levels; i++) value = { nested: value };
	return value;
}

describe('webhook: the secret', () => {
	it('a secret sent as a JSON number is the same secret as its digits', async () => {
		const { responseData } = await receive({
			parameters: { options: { verifyWithApi: false } },
			bodyData: notification({
				type: 'identified',
				transaction_id: 'tx-1',
				secret: Number(SECRET),
			}),
		});
		expect(item(responseData).type).toBe('identified');
	});

	it('the previous secret is accepted for 24 hours after a new registration, then forgotten', async () => {
		const { hmacOf } = await import('./triggerContext');
		const staticData = registeredStaticData({
			secretHmac: hmacOf('5555'),
			previousSecretHmac: hmacOf(SECRET),
			previousSecretUntil: new Date(NOW.getTime() + 60_000).toISOString(),
		});
		const body = notification({ type: 'identified', transaction_id: 'tx-1' });
		const parameters = { options: { verifyWithApi: false } };
		expect(
			item((await receive({ parameters, staticData, bodyData: body })).responseData).type,
		).toBe('identified');
		jest.setSystemTime(NOW.getTime() + 61_000);
		expect((await receive({ parameters, staticData, bodyData: body })).response.statusCode).toBe(
			401,
		);
		expect(staticData).not.toHaveProperty('previousSecretHmac');
	});
});
