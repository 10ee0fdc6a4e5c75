// Issue 32, "Paid twice", on n8n's engine: each case as a user plays it, with a FacilitaPay that
// keeps meta and lists a subject's transactions 100 a page. Two executions at once are two
// `op.run` in flight together; a queue-mode worker is another credential ID (the node's process
// memory is per credential); one workflow's executions share n8n's deduplication store (one engine).
import { resetNodeMemory, useOperations } from '../../lib/operations.mjs';
import {
	doneAndIds,
	facilitaPay,
	money,
	OTHER_SUBJECT,
	payout,
	refused,
	retry,
	SUBJECT_ID,
} from './lib.mjs';

const op = useOperations();

/** Whether a run of this process waits for an identity another run is sending. */
const someRunWaits = () =>
	[...money().sentMemory.waiting.values()].some((waiting) => waiting.length > 0);

describe('Paid twice (issue 32): overlapping runs of one key pay once', () => {
	it.each([
		['a subject with earlier n8n payments', true],
		["a subject's first payment", false],
	])(
		'one Idempotency Key in two executions at once (%s): one payment; the other execution gets its record',
		async (_case, earlier) => {
			let answering = true;
			let secondDone = false;
			let waited = false;
			const service = facilitaPay({ holdAnswer: () => answering });
			const engine = await op.engine();
			if (earlier) {
				const paid = await op.run({
					engine,
					parameters: [payout('9.00', { idempotencyKey: 'ORDER-8' })],
					replies: service.replies,
				});
				expect(paid.error).toBeUndefined();
			}
			// FacilitaPay answers the first execution's payout only once the second one waits for it.
			answering = false;
			const run = (replies) =>
				op.run({
					engine,
					parameters: [payout('120.00', { idempotencyKey: 'ORDER-9001' })],
					replies,
				});
			const arrived = service.nextPayout();
			const first = run(earlier ? undefined : service.replies);
			await arrived;
			const second = run().finally(() => (secondDone = true));
			const opening = setInterval(() => {
				if (someRunWaits()) waited = true;
				if (waited || secondDone) answering = true;
			}, 2);
			const results = await Promise.all([first, second]).finally(() => clearInterval(opening));
			// The second execution waited for the first one's outcome (this process's in-flight wait).
			expect(waited).toBe(true);
			expect(results.map((result) => result.error)).toEqual([undefined, undefined]);
			expect(service.sent().filter((value) => value === '120.00')).toHaveLength(1);
			const outputs = results.map((result) => result.items[0].json);
			expect(outputs.map((json) => json.id)).toEqual([outputs[0].id, outputs[0].id]);
			expect(outputs.filter((json) => json.alreadyDone === true)).toHaveLength(1);
		},
	);
});

describe('Paid twice (issue 32): one key on two queue-mode workers at once', () => {
	const parameters = [payout('120.00', { idempotencyKey: 'WEBHOOK-77' })];

	it("n8n's store shared by the workers saw the first attempt: the later execution stops before sending", async () => {
		let secondDone = false;
		// FacilitaPay processes worker 1's payout only after worker 2's execution ended.
		const service = facilitaPay({ holdBefore: () => secondDone });
		const engine = await op.engine();
		const arrived = service.nextPayout();
		const first = op.run({
			engine,
			credentialId: 'worker-1',
			parameters,
			replies: service.replies,
		});
		await arrived;
		const second = await op.run({ engine, credentialId: 'worker-2', parameters });
		secondDone = true;
		const done = await first;
		expect(done.error).toBeUndefined();
		expect(done.items[0].json.id).toBe('tx-1');
		expect(service.sent()).toEqual(['120.00']);
		expect(second.error.message).toMatch(/^Outcome unknown \(item 0\): It was sent before/);
	});

	it("both got past n8n's store (its writes are not atomic): each execution ends with an error naming both transactions and how to cancel one, never silently", async () => {
		// Each worker's store call missed the other's write (two stores); FacilitaPay processes the
		// payouts once both arrived.
		const service = facilitaPay({ holdBefore: () => service.payouts.length >= 2 });
		const arrived = service.nextPayout();
		const first = op.run({ credentialId: 'worker-1', parameters, replies: service.replies });
		await arrived;
		const second = op.run({ credentialId: 'worker-2', parameters });
		const results = await Promise.all([first, second]);
		expect(service.sent()).toEqual(['120.00', '120.00']);
		const done = [];
		for (const { error } of results) {
			const named = error.message.match(
				/^Done \(ID (tx-[12])\) \(item 0\), but 2 payments carry n8n_facilitapay_ref "key:WEBHOOK-77" at FacilitaPay: (tx-[12])(?: \([^)]*\))? and (tx-[12])(?: \([^)]*\))?\. Two runs sent it at the same time/,
			);
			expect(named).not.toBeNull();
			// Each execution names its own payment first.
			expect(named[2]).toBe(named[1]);
			expect(new Set([named[2], named[3]])).toEqual(new Set(['tx-1', 'tx-2']));
			done.push(named[1]);
			expect(error.description).toMatch(/Transaction > Cancel/);
		}
		expect(done.sort()).toEqual(['tx-1', 'tx-2']);
	});
});

describe('Paid twice (issue 32): a retry settles each item where it was sent', () => {
	it('Subject ID edited, n8n restarted, "Retry with currently saved workflow": the done items are found at the old subject, only the failed one is sent (to the new subject)', async () => {
		const service = facilitaPay({
			decide: (transaction, attempt) =>
				transaction.value === '3.00' && attempt === 3 ? refused() : 'ok',
		});
		const values = ['1.00', '2.00', '3.00'];
		const failed = await op.run({
			parameters: values.map((value) => payout(value)),
			replies: service.replies,
		});
		expect(failed.error.message).toMatch(/\(item 2\)/);
		resetNodeMemory();
		const retried = await retry(
			op,
			failed,
			values.map((value) => payout(value, { subjectId: OTHER_SUBJECT })),
			service,
		);
		expect(retried.error).toBeUndefined();
		expect(service.sent()).toEqual(['1.00', '2.00', '3.00', '3.00']);
		expect(service.payouts.map((transaction) => transaction.subject_id)).toEqual([
			SUBJECT_ID,
			SUBJECT_ID,
			SUBJECT_ID,
			OTHER_SUBJECT,
		]);
		expect(doneAndIds(retried.items)).toEqual([
			[true, 'tx-1'],
			[true, 'tx-2'],
			[false, 'tx-3'],
		]);
	});

	it('FacilitaPay stops keeping meta: a payout whose answer was lost is not resent on the strength of older records carrying identities', async () => {
		const service = facilitaPay({
			decide: (transaction) => (transaction.value === '2.00' ? 'lostAnswer' : 'ok'),
		});
		// Earlier executions: records carrying identities, made while meta was kept.
		for (const value of ['10.00', '11.00'])
			await op.run({ parameters: [payout(value)], replies: service.replies });
		service.setMeta('drop');
		const failed = await op.run({ parameters: [payout('2.00')], replies: service.replies });
		expect(failed.error.message).toMatch(/^Outcome unknown \(item 0\)/);
		resetNodeMemory();
		const { error } = await retry(op, failed, [payout('2.00')], service);
		expect(error.message).toMatch(/^Outcome unknown \(item 0\).*does not prove "not sent"/);
		expect(service.sent()).toEqual(['10.00', '11.00', '2.00']);
	});

	it('Retry On Fail after a lost answer, the process memory gone, reads only what came after the chain began, not the 12 pages of the subject', async () => {
		let readsBeforeRetry;
		const service = facilitaPay({
			decide: (transaction) => {
				if (transaction.value !== '2.00') return 'ok';
				// The answer is lost, and the node's process memory is gone before n8n retries.
				readsBeforeRetry = service.reads.length;
				resetNodeMemory();
				return 'lostAnswer';
			},
		});
		// 1,149 earlier transactions of the subject, carrying other identities.
		for (let i = 0; i < 1149; i++)
			service.records.push({
				id: `old-${i}`,
				subject_id: SUBJECT_ID,
				value: '5.00',
				meta: { n8n_facilitapay_ref: `run:x:y:${i}:n:0:0` },
			});
		// This process knows the subject's newest transaction: it paid it earlier.
		const earlier = await op.run({ parameters: [payout('5.00')], replies: service.replies });
		expect(earlier.items[0].json.id).toBe('tx-1150');
		const { items, error } = await op.run({
			parameters: [payout('1.00'), payout('2.00')],
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 1,
			replies: service.replies,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.alreadyDone)).toEqual([true, true]);
		expect(items.map((item) => item.json.id)).toEqual(['tx-1151', 'tx-1152']);
		expect(service.sent()).toEqual(['5.00', '1.00', '2.00']);
		// From the chain's point on, not the subject's 12 pages from its start.
		const retryReads = service.reads.slice(readsBeforeRetry);
		expect(retryReads.length).toBeGreaterThan(0);
		expect(retryReads.length).toBeLessThan(12);
	});
});

describe('Reads bounded (issue 32): a key is looked up in what this process has not read yet', () => {
	it('keyed payouts to a subject with 1,150 earlier transactions: the first reads the list once, the next ones only what came since', async () => {
		const service = facilitaPay();
		for (let i = 0; i < 1150; i++)
			service.records.push({
				id: `old-${i}`,
				subject_id: SUBJECT_ID,
				value: '5.00',
				meta: { n8n_facilitapay_ref: `key:OLD-${i}` },
			});
		const pay = async (key) => {
			const from = service.reads.length;
			const result = await op.run({
				parameters: [payout('30.00', { idempotencyKey: key })],
				replies: service.replies,
			});
			return { ...result, reads: service.reads.slice(from) };
		};
		const first = await pay('ORDER-1');
		expect(first.items[0].json.alreadyDone).toBeUndefined();
		// The whole list once (12 pages and more), not once per page and key.
		expect(first.reads.length).toBeGreaterThanOrEqual(12);
		expect(first.reads.length).toBeLessThan(24);
		const second = await pay('ORDER-2');
		expect(second.items[0].json.alreadyDone).toBeUndefined();
		// Only what came since the newest record this process knows.
		expect(second.reads.length).toBeLessThan(6);
		// A key used long ago (OLD-7) is still found: this process knows the list from its start.
		const old = await pay('OLD-7');
		expect(old.items[0].json).toMatchObject({ alreadyDone: true, id: 'old-7' });
		expect(old.reads.length).toBeLessThan(6);
		expect(old.requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
		expect(service.sent()).toEqual(['30.00', '30.00']);
	});
});
