// Issue 24, "Paid twice", on n8n's engine: each case as a user plays it. The retried execution gets
// what n8n carries into it (the failed execution's custom data), nothing else: a new execution, mode
// "retry", and, where the case says days passed or n8n restarted, an empty process memory and an
// empty deduplication store (a new engine).
import { resetNodeMemory, useOperations } from '../../lib/operations.mjs';
import { doneAndIds, facilitaPay, LIST, ONE, payout, refused, retry } from './lib.mjs';

const { USD_CASHOUT } = await import('../../../fixtures/transactions.js').then(
	(m) => m.default ?? m,
);
const EMPTY_ACCOUNT = USD_CASHOUT;
const FUNDED_ACCOUNT = '0b5e7c2a-1f3d-4a8e-9c61-0000000000f1';

const op = useOperations();

describe('Paid twice (issue 24): a retried execution never pays an item again', () => {
	it('a payout batch fails on item 3; From Bank Account edited; "Retry with currently saved workflow": items 1 and 2 are not paid again', async () => {
		const service = facilitaPay({
			decide: (transaction) =>
				transaction.from_bank_account_id === EMPTY_ACCOUNT && transaction.value === '3.00'
					? refused()
					: 'ok',
		});
		const values = ['1.00', '2.00', '3.00'];
		const failed = await op.run({
			parameters: values.map((value) => payout(value, { fromBankAccountId: EMPTY_ACCOUNT })),
			replies: service.replies,
		});
		expect(failed.error.message).toMatch(/\(item 2\)/);

		const retried = await retry(
			op,
			failed,
			values.map((value) => payout(value, { fromBankAccountId: FUNDED_ACCOUNT })),
			service,
		);
		expect(retried.error).toBeUndefined();
		expect(service.sent()).toEqual(['1.00', '2.00', '3.00', '3.00']);
		expect(service.payouts[3].from_bank_account_id).toBe(FUNDED_ACCOUNT);
		expect(doneAndIds(retried.items)).toEqual([
			[true, 'tx-1'],
			[true, 'tx-2'],
			[false, 'tx-3'],
		]);
	});

	it('the same Retry clicked 25 hours later (n8n restarted, its store emptied): nothing is paid again, the item of unknown outcome is found at FacilitaPay', async () => {
		const service = facilitaPay({
			decide: (transaction) => (transaction.value === '2.00' ? 'lostAnswer' : 'ok'),
		});
		const parameters = [payout('1.00'), payout('2.00')];
		const failed = await op.run({ parameters, replies: service.replies });
		expect(failed.error.message).toMatch(/^Outcome unknown/);

		resetNodeMemory();
		const retried = await retry(op, failed, parameters, service);
		expect(retried.error).toBeUndefined();
		expect(service.sent()).toEqual(['1.00', '2.00']);
		expect(doneAndIds(retried.items)).toEqual([
			[true, 'tx-1'],
			[true, 'tx-2'],
		]);
		expect(retried.items[1].json.alreadyDoneNote).toMatch(/FacilitaPay already holds this payment/);
	});

	it('a run longer than an hour (its memory gone), then Retry On Fail: its first items are not sent again', async () => {
		const values = Array.from({ length: 40 }, (_unused, i) => `${i + 1}.00`);
		const service = facilitaPay({
			decide: (transaction, attempt) => {
				if (transaction.value !== '40.00' || attempt !== 40) return 'ok';
				// An hour has passed: the node's process memory is gone when the refusal comes.
				resetNodeMemory();
				return refused();
			},
		});
		// n8n's Retry On Fail: the node runs again in the same execution ($runIndex 0, its custom data).
		const { items, error, requests } = await op.run({
			parameters: values.map((value) => payout(value)),
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 1,
			replies: service.replies,
		});
		expect(error).toBeUndefined();
		expect(service.sent()).toEqual([...values, '40.00']);
		expect(items.filter((item) => item.json.alreadyDone === true)).toHaveLength(39);
		expect(items[39].json).toMatchObject({ id: 'tx-40' });
		expect(items[39].json.alreadyDone).toBeUndefined();
		// The subject's list is read for the 40 items together, not once per item.
		const reads = requests.filter((request) => request.method === 'GET');
		expect(reads.every((request) => request.route === LIST || request.route === ONE)).toBe(true);
		expect(reads.length).toBeLessThan(10);
	});

	it("70,000 newer payouts pushed the older execution's keys out of n8n's store: its retry still pays nothing twice", async () => {
		const service = facilitaPay({
			decide: (transaction, attempt) =>
				transaction.value === '3.00' && attempt === 3 ? refused() : 'ok',
		});
		const parameters = ['1.00', '2.00', '3.00'].map((value) => payout(value));
		const failed = await op.run({ parameters, replies: service.replies });
		expect(failed.error.message).toMatch(/\(item 2\)/);
		// The store holds none of its keys any more (a new, empty one), n8n restarted.
		resetNodeMemory();
		const retried = await retry(op, failed, parameters, service);
		expect(service.sent()).toEqual(['1.00', '2.00', '3.00', '3.00']);
		expect(retried.items.map((item) => item.json.alreadyDone ?? false)).toEqual([
			true,
			true,
			false,
		]);
	});

	it('a retry of a retry keeps the first execution as the origin', async () => {
		const service = facilitaPay({
			decide: (transaction, attempt) =>
				transaction.value === '2.00' && attempt < 4 ? refused() : 'ok',
		});
		const parameters = [payout('1.00'), payout('2.00')];
		const first = await op.run({ parameters, replies: service.replies });
		expect(first.error.message).toMatch(/\(item 1\)/);
		const second = await retry(op, first, parameters, service);
		expect(second.error.message).toMatch(/\(item 1\)/);
		resetNodeMemory();
		const third = await retry(op, second, parameters, service);
		expect(third.error).toBeUndefined();
		expect(service.sent()).toEqual(['1.00', '2.00', '2.00', '2.00']);
		expect(third.items.map((item) => item.json.id)).toEqual(['tx-1', 'tx-2']);
		expect(third.customData.facilitapay.split('|')[1]).toBe(
			first.customData.facilitapay.split('|')[1],
		);
	});
});
