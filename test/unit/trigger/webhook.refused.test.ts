import type { IDataObject } from 'n8n-workflow';

import { SECRET, receive, registeredStaticData } from './triggerContext';
import './webhookClock';
import { item, notification, paymentApproved, records } from './webhookEvents';

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
	])(
		'%s: unlisted in the records, answered as a false event (200), no execution, no object read',
		async (_name, body) => {
			const { responseData, response, requests } = await receive({
				bodyData: body,
				replies: records(),
			});
			expect(response).toMatchObject({ statusCode: 200, body: { message: 'Received' } });
			expect(responseData).toEqual({ noWebhookResponse: true });
			expect(requests.every((request) => String(request.url).includes('/notifications'))).toBe(
				true,
			);
			expect(JSON.stringify(response.body)).not.toContain(SECRET);
		},
	);

	it('a body without notification: 401, no API call', async () => {
		const { response, requests } = await receive({
			bodyData: { type: 'payment_approved', secret: SECRET },
		});
		expect(response.statusCode).toBe(401);
		expect(requests).toHaveLength(0);
	});

	it('with no secret stored, a notification the records list starts the workflow (nothing is refused because a secret was forgotten)', async () => {
		const { responseData } = await receive({
			parameters: { options: { verifyWithApi: false } },
			bodyData: paymentApproved,
			staticData: {},
			replies: records([
				{ id: 'r1', url: 'u', notification: paymentApproved.notification as IDataObject },
			]),
		});
		expect(item(responseData)).toMatchObject({
			type: 'payment_approved',
			verification: { listedInNotificationRecords: true },
		});
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

	it('checks the type before the secret: a body without type is 400 whatever its secret', async () => {
		for (const secret of ['9999', SECRET]) {
			const { response, requests } = await receive({ bodyData: { notification: { secret } } });
			expect(response.statusCode).toBe(400);
			expect(requests).toHaveLength(0);
		}
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

	it('the previous secret is not accepted by itself: only what the records list under it starts', async () => {
		const { hmacOf } = await import('./triggerContext');
		const staticData = registeredStaticData({ secretHmac: hmacOf('5555') });
		const redelivered = notification({ type: 'identified', transaction_id: 'tx-1' });
		const forged = notification({ type: 'identified', transaction_id: 'tx-2' });
		const list = [{ id: 'r1', url: 'u', notification: redelivered.notification as IDataObject }];
		const parameters = { options: { verifyWithApi: false } };
		const first = await receive({
			parameters,
			staticData,
			bodyData: redelivered,
			replies: records(list),
		});
		expect(item(first.responseData).transaction_id).toBe('tx-1');
		const second = await receive({
			parameters,
			staticData,
			bodyData: forged,
			replies: records(list),
		});
		expect(second.responseData.workflowData).toBeUndefined();
		expect(second.response.statusCode).toBe(200);
	});
});
