import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { httpError } from '../../helpers/serviceAnswers';
import { skipRetryWaits } from '../../helpers/retryWaits';

const ACCOUNT_ID = '0b5e7c2a-1f3d-4a8e-9c61-000000000003';

skipRetryWaits();

const balance = {
	balance: '900.00',
	credit_value: '1000.00',
	debit_value: '100.00',
	credit_transactions: 2,
	debit_transactions: 1,
	currency: 'USD',
};

describe('Bank Account > Get Balance', () => {
	it('sends GET /bank_accounts/:id/balance and outputs the balance with the account ID', async () => {
		const { output, requests } = await runNode({
			parameters: {
				resource: 'bankAccount',
				operation: 'getBalance',
				bankAccountId: { __rl: true, mode: 'id', value: ` ${ACCOUNT_ID.toUpperCase()} ` },
			},
			replies: [{ data: balance }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('GET');
		expect(requests[0].url).toBe(`https://sandbox.test/api/v1/bank_accounts/${ACCOUNT_ID}/balance`);
		expect(output[0].json).toEqual({ bank_account_id: ACCOUNT_ID, ...balance });
	});

	it('refuses an ID that is not a UUID before sending', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: { resource: 'bankAccount', operation: 'getBalance', bankAccountId: '../people' },
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Bank Account ID \(item 0\)/);
	});

	it('is a read: a 503 is retried', async () => {
		const { output, requests } = await runNode({
			parameters: { resource: 'bankAccount', operation: 'getBalance', bankAccountId: ACCOUNT_ID },
			replies: [httpError(503, { error: 'service_unavailable' }), { data: balance }],
		});
		expect(requests).toHaveLength(2);
		expect(output[0].json.balance).toBe('900.00');
	});
});
