import type { IDataObject } from 'n8n-workflow';

import { defaultRetryOptions } from '../../../nodes/FacilitaPay/transport';
import { httpError } from '../helpers/executeContext';
import { clearDuplicateMemory } from '../../../nodes/FacilitaPayTrigger/duplicates';
import { clearGuessMemory } from '../../../nodes/FacilitaPayTrigger/guessing';
import {
	VERIFY_BUDGET_MS,
	readTimeout,
	verifyRetryOptions,
} from '../../../nodes/FacilitaPayTrigger/verification';
import { BASE_URL, SECRET, receive, registeredStaticData } from './triggerContext';

const NOW = new Date('2025-06-02T10:30:00.000Z');

beforeEach(() => {
	jest.useFakeTimers({
		now: NOW,
		doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'],
	});
	jest.spyOn(defaultRetryOptions, 'wait').mockImplementation(async () => {});
	clearGuessMemory();
	clearDuplicateMemory();
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

const approvedTransaction = {
	id: 'tx-1',
	status: 'identified',
	value: '150.00',
	currency: 'BRL',
	checkout_id: 'co-9',
};

describe('webhook: a genuine notification (Verify With API off)', () => {
	const off = { options: { verifyWithApi: false } };

	it('starts the workflow with the event fields, verified: false, without the secret, and the time it arrived', async () => {
		const { responseData, response, requests } = await receive({
			parameters: off,
			bodyData: paymentApproved,
		});
		expect(item(responseData)).toEqual({
			type: 'payment_approved',
			transaction_id: 'tx-1',
			checkout_id: 'co-9',
			verified: false,
			receivedAt: NOW.toISOString(),
		});
		expect(JSON.stringify(responseData)).not.toContain(SECRET);
		// Answered by the trigger itself, before n8n prepares the execution (so static data is saved).
		expect(responseData.noWebhookResponse).toBe(true);
		expect(response).toEqual({ statusCode: 200, body: { message: 'Workflow was started' } });
		expect(requests).toHaveLength(0);
	});

	it('keeps nested objects and arrays as sent', async () => {
		const bankTransaction = {
			id: 'bt-1',
			value: '150.00',
			currency: 'BRL',
			subject: {
				document_number: '39053344705',
				document_type: 'cpf',
				name: 'Ana',
			},
		};
		const { responseData } = await receive({
			parameters: off,
			bodyData: notification({
				type: 'non_identified_bank_transaction',
				bank_transaction: bankTransaction,
			}),
		});
		expect(item(responseData).bank_transaction).toEqual(bankTransaction);

		const wire = await receive({
			parameters: off,
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
			parameters: off,
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
		['a numeric secret that is wrong', notification({ type: 'payment_approved', secret: 3719 })],
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
		const { response } = await receive({
			bodyData: { notification: { secret: '9999' } },
		});
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
			replies: [{ data: approvedTransaction }],
		});
		expect(item(responseData).type).toBe('payment_approved');
	});

	it('an event type the node does not know yet passes with All Events', async () => {
		const { responseData, requests } = await receive({
			parameters: { events: ['*'] },
			bodyData: notification({
				type: 'automatic_pix_qr_code_ready',
				subscription: { id: 's-1' },
			}),
			replies: [{ data: { id: 's-1', status: 'pending', value: '10.00' } }],
		});
		expect(requests[0].url).toBe(`${BASE_URL}/subscriptions/s-1`);
		expect(item(responseData)).toMatchObject({
			type: 'automatic_pix_qr_code_ready',
			subscription: { id: 's-1', status: 'pending', value: '10.00' },
			verified: true,
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
			parameters: {
				events: ['payment_approved'],
				options: { acceptUnsignedKycStatus: true },
			},
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
			bodyData: {
				notification: { type: 'subject_approved', subject_id: 's-1' },
			},
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
			parameters: { options: { includeHeaders: true, verifyWithApi: false } },
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
		const { responseData } = await receive({
			parameters: { options: { verifyWithApi: false } },
			bodyData: paymentApproved,
			headers,
		});
		expect(item(responseData)).not.toHaveProperty('headers');
	});
});

describe('webhook: Verify With API (on by default)', () => {
	it('re-reads the transaction and starts the workflow with the API object and verified: true', async () => {
		const { responseData, requests } = await receive({
			bodyData: paymentApproved,
			replies: [{ data: approvedTransaction }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			url: `${BASE_URL}/transactions/tx-1`,
		});
		expect(item(responseData)).toEqual({
			type: 'payment_approved',
			transaction_id: 'tx-1',
			checkout_id: 'co-9',
			transaction: approvedTransaction,
			verified: true,
			receivedAt: NOW.toISOString(),
		});
	});

	it('money comes from the API, never from the notification: extra fields of a documented event are dropped', async () => {
		const { responseData } = await receive({
			bodyData: notification({
				type: 'identified',
				transaction_id: 'tx-1',
				value: '999999.00',
				currency: 'USD',
			}),
			replies: [{ data: approvedTransaction }],
		});
		const json = item(responseData);
		expect(json).not.toHaveProperty('value');
		expect(json).not.toHaveProperty('currency');
		expect(json.transaction).toMatchObject({
			value: '150.00',
			currency: 'BRL',
		});
	});

	it.each<[string, IDataObject, IDataObject]>([
		[
			'payment_approved of a pending transaction',
			{ type: 'payment_approved', transaction_id: 'tx-1' },
			{ id: 'tx-1', status: 'pending' },
		],
		[
			'payment_approved of a canceled transaction',
			{ type: 'payment_approved', transaction_id: 'tx-1' },
			{ id: 'tx-1', status: 'canceled' },
		],
		[
			'identified of a pending transaction',
			{ type: 'identified', transaction_id: 'tx-1' },
			{ id: 'tx-1', status: 'pending' },
		],
		[
			'payment_approved naming another checkout',
			{ type: 'payment_approved', transaction_id: 'tx-1', checkout_id: 'co-X' },
			{ id: 'tx-1', status: 'identified', checkout_id: 'co-9' },
		],
		[
			'payment_failed of an identified transaction',
			{ type: 'payment_failed', transaction_id: 'tx-1' },
			{ id: 'tx-1', status: 'identified' },
		],
		[
			'payment_failed of a pending transaction (a forged failure)',
			{ type: 'payment_failed', transaction_id: 'tx-1' },
			{ id: 'tx-1', status: 'pending' },
		],
		[
			'payment_refunded of an identified transaction',
			{ type: 'payment_refunded', transaction_id: 'tx-1' },
			{ id: 'tx-1', status: 'identified' },
		],
		[
			'payment_expired of a wired transaction',
			{ type: 'payment_expired', transaction_id: 'tx-1' },
			{ id: 'tx-1', status: 'wired' },
		],
		[
			'the API answering another transaction',
			{ type: 'identified', transaction_id: 'tx-1' },
			{ id: 'tx-2', status: 'identified' },
		],
	])(
		'%s: the API contradicts the event, 200 so FacilitaPay does not redeliver, no execution, one log line',
		async (_name, event, transaction) => {
			const { responseData, response, logger } = await receive({
				bodyData: notification(event),
				replies: [{ data: transaction }],
			});
			expect(responseData).toEqual({ noWebhookResponse: true });
			expect(response.statusCode).toBe(200);
			expect(response.body).toEqual({
				message: 'Not started: FacilitaPay does not confirm this event',
			});
			expect(logger.warn).toHaveBeenCalledTimes(1);
			expect(logger.warn).toHaveBeenCalledWith(
				expect.stringMatching(/started nothing: transaction tx-1/),
			);
		},
	);

	it('an object the API does not know (404) starts nothing and is answered 200', async () => {
		const { responseData, response, logger } = await receive({
			bodyData: paymentApproved,
			replies: [httpError(404, { error: 'not_found' })],
		});
		expect(responseData.workflowData).toBeUndefined();
		expect(response.statusCode).toBe(200);
		expect(logger.warn).toHaveBeenCalledWith(
			expect.stringMatching(/does not know transaction tx-1 \(HTTP 404\)/),
		);
	});

	it('when FacilitaPay cannot be reached, answers 503 so it redelivers later, starts nothing and logs why', async () => {
		const { responseData, response, requests, logger } = await receive({
			bodyData: paymentApproved,
			replies: [httpError(503, ''), httpError(503, ''), { data: approvedTransaction }],
		});
		expect(requests).toHaveLength(2);
		expect(response.statusCode).toBe(503);
		expect(responseData).toEqual({ noWebhookResponse: true });
		expect(logger.error).toHaveBeenCalledWith(
			expect.stringMatching(/could not be checked with FacilitaPay/),
		);
	});

	it('bounds the time: a slow first read leaves no time for the next one, and the answer is 503 within the budget', async () => {
		const started = Date.now();
		jest.spyOn(defaultRetryOptions, 'wait').mockImplementation(async () => {
			jest.setSystemTime(Date.now() + 24_500);
		});
		const { requests, response } = await receive({
			bodyData: notification({
				type: 'wire_created',
				wire_id: 'w-1',
				transaction_ids: ['tx-1', 'tx-2'],
			}),
			replies: [
				httpError(503, ''),
				{ data: { id: 'tx-1', status: 'wired' } },
				{ data: { id: 'tx-2', status: 'wired' } },
			],
		});
		expect(requests).toHaveLength(2);
		expect(response.statusCode).toBe(503);
		expect(Date.now() - started).toBeLessThanOrEqual(VERIFY_BUDGET_MS);
	});

	it.each<[number, number]>([
		[25_000, 10_000],
		[15_000, 7_000],
		[3_000, 1_000],
		[2_000, 500],
	])(
		'with %i ms left, one attempt waits at most %i ms (two attempts and the delay fit)',
		(left, timeout) => {
			expect(readTimeout(left)).toBe(timeout);
			expect(2 * readTimeout(left) + verifyRetryOptions.maxDelayMs).toBeLessThanOrEqual(
				Math.max(left, 30_000),
			);
		},
	);

	it('a forged secret never causes an API call', async () => {
		const { requests, response } = await receive({
			bodyData: notification({
				type: 'payment_approved',
				transaction_id: 'tx-1',
				secret: '0000',
			}),
		});
		expect(response.statusCode).toBe(401);
		expect(requests).toHaveLength(0);
	});

	it('an ID that FacilitaPay never gives is not sent into a path, and starts nothing', async () => {
		const { requests, response } = await receive({
			bodyData: notification({
				type: 'payment_approved',
				transaction_id: '../disable_webhooks',
			}),
		});
		expect(requests).toHaveLength(0);
		expect(response.statusCode).toBe(200);
	});

	it('reads every transaction of transaction_ids, in order, under "transactions"', async () => {
		const { responseData, requests } = await receive({
			bodyData: notification({
				type: 'wire_created',
				wire_id: 'w-1',
				transaction_ids: ['tx-1', 'tx-2'],
			}),
			replies: [
				{ data: { id: 'tx-1', status: 'wired' } },
				{ data: { id: 'tx-2', status: 'wired' } },
			],
		});
		expect(requests.map((r) => r.url)).toEqual([
			`${BASE_URL}/transactions/tx-1`,
			`${BASE_URL}/transactions/tx-2`,
		]);
		expect(item(responseData)).toMatchObject({
			wire_id: 'w-1',
			transactions: [{ id: 'tx-1' }, { id: 'tx-2' }],
			verified: true,
		});
	});

	it('an event naming more than 25 objects is not read (no API call) and FacilitaPay is asked to send it later', async () => {
		const ids = Array.from({ length: 26 }, (_, i) => `tx-${i}`);
		const { requests, response, responseData } = await receive({
			bodyData: notification({ type: 'wire_created', wire_id: 'w-1', transaction_ids: ids }),
		});
		expect(requests).toHaveLength(0);
		expect(response.statusCode).toBe(503);
		expect(responseData.workflowData).toBeUndefined();
	});

	it('a wire_created naming a pending transaction starts nothing', async () => {
		const { responseData } = await receive({
			bodyData: notification({
				type: 'wire_created',
				wire_id: 'w-1',
				transaction_ids: ['tx-1', 'tx-2'],
			}),
			replies: [
				{ data: { id: 'tx-1', status: 'wired' } },
				{ data: { id: 'tx-2', status: 'pending' } },
			],
		});
		expect(responseData.workflowData).toBeUndefined();
	});

	it.each<[string, IDataObject, string, IDataObject, string]>([
		[
			'subscription_canceled',
			{ subscription: { id: 's-1', status: 'canceled' } },
			'/subscriptions/s-1',
			{ id: 's-1', status: 'canceled', value: '30.00' },
			'subscription',
		],
		[
			'invoice_paid',
			{ invoice: { id: 'i-2', status: 'paid', subscription_id: 's-1' } },
			'/subscriptions/invoices/s-1',
			[
				{ id: 'i-1', status: 'open' },
				{ id: 'i-2', status: 'paid', value: '30.00' },
			] as unknown as IDataObject,
			'invoice',
		],
		[
			'subject_approved',
			{ subject_id: 'sub-1' },
			'/subject/people/sub-1',
			{ id: 'sub-1', status: 'approved' },
			'subject',
		],
		[
			'account_request_status',
			{ request_id: 'r-1', status: 'complete' },
			'/bank/accounts/request/r-1',
			{ id: 'r-1', status: 'complete' },
			'bank_account_request',
		],
	])('%s is verified with the API object it names', async (type, event, path, answer, key) => {
		const { responseData, requests } = await receive({
			bodyData: notification({ type, ...event }),
			replies: [{ data: answer }],
		});
		expect(requests[0].url).toBe(`${BASE_URL}${path}`);
		const json = item(responseData);
		expect(json.verified).toBe(true);
		expect(json[key]).toMatchObject({ status: expect.any(String) });
	});

	it.each<[string, IDataObject, IDataObject]>([
		[
			'subscription_completed of an active subscription',
			{ subscription: { id: 's-1' } },
			{ id: 's-1', status: 'active' },
		],
		[
			'invoice_paid of an open invoice',
			{ invoice: { id: 'i-2', subscription_id: 's-1' } },
			[{ id: 'i-2', status: 'open' }] as unknown as IDataObject,
		],
		[
			'subject_approved of a reproved subject',
			{ subject_id: 'sub-1' },
			{ id: 'sub-1', status: 'reproved' },
		],
		[
			'account_request_status complete of a processing request',
			{ request_id: 'r-1', status: 'complete' },
			{ id: 'r-1', status: 'processing' },
		],
	])('%s starts nothing', async (name, event, answer) => {
		const type = name.split(' ')[0];
		const { responseData } = await receive({
			bodyData: notification({ type, ...event }),
			replies: [{ data: answer }],
		});
		expect(responseData.workflowData).toBeUndefined();
	});

	it('an event with nothing to re-read (non_identified_bank_transaction) comes with verified: false and no request', async () => {
		const { responseData, requests } = await receive({
			bodyData: notification({
				type: 'non_identified_bank_transaction',
				bank_transaction: { id: 'bt-1', value: '10.00' },
			}),
		});
		expect(requests).toHaveLength(0);
		expect(item(responseData)).toMatchObject({
			verified: false,
			bank_transaction: { id: 'bt-1' },
		});
	});

	it('workflows saved with the old option fetchTransaction keep working: false turns verification off', async () => {
		const { responseData, requests } = await receive({
			parameters: { options: { fetchTransaction: false } },
			bodyData: paymentApproved,
		});
		expect(requests).toHaveLength(0);
		expect(item(responseData).verified).toBe(false);
	});

	it('fetchTransaction: true verifies (and Verify With API wins when both are set)', async () => {
		const old = await receive({
			parameters: { options: { fetchTransaction: true } },
			bodyData: paymentApproved,
			replies: [{ data: approvedTransaction }],
		});
		expect(item(old.responseData).verified).toBe(true);
		const both = await receive({
			parameters: { options: { fetchTransaction: true, verifyWithApi: false } },
			bodyData: paymentApproved,
		});
		expect(item(both.responseData).verified).toBe(false);
	});

	it('reads nothing for a filtered notification', async () => {
		const { requests } = await receive({
			parameters: { events: ['payment_failed'] },
			bodyData: paymentApproved,
		});
		expect(requests).toHaveLength(0);
	});
});

describe('webhook: the secret as a number (issue 13 rule)', () => {
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

	it('a secret with leading zeros matches the number FacilitaPay may send for it', async () => {
		const { hmacOf } = await import('./triggerContext');
		const { responseData } = await receive({
			parameters: { options: { verifyWithApi: false } },
			staticData: registeredStaticData({ secretHmac: hmacOf('0042') }),
			bodyData: notification({
				type: 'identified',
				transaction_id: 'tx-1',
				secret: 42,
			}),
		});
		expect(item(responseData).type).toBe('identified');
	});
});

describe('webhook: the previous secret after re-registration', () => {
	it('is accepted for 24 hours after the new registration, then forgotten', async () => {
		const { hmacOf } = await import('./triggerContext');
		const staticData = registeredStaticData({
			secretHmac: hmacOf('5555'),
			previousSecretHmac: hmacOf(SECRET),
			previousSecretUntil: new Date(NOW.getTime() + 60_000).toISOString(),
		});
		const body = notification({ type: 'identified', transaction_id: 'tx-1' });
		const parameters = { options: { verifyWithApi: false } };
		const within = await receive({ parameters, staticData, bodyData: body });
		expect(item(within.responseData).type).toBe('identified');

		jest.setSystemTime(NOW.getTime() + 61_000);
		const after = await receive({ parameters, staticData, bodyData: body });
		expect(after.response.statusCode).toBe(401);
		expect(staticData).not.toHaveProperty('previousSecretHmac');
	});
});

describe('webhook: bounded bodies (issue 13)', () => {
	function deep(levels: number): IDataObject {
		let value: IDataObject = { id: 'x' };
		for (let i = 0; i < levels; i++) value = { nested: value };
		return value;
	}

	it('a deeply nested KYC payload is answered 413 without RangeError, and starts nothing', async () => {
		const data = { id: 's-1', status: 'approved', references: [deep(100_000)] };
		const { responseData, response } = await receive({
			parameters: { options: { acceptUnsignedKycStatus: true } },
			bodyData: { data },
		});
		expect(response.statusCode).toBe(413);
		expect(responseData.workflowData).toBeUndefined();
	});

	it('a deeply nested raw body is answered 4xx', async () => {
		const raw = Buffer.from('{"data":' + '['.repeat(50_000) + ']'.repeat(50_000) + '}');
		const { response } = await receive({
			parameters: { options: { acceptUnsignedKycStatus: true } },
			bodyData: {},
			rawBody: raw,
		});
		expect(response.statusCode).toBeGreaterThanOrEqual(400);
		expect(response.statusCode).toBeLessThan(500);
	});

	it('a body with too many values is answered 413', async () => {
		const items = Array.from({ length: 6_000 }, (_, i) => `i${i}`);
		const { response } = await receive({
			bodyData: notification({
				type: 'subject_reproved',
				subject_id: 's',
				items,
			}),
		});
		expect(response.statusCode).toBe(413);
	});

	it('a body larger than 256 KiB is answered 413', async () => {
		const { response } = await receive({
			bodyData: {},
			rawBody: Buffer.from(`{"x":"${'a'.repeat(300_000)}"}`),
		});
		expect(response.statusCode).toBe(413);
	});

	it('the unsigned KYC payload is not copied wholesale: documented plain fields only, text cut at 256', async () => {
		const { responseData } = await receive({
			parameters: { options: { acceptUnsignedKycStatus: true } },
			bodyData: {
				data: {
					id: 's-1',
					status: 'approved',
					social_name: 'A'.repeat(1000),
					documents: [{ url: 'x' }],
					injected: { value: '1000000.00' },
					email: { not: 'text' },
				},
			},
		});
		const subject = item(responseData).subject as IDataObject;
		expect(subject).toEqual({
			id: 's-1',
			status: 'approved',
			social_name: 'A'.repeat(256),
			email: null,
		});
	});
});

describe('webhook: online guessing limit (20 wrong secrets in 10 minutes)', () => {
	const unverified = notification({
		type: 'non_identified_bank_transaction',
		bank_transaction: { id: 'bt-1' },
	});
	const wrong = (n: number) =>
		notification({
			type: 'identified',
			transaction_id: 'tx-1',
			secret: String(1000 + n),
		});

	async function guess(times: number, staticData: IDataObject, workflowId: string) {
		const statuses: number[] = [];
		for (let n = 0; n < times; n++) {
			const { response } = await receive({
				bodyData: wrong(n),
				staticData,
				workflowId,
			});
			statuses.push(response.statusCode!);
		}
		return statuses;
	}

	it('after 20 wrong secrets, unverified events are refused (503, so FacilitaPay retries) and the log says so once', async () => {
		const staticData = registeredStaticData();
		const statuses = await guess(25, staticData, 'wf-guess');
		expect(statuses.slice(0, 19)).toEqual(Array(19).fill(401));
		// From the 20th on, wrong secrets get the same answer as everything else refused: no oracle.
		expect(statuses.slice(19)).toEqual(Array(6).fill(503));

		const { responseData, response, requests, logger } = await receive({
			bodyData: unverified,
			staticData,
			workflowId: 'wf-guess',
		});
		expect(response.statusCode).toBe(503);
		expect(responseData.workflowData).toBeUndefined();
		expect(requests).toHaveLength(0);
		expect(logger.warn).not.toHaveBeenCalled();
	});

	it('logs the lock once, when it starts', async () => {
		const staticData = registeredStaticData();
		await guess(19, staticData, 'wf-log');
		const { logger } = await receive({
			bodyData: wrong(99),
			staticData,
			workflowId: 'wf-log',
		});
		expect(logger.warn).toHaveBeenCalledTimes(1);
		expect(logger.warn).toHaveBeenCalledWith(
			expect.stringMatching(
				/too many notifications with a wrong secret.*verified events still start/,
			),
		);
	});

	it('verified events still flow during the lock', async () => {
		const staticData = registeredStaticData();
		await guess(20, staticData, 'wf-flow');
		const { responseData } = await receive({
			bodyData: paymentApproved,
			staticData,
			workflowId: 'wf-flow',
			replies: [{ data: approvedTransaction }],
		});
		expect(item(responseData).verified).toBe(true);
	});

	it('the lock ends when the window passes', async () => {
		const staticData = registeredStaticData();
		await guess(20, staticData, 'wf-end');
		jest.setSystemTime(NOW.getTime() + 10 * 60 * 1000 + 1);
		const { responseData } = await receive({
			bodyData: unverified,
			staticData,
			workflowId: 'wf-end',
		});
		expect(item(responseData).verified).toBe(false);
	});

	it('19 wrong secrets do not lock', async () => {
		const staticData = registeredStaticData();
		await guess(19, staticData, 'wf-19');
		const { responseData } = await receive({
			bodyData: unverified,
			staticData,
			workflowId: 'wf-19',
		});
		expect(item(responseData).verified).toBe(false);
	});

	it('parallel requests that each read the static data before any was saved still count (process memory)', async () => {
		const pristine = registeredStaticData();
		for (let n = 0; n < 20; n++) {
			// n8n loads the static data from the database for each request: every copy is stale.
			await receive({
				bodyData: wrong(n),
				staticData: { ...pristine },
				workflowId: 'wf-parallel',
			});
		}
		const { response } = await receive({
			bodyData: unverified,
			staticData: { ...pristine },
			workflowId: 'wf-parallel',
		});
		expect(response.statusCode).toBe(503);
	});

	it('the count survives a restart of n8n through the static data', async () => {
		const staticData = registeredStaticData();
		await guess(20, staticData, 'wf-restart');
		clearGuessMemory();
		const { response } = await receive({
			bodyData: unverified,
			staticData,
			workflowId: 'wf-restart',
		});
		expect(response.statusCode).toBe(503);
	});

	it('events the API contradicts count as forgeries too', async () => {
		const staticData = registeredStaticData();
		for (let n = 0; n < 20; n++) {
			await receive({
				bodyData: paymentApproved,
				staticData,
				workflowId: 'wf-contradicted',
				replies: [{ data: { id: 'tx-1', status: 'pending' } }],
			});
		}
		const { response } = await receive({
			bodyData: unverified,
			staticData,
			workflowId: 'wf-contradicted',
		});
		expect(response.statusCode).toBe(503);
	});
});

describe('webhook: Drop Duplicates', () => {
	const on = { options: { dropDuplicates: true } };
	const event = notification({
		type: 'subject_reproved',
		subject_id: 'sub-1',
		items: ['a'],
	});
	const subject = { data: { id: 'sub-1', status: 'reproved' } };

	it('off by default: the same notification twice starts two executions', async () => {
		const staticData = registeredStaticData();
		const first = await receive({
			bodyData: event,
			staticData,
			replies: [subject],
		});
		const second = await receive({
			bodyData: event,
			staticData,
			replies: [subject],
		});
		expect(item(first.responseData).type).toBe('subject_reproved');
		expect(item(second.responseData).type).toBe('subject_reproved');
		expect(staticData).not.toHaveProperty('emittedEvents');
	});

	it('on: an identical notification within 24 h starts nothing, is answered 200 and costs no API call', async () => {
		const staticData = registeredStaticData();
		const first = await receive({
			parameters: on,
			bodyData: event,
			staticData,
			replies: [subject],
		});
		expect(item(first.responseData).verified).toBe(true);
		const second = await receive({
			parameters: on,
			bodyData: event,
			staticData,
		});
		expect(second.responseData.workflowData).toBeUndefined();
		expect(second.response.statusCode).toBe(200);
		expect(second.requests).toHaveLength(0);
	});

	it('on: the same event after 24 h, or with another status or object, starts again', async () => {
		const staticData = registeredStaticData();
		await receive({
			parameters: on,
			bodyData: event,
			staticData,
			replies: [subject],
		});
		const other = await receive({
			parameters: on,
			bodyData: notification({ type: 'subject_reproved', subject_id: 'sub-2' }),
			staticData,
			replies: [{ data: { id: 'sub-2', status: 'reproved' } }],
		});
		expect(item(other.responseData).subject_id).toBe('sub-2');
		const status = await receive({
			parameters: on,
			bodyData: notification({
				type: 'account_request_status',
				request_id: 'r-1',
				status: 'complete',
			}),
			staticData,
			replies: [{ data: { id: 'r-1', status: 'complete' } }],
		});
		expect(item(status.responseData).status).toBe('complete');
		jest.setSystemTime(NOW.getTime() + 24 * 60 * 60 * 1000 + 1);
		const later = await receive({
			parameters: on,
			bodyData: event,
			staticData,
			replies: [subject],
		});
		expect(item(later.responseData).type).toBe('subject_reproved');
	});

	it('a notification the API refused is not remembered: its true redelivery still starts', async () => {
		const staticData = registeredStaticData();
		await receive({
			parameters: on,
			bodyData: event,
			staticData,
			replies: [httpError(503, ''), httpError(503, '')],
		});
		const again = await receive({
			parameters: on,
			bodyData: event,
			staticData,
			replies: [subject],
		});
		expect(item(again.responseData).verified).toBe(true);
	});

	it("on: a duplicate arriving while the first one's static data was not saved yet is still dropped (process memory)", async () => {
		const pristine = registeredStaticData();
		const first = await receive({
			parameters: on,
			bodyData: event,
			staticData: { ...pristine },
			workflowId: 'wf-dup',
			replies: [subject],
		});
		expect(item(first.responseData).type).toBe('subject_reproved');
		const second = await receive({
			parameters: on,
			bodyData: event,
			staticData: { ...pristine },
			workflowId: 'wf-dup',
		});
		expect(second.responseData.workflowData).toBeUndefined();
	});

	it('memory stays bounded: at most 1000 events are remembered', async () => {
		const { rememberEmitted, DUPLICATES_KEPT } = await import(
			'../../../nodes/FacilitaPayTrigger/duplicates'
		);
		const staticData: IDataObject = {};
		for (let n = 0; n < 1500; n++) rememberEmitted(staticData, `key-${n}`, NOW.getTime() + n);
		expect(Object.keys(staticData.emittedEvents as IDataObject)).toHaveLength(DUPLICATES_KEPT);
		expect(JSON.stringify(staticData).length).toBeLessThan(60_000);
	});
});

describe('webhook: no oracle during the guessing lock', () => {
	it('with the right secret, an unchosen event, a duplicate or a contradicted one get the same 503 as a wrong secret', async () => {
		const staticData = registeredStaticData();
		const workflowId = 'wf-oracle';
		for (let n = 0; n < 20; n++) {
			await receive({
				bodyData: notification({ type: 'identified', transaction_id: 'tx-1', secret: `x${n}` }),
				staticData,
				workflowId,
			});
		}
		const answers = [
			await receive({
				bodyData: notification({ type: 'identified', transaction_id: 'tx-1', secret: '9999' }),
				staticData,
				workflowId,
			}),
			await receive({
				parameters: { events: ['payment_failed'] },
				bodyData: paymentApproved,
				staticData,
				workflowId,
			}),
			await receive({
				bodyData: paymentApproved,
				staticData,
				workflowId,
				replies: [{ data: { id: 'tx-1', status: 'pending' } }],
			}),
			await receive({ bodyData: notification({ transaction_id: 'tx-1' }), staticData, workflowId }),
		];
		for (const { response, responseData } of answers) {
			expect(response).toEqual({
				statusCode: 503,
				body: { message: 'Not accepted now; send the notification again later' },
			});
			expect(responseData.workflowData).toBeUndefined();
		}
	});
});
