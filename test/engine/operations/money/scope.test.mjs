// Issue 32, "Reported done, never paid" and "A key names one payment", on n8n's engine: an identity
// carries its scope (this n8n, this workflow), the node trusts only custom data it wrote, and a key
// is bound to the payment it was first used for.
import { reply, resetNodeMemory, useOperations } from '../../lib/operations.mjs';
import { CREATE, facilitaPay, OTHER_SUBJECT, payout, refused, retry } from './lib.mjs';

const op = useOperations();

/** n8n's Retry On Fail: the node runs again in the same execution, at once. */
const retryOnFail = { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 };

describe('Reported done, never paid (issue 32)', () => {
	it("two n8n instances on one FacilitaPay account: instance B's payout is paid, not answered with instance A's record", async () => {
		const service = facilitaPay({
			decide: (_transaction, attempt) => {
				if (attempt !== 4) return 'ok';
				// The connection resets before FacilitaPay wrote anything; n8n retries once
				// FacilitaPay's clock shows its settle window passed (issue 39: not at once).
				op.service.advanceClock(11 * 60_000);
				return 'lost';
			},
		});
		const parameters = [payout('50.00'), payout('100.00')];
		const a = await op.run({ parameters, instanceId: 'staging', replies: service.replies });
		expect(a.error).toBeUndefined();
		// Instance B: another n8n (its own database and process), the same workflow and node IDs.
		resetNodeMemory();
		const b = await op.run({
			parameters,
			instanceId: 'production',
			...retryOnFail,
			replies: service.replies,
		});
		expect(b.error).toBeUndefined();
		expect(b.items[1].json.alreadyDone).toBeUndefined();
		expect(b.items[1].json.id).not.toBe('tx-2');
		expect(service.records.filter((record) => record.value === '100.00')).toHaveLength(2);
		const refs = service.payouts.map((transaction) => transaction.meta.n8n_facilitapay_ref);
		expect(refs[0].split(':')[1]).not.toBe(refs[2].split(':')[1]);
	});

	it.each([
		['a plain execution', false],
		['Retry On Fail after a connection reset', true],
	])(
		"a workflow that sets custom data facilitapay to October's value: November's payout is paid (%s)",
		async (_case, reset) => {
			const service = facilitaPay({
				decide: (transaction, attempt) =>
					reset && transaction.value === '100.00' && attempt === 2 ? 'lost' : 'ok',
			});
			const october = await op.run({ parameters: [payout('100.00')], replies: service.replies });
			expect(october.error).toBeUndefined();
			// November: the workflow itself writes October's value under the node's key.
			const november = {
				parameters: [payout('100.00')],
				customData: { facilitapay: october.customData.facilitapay },
				replies: service.replies,
			};
			if (!reset) {
				const result = await op.run(november);
				expect(result.error).toBeUndefined();
				expect(result.items[0].json.alreadyDone).toBeUndefined();
				expect(result.items[0].json.id).toBe('tx-2');
				expect(service.sent()).toEqual(['100.00', '100.00']);
				return;
			}
			// The reset may have been processed and nothing read since shows meta kept: unknown,
			// never "done" with October's record, never sent again.
			const again = await op.run({ ...november, ...retryOnFail });
			expect(again.error.message).toMatch(/^Outcome unknown \(item 0\)/);
			expect(again.error.message).not.toMatch(/tx-1/);
			expect(service.sent()).toEqual(['100.00', '100.00']);
		},
	);

	it("a value under facilitapay in the workflow's own format is no origin: the payout is paid", async () => {
		const service = facilitaPay();
		const engine = await op.engine();
		const run = () =>
			op.run({
				engine,
				parameters: [payout('100.00')],
				customData: { facilitapay: '1|k|abc' },
				replies: service.replies,
			});
		await run();
		const result = await run();
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.alreadyDone).toBeUndefined();
		expect(service.sent()).toEqual(['100.00', '100.00']);
	});
});

describe('A key names one payment (issue 32)', () => {
	it.each([
		['in the same n8n process', false],
		['after a restart (the record at FacilitaPay carries its fingerprint)', true],
	])(
		'INV-7 reused by an agent for 500.00 (%s): refused, both payments named, nothing sent',
		async (_case, restart) => {
			const service = facilitaPay();
			const engine = await op.engine();
			await op.run({
				engine,
				parameters: [payout('100.00', { idempotencyKey: 'INV-7' })],
				replies: service.replies,
			});
			if (restart) resetNodeMemory();
			const { error, requests } = await op.run({
				engine,
				parameters: [payout('500.00', { idempotencyKey: 'INV-7' })],
				replies: service.replies,
			});
			expect(error.message).toMatch(
				/Idempotency Key "INV-7" already names another payment: tx-1 \(value 100\.00, .*\)\. This request \(.*value=500.*\) differs from it, so it was not sent/,
			);
			expect(error.message).not.toMatch(/already done|alreadyDone/);
			expect(requests.filter((request) => request.route === CREATE)).toHaveLength(0);
			expect(service.sent()).toEqual(['100.00']);
		},
	);

	it.each([
		['in the same n8n process', false],
		["after a restart (n8n's store keeps the key's fingerprint)", true],
	])(
		'a key used again for another subject (%s): refused, not paid again',
		async (_case, restart) => {
			const service = facilitaPay();
			const engine = await op.engine();
			await op.run({
				engine,
				parameters: [payout('100.00', { idempotencyKey: 'ORDER-77' })],
				replies: service.replies,
			});
			if (restart) resetNodeMemory();
			const { error } = await op.run({
				engine,
				parameters: [payout('100.00', { idempotencyKey: 'ORDER-77', subjectId: OTHER_SUBJECT })],
				replies: service.replies,
			});
			expect(error.message).toMatch(/Idempotency Key "ORDER-77" already names another payment/);
			expect(error.message).toContain(OTHER_SUBJECT);
			expect(service.sent()).toEqual(['100.00']);
		},
	);

	it('the same key with the same parameters, another execution: not sent, the record comes out', async () => {
		const service = facilitaPay();
		const engine = await op.engine();
		const run = () =>
			op.run({
				engine,
				parameters: [payout('100.00', { idempotencyKey: 'ORDER-78' })],
				replies: service.replies,
			});
		await run();
		resetNodeMemory();
		const again = await run();
		expect(again.items[0].json).toMatchObject({ alreadyDone: true, id: 'tx-1' });
		expect(service.sent()).toEqual(['100.00']);
	});

	it('two items of one run with one key and different amounts: the second is refused naming the first', async () => {
		const service = facilitaPay();
		const { items } = await op.run({
			parameters: [
				payout('10.00', { idempotencyKey: 'K-1' }),
				payout('20.00', { idempotencyKey: 'K-1' }),
			],
			continueOnFail: true,
			replies: service.replies,
		});
		expect(items[0].json).toMatchObject({ id: 'tx-1' });
		expect(items[1].json.error).toMatch(/already names another payment: item 0 of this run/);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(service.sent()).toEqual(['10.00']);
	});
});

describe('Lookups are reads: a transient 5xx is retried (issue 32)', () => {
	it('one 500 on a page of the lookup of a retry of 150 payouts: read again, settled, nothing "Outcome unknown"', async () => {
		const values = Array.from({ length: 150 }, (_unused, i) => `${i + 1}.00`);
		const service = facilitaPay({
			decide: (_transaction, attempt) => (attempt === 150 ? refused() : 'ok'),
		});
		const parameters = values.map((value) => payout(value));
		const failed = await op.run({ parameters, replies: service.replies });
		expect(failed.error.message).toMatch(/\(item 149\)/);
		resetNodeMemory();
		// The second page the retry's lookup reads is answered 500 once.
		service.failListRead(2);
		const retried = await retry(op, failed, parameters, service);
		expect(service.failedListReads()).toBe(1);
		expect(retried.error).toBeUndefined();
		expect(retried.items.filter((item) => item.json.alreadyDone === true)).toHaveLength(149);
		expect(service.sent()).toHaveLength(151);
	});
});

describe('A payment made by a sub-workflow (issue 32)', () => {
	const badSecond = (transaction) =>
		transaction.value === '2.00' ? reply(422, { errors: { value: ['bad'] } }) : 'ok';

	it("the error of a failed batch in a sub-workflow does not call the parent's retry safe", async () => {
		const service = facilitaPay({ decide: badSecond });
		const { error } = await op.run({
			parameters: [payout('1.00'), payout('2.00')],
			mode: 'integrated',
			replies: service.replies,
		});
		expect(error.description).not.toMatch(/is safe/);
		expect(error.description).toMatch(
			/sub-workflow.*Retrying the parent execution runs this sub-workflow anew and sends its items again, unless an Idempotency Key is set/s,
		);
	});

	it('with an Idempotency Key on every item, the error says the done items are not sent again', async () => {
		const service = facilitaPay({ decide: badSecond });
		const { error } = await op.run({
			parameters: [
				payout('1.00', { idempotencyKey: 'SUB-1' }),
				payout('2.00', { idempotencyKey: 'SUB-2' }),
			],
			mode: 'integrated',
			replies: service.replies,
		});
		expect(error.description).not.toMatch(/sends its items again/);
		expect(error.description).toMatch(
			/sub-workflow anew; items done under their Idempotency Key are not sent again/,
		);
	});
});
