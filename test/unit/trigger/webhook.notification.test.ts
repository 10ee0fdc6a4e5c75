import { httpError } from '../helpers/serviceAnswers';
import { BASE_URL, SECRET, receive } from './triggerContext';
import { NOW } from './webhookClock';
import { approvedTransaction, item, kycStatusData, paymentApproved } from './webhookEvents';

// The trigger's webhook() as n8n calls it, for a genuine notification: what it reads, answers and
// starts (the event and the API object), with or without the request's headers.

describe('webhook: a genuine notification', () => {
	it('reads what it names, answers 200 itself and starts the workflow with the event and the API object', async () => {
		const { responseData, response, requests } = await receive({
			bodyData: paymentApproved,
			replies: [{ data: approvedTransaction }],
		});
		expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			`GET ${BASE_URL}/transactions/tx-1`,
		]);
		expect(item(responseData)).toEqual({
			type: 'payment_approved',
			transaction_id: 'tx-1',
			checkout_id: 'co-9',
			transaction: approvedTransaction,
			verified: true,
			verification: {
				summary: expect.any(String),
				objects: [
					{ object: 'transaction', id: 'tx-1', found: true, status: 'identified', confirms: true },
				],
			},
			receivedAt: NOW.toISOString(),
		});
		expect(JSON.stringify(responseData)).not.toContain(SECRET);
		expect(responseData.noWebhookResponse).toBe(true);
		expect(response).toMatchObject({ statusCode: 200, body: { message: 'Received' } });
	});

	it('with Verify With API off, starts unverified without a request; a JSON body left as raw bytes is read', async () => {
		const { responseData, requests } = await receive({
			parameters: { options: { verifyWithApi: false } },
			bodyData: {},
			rawBody: Buffer.from(JSON.stringify(paymentApproved)),
		});
		expect(item(responseData)).toMatchObject({ type: 'payment_approved', verified: false });
		expect(requests).toHaveLength(0);
	});

	it('an event the API proves false starts nothing, is answered 200 and logged', async () => {
		const { responseData, response, logger } = await receive({
			bodyData: paymentApproved,
			replies: [httpError(404, { error: 'not_found' })],
		});
		expect(responseData.workflowData).toBeUndefined();
		expect(response).toMatchObject({
			statusCode: 200,
			body: { message: 'Received' },
		});
		expect(logger.warn).toHaveBeenCalledWith(
			expect.stringMatching(/does not know transaction tx-1/),
		);
	});

	it('when FacilitaPay cannot be reached, answers 503 so it is sent again, and logs where to find it', async () => {
		const { responseData, response, logger } = await receive({
			bodyData: paymentApproved,
			replies: [httpError(503, ''), httpError(503, '')],
		});
		expect(responseData.workflowData).toBeUndefined();
		expect(response.statusCode).toBe(503);
		expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/Only Failed/));
	});

	it('the KYC status payload is verified by reading the subject, with no option', async () => {
		const data = kycStatusData;
		const { responseData, requests } = await receive({
			bodyData: { data },
			replies: [{ data: { ...data, social_name: 'Ana' } }],
		});
		expect(requests[0].url).toBe(`${BASE_URL}/subject/people/sub-1`);
		expect(item(responseData)).toMatchObject({
			type: 'kyc_status',
			unverifiedFields: { data },
			verified: true,
		});
	});
});

describe('webhook: Include Headers', () => {
	it('adds the request headers without authorization, cookie or token headers', async () => {
		const { responseData } = await receive({
			parameters: { options: { includeHeaders: true, verifyWithApi: false } },
			bodyData: paymentApproved,
			headers: {
				'content-type': 'application/json',
				'x-request-id': 'req-7',
				authorization: 'Bearer leaked',
				cookie: 'session=abc',
				'x-api-key': 'k',
			},
		});
		expect(item(responseData).headers).toEqual({
			'content-type': 'application/json',
			'x-request-id': 'req-7',
		});
	});
});
