// Issue 24, "Not paid, reported already done or unknown", on n8n's engine: each case as a user
// plays it. A retried execution gets what n8n's Retry button carries into it: mode "retry" and the
// failed execution's custom data; one workflow's executions share n8n's deduplication store (one
// engine); "n8n restarted" is an empty process memory.
import { resetNodeMemory, useOperations } from '../../lib/operations.mjs';
import { doneAndIds, facilitaPay, payout, refused, retry, SUBJECT_ID } from './lib.mjs';

const op = useOperations();

describe('Not paid (issue 24): a payment FacilitaPay does not hold under its identity is paid', () => {
	it('daily settlement: Monday paid; Tuesday refused, balance topped up, Tuesday retried: Tuesday is paid', async () => {
		const service = facilitaPay({
			decide: (_transaction, attempt) => (attempt === 2 ? refused() : 'ok'),
		});
		// One workflow: its executions share n8n's deduplication store.
		const engine = await op.engine();
		const monday = await op.run({
			engine,
			parameters: [payout('1000.00')],
			replies: service.replies,
		});
		expect(monday.error).toBeUndefined();
		const tuesday = await op.run({
			engine,
			parameters: [payout('1000.00')],
			replies: service.replies,
		});
		expect(tuesday.error.message).toMatch(/insufficient balance/);
		resetNodeMemory();
		const retried = await retry(op, tuesday, [payout('1000.00')], service, { engine });
		expect(retried.error).toBeUndefined();
		expect(service.sent()).toEqual(['1000.00', '1000.00', '1000.00']);
		expect(retried.items[0].json).toMatchObject({ id: 'tx-2' });
		expect(retried.items[0].json.alreadyDone).toBeUndefined();
	});

	it('two orders of 100.00 to one customer, one paid, one timed out unprocessed, other 100.00 payouts on record: the retry 11 minutes later pays the second', async () => {
		const service = facilitaPay({
			decide: (_transaction, attempt) => (attempt === 2 ? 'lost' : 'ok'),
		});
		// An older payout and one made at 15:00 by another system: same value, same accounts, no identity.
		const other = (id) => ({ id, subject_id: SUBJECT_ID, value: '100.00', meta: {} });
		service.records.push(other('older'));
		const parameters = [payout('100.00'), payout('100.00')];
		const failed = await op.run({ parameters, replies: service.replies });
		expect(failed.error.message).toMatch(/^Outcome unknown \(item 1\)/);
		service.records.push(other('at-15:00'));
		// Retried once FacilitaPay's clock shows the settle window passed since the lost try
		// (issue 39: sooner, it may still be writing it).
		op.service.advanceClock(11 * 60_000);
		const retried = await retry(op, failed, parameters, service);
		expect(retried.error).toBeUndefined();
		expect(service.sent()).toEqual(['100.00', '100.00', '100.00']);
		expect(doneAndIds(retried.items)).toEqual([
			[true, 'tx-2'],
			[false, 'tx-4'],
		]);
		expect(retried.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('Idempotency Keys order-1 and order-2 with one amount (an AI tool, one workflow): both are paid', async () => {
		const service = facilitaPay();
		const engine = await op.engine();
		for (const key of ['order-1', 'order-2'])
			await op.run({
				engine,
				nodeType: 'facilitaPayTool',
				parameters: [payout('50.00', { idempotencyKey: key })],
				replies: service.replies,
			});
		expect(service.sent()).toEqual(['50.00', '50.00']);
		expect(service.payouts.map((transaction) => transaction.meta.n8n_facilitapay_ref)).toEqual([
			'key:order-1',
			'key:order-2',
		]);
	});

	it('a key found done yesterday is "already done" every later day, with its record, never "Outcome unknown"', async () => {
		const service = facilitaPay();
		const parameters = [payout('70.00', { idempotencyKey: 'order-7' })];
		await op.run({ parameters, replies: service.replies });
		for (let day = 1; day <= 3; day++) {
			// Another day, n8n restarted, its store emptied.
			resetNodeMemory();
			const later = await op.run({ parameters, replies: service.replies });
			expect(later.error).toBeUndefined();
			expect(later.items[0].json).toMatchObject({ alreadyDone: true, id: 'tx-1' });
		}
		expect(service.sent()).toEqual(['70.00']);
	});

	it('two items with one key: the second is "not sent", the run does not fail', async () => {
		const service = facilitaPay();
		const { items, error } = await op.run({
			parameters: [
				payout('9.00', { idempotencyKey: 'order-9' }),
				payout('9.00', { idempotencyKey: 'order-9' }),
			],
			replies: service.replies,
		});
		expect(error).toBeUndefined();
		expect(service.sent()).toEqual(['9.00']);
		expect(items[0].json).toMatchObject({ id: 'tx-1' });
		expect(items[1].json).toMatchObject({ notSent: true, idempotencyKey: 'order-9' });
		expect(items[1].json.notSentNote).toMatch(
			/item 0 of this run carries the same Idempotency Key/,
		);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('a new execution with content identical to an earlier one is another payment (monthly payouts)', async () => {
		const service = facilitaPay();
		const engine = await op.engine();
		for (let month = 0; month < 3; month++)
			await op.run({ engine, parameters: [payout('300.00')], replies: service.replies });
		expect(service.sent()).toEqual(['300.00', '300.00', '300.00']);
	});
});
