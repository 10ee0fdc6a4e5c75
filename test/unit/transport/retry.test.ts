import { defaultRetryOptions } from '../../../nodes/FacilitaPay/transport';
import { runNode, runNodeExpectingError } from '../helpers/executeContext';
import { connectionError, httpError } from '../helpers/serviceAnswers';
import { skipRetryWaits } from '../helpers/retryWaits';
import { getTransactionParameters } from '../../fixtures/transactions';

const waits = skipRetryWaits();

const getTransaction = getTransactionParameters();

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
