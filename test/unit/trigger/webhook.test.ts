import type { IDataObject } from 'n8n-workflow';

import { defaultRetryOptions } from '../../../nodes/FacilitaPay/transport';
import { httpError } from '../helpers/executeContext';
import { BASE_URL, SECRET, receive, registeredStaticData } from './triggerContext';

const NOW = new Date('2025-06-02T10:30:00.000Z');

beforeEach(() => {
	jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
	jest.spyOn(defaultRetryOptions, 'wait').mockImplementation(async () => {});
});
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

function notification(fields: IDataObject): IDataObject {
	return { notification: { secret: SECRET, ...fields } };
}

const paymentApproved = notification({
	type: 'payment_approved',
	transaction_id: 'tx-1',
	checkout_id: 'co-9',
});

/** The item that came out, or a failure when no execution started. */
function item(responseData: { workflowData?: Array<Array<{ json: IDataObject }>> }): IDataObject {
	expect(responseData.workflowData).toHaveLength(1);
	expect(responseData.workflowData?.[0]).toHaveLength(1);
	return responseData.workflowData![0][0].json;
}

describe('webhook: a genuine notification', () => {
	it('starts the workflow with the event fields, without the secret, and the time it arrived', async () => {
		const { responseData, response, requests } = await receive({ bodyData: paymentApproved });
		expect(item(responseData)).toEqual({
			type: 'payment_approved',
			transaction_id: 'tx-1',
			checkout_id: 'co-9',
			receivedAt: NOW.toISOString(),
		});
		expect(JSON.stringify(responseData)).not.toContain(SECRET);
		expect(responseData.noWebhookResponse).toBeUndefined();
		expect(response.statusCode).toBeUndefined();
		expect(requests).toHaveLength(0);
	});

	it('keeps nested objects and arrays as sent', async () => {
		const bankTransaction = {
			id: 'bt-1',
			value: '150.00',
			currency: 'BRL',
			subject: { document_number: '39053344705', document_type: 'cpf', name: 'Ana' },
		};
		const { responseData } = await receive({
			bodyData: notification({
				type: 'non_identified_bank_transaction',
				bank_transaction: bankTransaction,
			}),
		});
		expect(item(responseData).bank_transaction).toEqual(bankTransaction);

		const wire = await receive({
			bodyData: notification({
				type: 'wire_created',
				wire_id: 'w-1',
				transaction_ids: ['tx-1', 'tx-2'],
			}),
		});
		expect(item(wire.responseData)).toMatchObject({
			wire_id: 'w-1',
			transaction_ids: ['tx-1', 'tx-2'],
		});
	});

	it('reads a JSON body that n8n left as raw bytes (sent without a JSON content type)', async () => {
		const { responseData } = await receive({
			bodyData: {},
			rawBody: Buffer.from(JSON.stringify(paymentApproved)),
		});
		expect(item(responseData).type).toBe('payment_approved');
	});
});

describe('webhook: forged or broken requests start nothing', () => {
	it.each<[string, IDataObject]>([
		['a wrong secret', notification({ type: 'payment_approved', secret: '0000' })],
		['a secret of another length', notification({ type: 'payment_approved', secret: '37180' })],
		['no secret', { notification: { type: 'payment_approved', transaction_id: 'tx-1' } }],
		['an empty secret', notification({ type: 'payment_approved', secret: '' })],
		['a numeric secret', notification({ type: 'payment_approved', secret: 3718 })],
		[
			'the secret as an object',
			notification({ type: 'payment_approved', secret: { value: SECRET } }),
		],
		['a body without notification', { type: 'payment_approved', secret: SECRET }],
	])('%s: 401 and no execution', async (_name, body) => {
		const { responseData, response } = await receive({ bodyData: body });
		expect(response.statusCode).toBe(401);
		expect(responseData).toEqual({ noWebhookResponse: true });
		expect(responseData.workflowData).toBeUndefined();
		expect(JSON.stringify(response.body)).not.toContain(SECRET);
	});

	it('refuses every notification when no secret is stored, and says in the log how to fix it', async () => {
		const { responseData, response, logger } = await receive({
			bodyData: paymentApproved,
			staticData: {},
		});
		expect(response.statusCode).toBe(401);
		expect(responseData.workflowData).toBeUndefined();
		expect(logger.warn).toHaveBeenCalledWith(
			expect.stringMatching(/Deactivate and activate the workflow/),
		);
	});

	it('does not accept the stored digest in place of the secret', async () => {
		const digest = registeredStaticData().secretDigest;
		const { response } = await receive({
			bodyData: notification({ type: 'identified', secret: digest }),
		});
		expect(response.statusCode).toBe(401);
	});

	it.each<[string, unknown, Buffer | undefined]>([
		['a body that is not JSON', 'type=payment_approved&secret=3718', undefined],
		['raw bytes that are not JSON', {}, Buffer.from('<xml>no</xml>')],
		['an empty body', {}, undefined],
		['a JSON array', {}, Buffer.from('[1,2]')],
	])('%s: 400 and no execution', async (_name, bodyData, rawBody) => {
		const { responseData, response } = await receive({ bodyData, rawBody });
		expect(response.statusCode).toBe(400);
		expect(responseData).toEqual({ noWebhookResponse: true });
	});

	it('a notification that is not an object: 400', async () => {
		const { response, responseData } = await receive({
			bodyData: { notification: 'payment_approved' },
		});
		expect(response.statusCode).toBe(400);
		expect(responseData.workflowData).toBeUndefined();
	});

	it('a genuine notification without a type: 400', async () => {
		const { response, responseData } = await receive({
			bodyData: notification({ transaction_id: 'tx-1' }),
		});
		expect(response.statusCode).toBe(400);
		expect(response.body).toEqual({ message: 'The notification has no type' });
		expect(responseData.workflowData).toBeUndefined();
	});

	it('checks the secret before anything else: a forged body without type is 401, not 400', async () => {
		const { response } = await receive({ bodyData: { notification: { secret: '9999' } } });
		expect(response.statusCode).toBe(401);
	});
});

describe('webhook: Events choice', () => {
	it('an event not chosen is answered 200 by n8n and starts nothing', async () => {
		const { responseData, response } = await receive({
			parameters: { events: ['identified', 'payment_failed'] },
			bodyData: paymentApproved,
		});
		expect(responseData).toEqual({});
		expect(responseData.noWebhookResponse).toBeUndefined();
		expect(response.statusCode).toBeUndefined();
	});

	it('a chosen event starts the workflow', async () => {
		const { responseData } = await receive({
			parameters: { events: ['payment_approved'] },
			bodyData: paymentApproved,
		});
		expect(item(responseData).type).toBe('payment_approved');
	});

	it('an event type the node does not know yet passes with All Events', async () => {
		const { responseData } = await receive({
			parameters: { events: ['*'] },
			bodyData: notification({ type: 'automatic_pix_qr_code_ready', subscription: { id: 's-1' } }),
		});
		expect(item(responseData)).toMatchObject({
			type: 'automatic_pix_qr_code_ready',
			subscription: { id: 's-1' },
		});
	});

	it('filtering happens after verification: a forged event of an unchosen type is still 401', async () => {
		const { response } = await receive({
			parameters: { events: ['identified'] },
			bodyData: notification({ type: 'payment_approved', secret: 'nope' }),
		});
		expect(response.statusCode).toBe(401);
	});
});

describe('webhook: the unsigned KYC status payload', () => {
	const kycPayload = {
		data: {
			id: '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c',
			status: 'approved',
			social_name: 'Ana Souza',
			document_type: 'cpf',
			document_number: '39053344705',
			clearance_level: 2,
		},
	};

	it('is refused with 401 by default', async () => {
		const { responseData, response } = await receive({ bodyData: kycPayload });
		expect(response.statusCode).toBe(401);
		expect(responseData.workflowData).toBeUndefined();
	});

	it('starts the workflow, marked as not verified, when Accept Unsigned KYC Status Payloads is on', async () => {
		const { responseData } = await receive({
			parameters: { events: ['payment_approved'], options: { acceptUnsignedKycStatus: true } },
			bodyData: kycPayload,
		});
		expect(item(responseData)).toEqual({
			type: 'kyc_status',
			verified: false,
			subject_id: kycPayload.data.id,
			status: 'approved',
			subject: kycPayload.data,
			receivedAt: NOW.toISOString(),
		});
	});

	it('the option does not let unsigned notifications in', async () => {
		const { response } = await receive({
			parameters: { options: { acceptUnsignedKycStatus: true } },
			bodyData: { notification: { type: 'subject_approved', subject_id: 's-1' } },
		});
		expect(response.statusCode).toBe(401);
	});
});

describe('webhook: Include Headers', () => {
	const headers = {
		'content-type': 'application/json',
		'user-agent': 'FacilitaPay-Webhook/1.0',
		'x-request-id': 'req-7',
		authorization: 'Bearer leaked',
		cookie: 'session=abc',
		'proxy-authorization': 'Basic xyz',
		'x-api-key': 'k',
		'x-auth-token': 't',
	};

	it('adds the request headers without authorization, cookie or token headers', async () => {
		const { responseData } = await receive({
			parameters: { options: { includeHeaders: true } },
			bodyData: paymentApproved,
			headers,
		});
		expect(item(responseData).headers).toEqual({
			'content-type': 'application/json',
			'user-agent': 'FacilitaPay-Webhook/1.0',
			'x-request-id': 'req-7',
		});
	});

	it('leaves headers out by default', async () => {
		const { responseData } = await receive({ bodyData: paymentApproved, headers });
		expect(item(responseData)).not.toHaveProperty('headers');
	});
});

describe('webhook: Fetch Transaction', () => {
	const transaction = { id: 'tx-1', status: 'identified', value: '150.00', currency: 'BRL' };

	it('re-reads the transaction and adds it under transaction', async () => {
		const { responseData, requests } = await receive({
			parameters: { options: { fetchTransaction: true } },
			bodyData: paymentApproved,
			replies: [{ data: transaction }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', url: `${BASE_URL}/transactions/tx-1` });
		expect(item(responseData)).toEqual({
			type: 'payment_approved',
			transaction_id: 'tx-1',
			checkout_id: 'co-9',
			transaction,
			receivedAt: NOW.toISOString(),
		});
	});

	it('reads nothing for events without a transaction_id', async () => {
		const { responseData, requests } = await receive({
			parameters: { options: { fetchTransaction: true } },
			bodyData: notification({ type: 'subject_approved', subject_id: 's-1' }),
		});
		expect(requests).toHaveLength(0);
		expect(item(responseData)).not.toHaveProperty('transaction');
	});

	it('reads nothing for a forged or filtered notification', async () => {
		const forged = await receive({
			parameters: { options: { fetchTransaction: true } },
			bodyData: notification({ type: 'identified', transaction_id: 'tx-1', secret: 'x' }),
		});
		expect(forged.requests).toHaveLength(0);
		const filtered = await receive({
			parameters: { events: ['payment_failed'], options: { fetchTransaction: true } },
			bodyData: paymentApproved,
		});
		expect(filtered.requests).toHaveLength(0);
	});

	it('when the read fails, answers 503 so FacilitaPay sends it again, starts nothing and logs why', async () => {
		const { responseData, response, requests, logger } = await receive({
			parameters: { options: { fetchTransaction: true } },
			bodyData: paymentApproved,
			replies: [httpError(404, { error: 'not_found' })],
		});
		expect(requests).toHaveLength(1);
		expect(response.statusCode).toBe(503);
		expect(responseData).toEqual({ noWebhookResponse: true });
		expect(logger.error).toHaveBeenCalledWith(
			expect.stringMatching(/could not re-read transaction tx-1/),
		);
	});

	it('keeps the delay bounded: one retry at most on a passing outage', async () => {
		const { requests, response } = await receive({
			parameters: { options: { fetchTransaction: true } },
			bodyData: paymentApproved,
			replies: [httpError(503, ''), httpError(503, ''), { data: transaction }],
		});
		expect(requests).toHaveLength(2);
		expect(response.statusCode).toBe(503);
	});
});
