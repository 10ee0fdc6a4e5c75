// Transaction > Find By Idempotency Key on n8n's engine: support asks "did order 9001 pay?".
import { useOperations } from '../../lib/operations.mjs';
import { CREATE, facilitaPay, LIST, locator, payout, SUBJECT_ID } from './lib.mjs';

const op = useOperations();

const find = (key) => ({
	resource: 'transaction',
	operation: 'findByIdempotencyKey',
	subjectId: locator(SUBJECT_ID),
	lookupKey: key,
	simplify: false,
});

describe('Transaction > Find By Idempotency Key', () => {
	it('returns the transaction a payment sent with the key made, read from the subject list', async () => {
		const service = facilitaPay();
		const paid = await op.run({
			parameters: [payout('90.01', { idempotencyKey: 'ORDER-9001' }), payout('5.00')],
			replies: service.replies,
		});
		expect(paid.error).toBeUndefined();
		const { items, requests, error } = await op.run({
			parameters: find('ORDER-9001'),
			replies: service.replies,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			found: true,
			idempotencyKey: 'ORDER-9001',
			id: 'tx-1',
			value: '90.01',
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(requests.length).toBeGreaterThan(0);
		expect(requests.every((request) => request.method === 'GET')).toBe(true);
		expect(
			requests.some((request) => request.route === LIST && request.params.id === SUBJECT_ID),
		).toBe(true);
		expect(requests.some((request) => request.route === CREATE)).toBe(false);
	});

	it('says nothing was found, and how far back it looked', async () => {
		const service = facilitaPay();
		await op.run({ parameters: [payout('5.00'), payout('6.00')], replies: service.replies });
		const { items } = await op.run({ parameters: find('ORDER-404'), replies: service.replies });
		expect(items).toEqual([
			{
				json: expect.objectContaining({
					found: false,
					idempotencyKey: 'ORDER-404',
					transactionsRead: 2,
					note: expect.stringMatching(/All 2 of its transactions were read, from the oldest/),
				}),
				pairedItem: { item: 0 },
			},
		]);
	});

	it('an empty key is refused before anything is read', async () => {
		const { error, requests, items } = await op.run({
			parameters: find('  '),
		});
		expect(error.message).toMatch(/Idempotency Key/);
		expect(items).toHaveLength(0);
		expect(requests).toHaveLength(0);
	});
});
