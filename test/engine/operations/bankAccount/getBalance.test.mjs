// Bank Account > Get Balance on n8n's engine, against a FacilitaPay scripted by route.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';

const ACCOUNT_ID = '0b5e7c2a-1f3d-4a8e-9c61-000000000003';
const BALANCE = 'GET /bank_accounts/:id/balance';

const op = useOperations();
const waits = skipRetryWaits();

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
		const { items, requests, error } = await op.run({
			parameters: {
				resource: 'bankAccount',
				operation: 'getBalance',
				bankAccountId: { __rl: true, mode: 'id', value: ` ${ACCOUNT_ID.toUpperCase()} ` },
			},
			replies: { [BALANCE]: { data: balance } },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			route: BALANCE,
			params: { id: ACCOUNT_ID },
		});
		expect(requests[0].headers.authorization).toBe('Bearer test-token');
		expect(items[0].json).toEqual({ bank_account_id: ACCOUNT_ID, ...balance });
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('typed in, an ID that is not a UUID is refused by the locator before the workflow starts', async () => {
		const { error, requests, items } = await op.run({
			parameters: {
				resource: 'bankAccount',
				operation: 'getBalance',
				bankAccountId: { __rl: true, mode: 'id', value: '../people' },
			},
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/Not a valid bank account ID: it is a UUID/);
	});

	it('from an expression, an ID that is not a UUID is refused by the node, naming the item, before sending', async () => {
		const { error, requests, items } = await op.run({
			parameters: {
				resource: 'bankAccount',
				operation: 'getBalance',
				bankAccountId: { __rl: true, mode: 'id', value: '={{ $json.account }}' },
			},
			items: [{ json: { account: '../people' } }],
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Bank Account ID \(item 0\)/);
	});

	it('is a read: a 503 is retried', async () => {
		const { items, requests } = await op.run({
			parameters: {
				resource: 'bankAccount',
				operation: 'getBalance',
				bankAccountId: { __rl: true, mode: 'id', value: ACCOUNT_ID },
			},
			replies: { [BALANCE]: [reply(503, { error: 'service_unavailable' }), { data: balance }] },
		});
		expect(requests).toHaveLength(2);
		expect(waits).toHaveLength(1);
		expect(items[0].json.balance).toBe('900.00');
	});
});
