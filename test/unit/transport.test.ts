import { defaultRetryOptions } from '../../nodes/FacilitaPay/transport';
import {
	connectionError,
	httpError,
	runNode,
	runNodeExpectingError,
} from './helpers/executeContext';

const waits: number[] = [];
beforeEach(() => {
	waits.length = 0;
	jest.spyOn(defaultRetryOptions, 'wait').mockImplementation(async (ms: number) => {
		waits.push(ms);
	});
});
afterEach(() => jest.restoreAllMocks());

const getTransaction = {
	resource: 'transaction',
	operation: 'get',
	transactionId: 'tx-1',
	simplify: false,
};

describe('transport: URL, auth and envelope', () => {
	it('builds the URL from the credential base URL (trailing slash tolerated) and unwraps data', async () => {
		const { output, requests } = await runNode({
			parameters: getTransaction,
			replies: [{ data: { id: 'tx-1', status: 'pending' } }],
		});
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/transactions/tx-1');
		expect(requests[0].method).toBe('GET');
		expect(output[0].json).toEqual({ id: 'tx-1', status: 'pending' });
		expect(output[0].pairedItem).toEqual({ item: 0 });
	});

	it('sends Content-Type: application/json on every request, even without a body', async () => {
		const { requests } = await runNode({
			parameters: {
				resource: 'notification',
				operation: 'markAsSuccessful',
				notificationId: '5f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
			},
			replies: [{ data: { id: '5f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', failed_at: null } }],
		});
		expect(requests[0].method).toBe('PUT');
		expect(requests[0].body).toBeUndefined();
		expect(requests[0].headers).toMatchObject({
			'Content-Type': 'application/json',
			Accept: 'application/json',
		});
	});

	it.each([
		['production', 'https://api.facilitapay.com/api/v1/transactions/tx-1'],
		['sandbox', 'https://sandbox-api.facilitapay.com/api/v1/transactions/tx-1'],
	])('uses the %s host', async (environment, url) => {
		const { requests } = await runNode({
			parameters: getTransaction,
			credentials: { environment, authentication: 'accessToken', accessToken: 't' },
			replies: [{ data: { id: 'tx-1' } }],
		});
		expect(requests[0].url).toBe(url);
	});
});

describe('transport: error bodies become one readable message', () => {
	it.each([
		[
			'field errors',
			422,
			{ errors: { document_number: ['is invalid'], email: ['has invalid format', 'is required'] } },
			/FacilitaPay rejected the data \(item 0\): document_number: is invalid \| email: has invalid format; is required/,
		],
		[
			'a token error',
			401,
			{ error: 'invalid_token' },
			/refused the credentials \(item 0\): invalid_token \(the access token is wrong or expired/,
		],
		[
			'another object',
			400,
			{ value: 'must have two decimals' },
			/rejected the request \(item 0\): value: must have two decimals/,
		],
		[
			'plain text',
			500,
			'Internal Server Error',
			/internal error \(item 0\): Internal Server Error/,
		],
		['JSON sent as text', 422, '{"errors":{"value":["is invalid"]}}', /value: is invalid/],
	])('%s', async (_name, status, body, message) => {
		const { error } = await runNodeExpectingError({
			parameters: getTransaction,
			replies: [httpError(status, body)],
		});
		expect(error.message).toMatch(message);
		expect(error.description).toContain(`GET /transactions/tx-1, HTTP ${status}`);
		expect(error.context.itemIndex).toBe(0);
	});

	it('names the item that failed among several', async () => {
		const { error } = await runNodeExpectingError({
			parameters: [getTransaction, { ...getTransaction, transactionId: 'tx-2' }],
			replies: [{ data: { id: 'tx-1' } }, httpError(404, { error: 'not_found' })],
		});
		expect(error.message).toMatch(/did not find the record \(item 1\): not_found/);
		expect(error.context.itemIndex).toBe(1);
	});

	it('with Continue On Fail, a failed item becomes an error item and the others go through', async () => {
		const { output } = await runNode({
			parameters: [
				getTransaction,
				{ ...getTransaction, transactionId: 'tx-2' },
				{ ...getTransaction, transactionId: 'tx-3' },
			],
			continueOnFail: true,
			replies: [
				{ data: { id: 'tx-1' } },
				httpError(404, { error: 'not_found' }),
				{ data: { id: 'tx-3' } },
			],
		});
		expect(output.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[1].json.error).toMatch(/not_found/);
		expect(output[2].json).toEqual({ id: 'tx-3' });
	});
});

describe('transport: retries', () => {
	it('retries a read after 503 with backoff, then succeeds', async () => {
		const { output, requests } = await runNode({
			parameters: getTransaction,
			replies: [
				httpError(503, 'Service Unavailable'),
				connectionError('ECONNRESET'),
				{ data: { id: 'tx-1' } },
			],
		});
		expect(requests).toHaveLength(3);
		expect(output[0].json.id).toBe('tx-1');
		expect(waits).toHaveLength(2);
		expect(waits[1]).toBeGreaterThanOrEqual(500);
	});

	it('honours Retry-After on 429, with up to 20 % jitter so that waiting clients do not return together', async () => {
		await runNode({
			parameters: getTransaction,
			replies: [
				httpError(429, { error: 'rate_limited' }, { 'retry-after': '7' }),
				{ data: { id: 'tx-1' } },
			],
		});
		expect(waits).toHaveLength(1);
		expect(waits[0]).toBeGreaterThanOrEqual(7000);
		expect(waits[0]).toBeLessThanOrEqual(8400);
	});

	it('gives up after a few attempts and says how many', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: getTransaction,
			replies: [
				httpError(502, ''),
				httpError(502, ''),
				httpError(502, ''),
				httpError(502, ''),
				httpError(502, ''),
			],
		});
		expect(requests).toHaveLength(defaultRetryOptions.maxAttempts);
		expect(error.description).toContain(`after ${defaultRetryOptions.maxAttempts} attempts`);
	});

	it('does not retry a 4xx answer', async () => {
		const { requests } = await runNodeExpectingError({
			parameters: getTransaction,
			replies: [httpError(404, { error: 'not_found' }), { data: {} }],
		});
		expect(requests).toHaveLength(1);
	});

	const payout = {
		resource: 'transaction',
		operation: 'createPayout',
		subjectId: '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c',
		fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000003',
		toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000006',
		currency: 'USD',
		exchangeCurrency: 'BRL',
		value: '100.00',
	};

	it.each([
		['a reset connection', connectionError('ECONNRESET')],
		['a timeout', connectionError('ETIMEDOUT')],
		['a 503', httpError(503, 'Service Unavailable')],
		['a 502', httpError(502, 'Bad Gateway')],
	])(
		'never repeats a payout after %s, and says to check before running again',
		async (_name, failure) => {
			const { error, requests } = await runNodeExpectingError({
				parameters: payout,
				replies: [failure, { data: { id: 'dup' } }],
			});
			expect(requests).toHaveLength(1);
			expect(waits).toHaveLength(0);
			expect(error.description).toMatch(/creates or moves money.*not repeated/);
		},
	);

	it('tries a payout again when the connection was refused (nothing was sent)', async () => {
		const { output, requests } = await runNode({
			parameters: payout,
			replies: [connectionError('ECONNREFUSED'), { data: { id: 'tx-9', status: 'pending' } }],
		});
		expect(requests).toHaveLength(2);
		expect(output[0].json.id).toBe('tx-9');
	});

	it('never repeats a cancel, even though it is sent as GET', async () => {
		const { requests } = await runNodeExpectingError({
			parameters: { resource: 'transaction', operation: 'cancel', transactionId: 'tx-1' },
			replies: [httpError(504, ''), { data: {} }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].url).toMatch(/\/transactions\/tx-1\/refund$/);
	});
});

describe('transport: paging by last_id', () => {
	const page = (from: number, count: number) =>
		Array.from({ length: count }, (_, k) => ({
			id: `p-${from + k}`,
			social_name: `Person ${from + k}`,
		}));

	it('Return All follows last_id until a short page', async () => {
		const { output, requests } = await runNode({
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true, simplify: false },
			replies: [{ data: page(0, 100) }, { data: page(100, 100) }, { data: page(200, 7) }],
		});
		expect(output).toHaveLength(207);
		expect(requests.map((r) => r.qs?.last_id)).toEqual([undefined, 'p-99', 'p-199']);
	});

	it('Limit stops requesting once reached', async () => {
		const { output, requests } = await runNode({
			parameters: {
				resource: 'subject',
				operation: 'getMany',
				returnAll: false,
				limit: 120,
				simplify: false,
			},
			replies: [{ data: page(0, 100) }, { data: page(100, 100) }, { data: page(200, 100) }],
		});
		expect(output).toHaveLength(120);
		expect(requests).toHaveLength(2);
		expect(output[119].json.id).toBe('p-119');
	});

	it('an empty list gives no items and one request', async () => {
		const { output, requests } = await runNode({
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true },
			replies: [{ data: [] }],
		});
		expect(output).toEqual([]);
		expect(requests).toHaveLength(1);
	});

	it('stops when the service repeats a page instead of looping forever', async () => {
		const { output, requests } = await runNode({
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true, simplify: false },
			replies: [{ data: page(0, 100) }, { data: page(0, 100) }],
		});
		expect(output).toHaveLength(100);
		expect(requests).toHaveLength(2);
	});
});
