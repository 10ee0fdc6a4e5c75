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

describe('Find By Idempotency Key reads what this process did not read yet (issue 39)', () => {
	it('a subject with 250 transactions: the first call reads its pages to the end, every later one 1 (per account)', async () => {
		const service = facilitaPay();
		for (let i = 1; i <= 250; i++)
			service.records.push({
				id: `old-${i}`,
				subject_id: SUBJECT_ID,
				value: '1.00',
				status: 'wired',
				meta: i === 7 ? { n8n_facilitapay_ref: 'key:ORDER-7' } : {},
			});
		const engine = await op.engine();
		const pages = (result) => result.requests.filter((request) => request.route === LIST).length;
		const first = await op.run({ engine, parameters: find('ORDER-7'), replies: service.replies });
		expect(first.items[0].json).toMatchObject({ found: true, id: 'old-7' });
		// 100 a page: 3 pages, and the empty page after them that ends the list.
		expect(pages(first)).toBeGreaterThanOrEqual(3);
		for (let call = 0; call < 3; call++) {
			const later = await op.run({ engine, parameters: find('ORDER-7'), replies: service.replies });
			expect(later.items[0].json).toMatchObject({ found: true, id: 'old-7', status: 'wired' });
			expect(pages(later)).toBe(1);
		}
		const missing = await op.run({ engine, parameters: find('ORDER-8'), replies: service.replies });
		expect(missing.items[0].json).toMatchObject({ found: false, transactionsRead: 250 });
		expect(pages(missing)).toBe(1);
		// A payout made since is found by the next call (only what came after is read).
		await op.run({
			engine,
			parameters: [payout('8.00', { idempotencyKey: 'ORDER-8' })],
			replies: service.replies,
		});
		const made = await op.run({ engine, parameters: find('ORDER-8'), replies: service.replies });
		expect(made.items[0].json).toMatchObject({ found: true, value: '8.00' });
		// Another account (another user signing in): its list is read whole.
		const other = await op.engine({ credentials: { accessToken: 'another-user' } });
		const there = await op.run({
			engine: other,
			parameters: find('ORDER-7'),
			replies: service.replies,
		});
		expect(pages(there)).toBe(pages(first));
	});
});
