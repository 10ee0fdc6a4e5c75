import { resetMoney } from '../../../nodes/FacilitaPay/money';
import { ProcessedStore } from '../../helpers/fakeExecuteContext';
import { runNode, runNodeExpectingError } from '../helpers/executeContext';
import { skipRetryWaits } from '../helpers/retryWaits';
import { connectionError, httpError } from '../helpers/serviceAnswers';
import { facilitaPay, newExecutionId, payout } from './fixtures';

skipRetryWaits();

// Issue 32, "Reported done, never paid" and "A key names one payment": an identity carries its
// scope (this n8n, this workflow), the node trusts only custom data it wrote, and a key is bound
// to the payment it was first used for.

const OTHER_SUBJECT = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';

describe('Reported done, never paid (issue 32)', () => {
	it("two n8n instances on one FacilitaPay account, execution IDs both starting at 1: instance B's payout is paid, not answered with instance A's record", async () => {
		const service = facilitaPay({
			decide: (transaction, attempt) => (attempt === 4 ? connectionError('ETIMEDOUT') : 'ok'),
		});
		const parameters = [payout('50.00'), payout('100.00')];
		await runNode({
			parameters,
			executionId: '1',
			instanceId: 'staging',
			replies: service.replies,
		});
		// Instance B: another n8n (its own database and process), its execution 1.
		resetMoney();
		const customData = {};
		const failed = await runNodeExpectingError({
			parameters,
			executionId: '1',
			instanceId: 'production',
			customData,
			replies: service.replies,
		});
		expect(failed.error.message).toMatch(/^Outcome unknown \(item 1\)/);
		// Retry On Fail: the node runs again in the same execution.
		const again = await runNode({
			parameters,
			executionId: '1',
			instanceId: 'production',
			customData,
			replies: service.replies,
		});
		expect(again.output[1].json.alreadyDone).toBeUndefined();
		expect(again.output[1].json.id).not.toBe('tx-2');
		expect(service.records.filter((record) => record.value === '100.00')).toHaveLength(2);
	});

	it.each([
		['a plain execution', false],
		['Retry On Fail after a connection reset', true],
	])(
		"a workflow that sets custom data facilitapay to October's value: November's payout is paid (%s)",
		async (_case, reset) => {
			const service = facilitaPay({
				decide: (transaction, attempt) =>
					reset && transaction.value === '100.00' && attempt === 2
						? connectionError('ECONNRESET')
						: 'ok',
			});
			const october: Record<string, string> = {};
			await runNode({
				parameters: [payout('100.00')],
				executionId: newExecutionId(),
				customData: october,
				replies: service.replies,
			});
			// November: the workflow itself writes October's value under the node's key.
			const november = { facilitapay: october.facilitapay };
			const executionId = newExecutionId();
			const options = {
				parameters: [payout('100.00')],
				executionId,
				customData: november,
				replies: service.replies,
			};
			if (!reset) {
				const result = await runNode(options);
				expect(result.output[0].json.alreadyDone).toBeUndefined();
				expect(result.output[0].json.id).toBe('tx-2');
				expect(service.sent()).toEqual(['100.00', '100.00']);
				return;
			}
			await runNodeExpectingError(options);
			// The reset may have been processed and nothing read since shows meta kept: unknown,
			// never "done" with October's record, never sent again.
			const again = await runNodeExpectingError(options);
			expect(again.error.message).toMatch(/^Outcome unknown \(item 0\)/);
			expect(again.error.message).not.toMatch(/tx-1/);
			expect(service.sent()).toEqual(['100.00', '100.00']);
		},
	);

	it("a value under facilitapay in the workflow's own format is no origin: the payout is paid", async () => {
		const service = facilitaPay();
		await runNode({
			parameters: [payout('100.00')],
			executionId: newExecutionId(),
			customData: { facilitapay: '1|k|abc' },
			replies: service.replies,
		});
		const result = await runNode({
			parameters: [payout('100.00')],
			executionId: newExecutionId(),
			customData: { facilitapay: '1|k|abc' },
			replies: service.replies,
		});
		expect(result.output[0].json.alreadyDone).toBeUndefined();
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
			const store = new ProcessedStore();
			await runNode({
				parameters: [payout('100.00', { idempotencyKey: 'INV-7' })],
				executionId: newExecutionId(),
				processedStore: store,
				replies: service.replies,
			});
			if (restart) resetMoney();
			const { error } = await runNodeExpectingError({
				parameters: [payout('500.00', { idempotencyKey: 'INV-7' })],
				executionId: newExecutionId(),
				processedStore: store,
				replies: service.replies,
			});
			expect(error.message).toMatch(
				/Idempotency Key "INV-7" already names another payment: tx-1 \(value 100\.00, .*\)\. This request \(.*value=500.*\) differs from it, so it was not sent/,
			);
			expect(error.message).not.toMatch(/already done|alreadyDone/);
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
			const store = new ProcessedStore();
			await runNode({
				parameters: [payout('100.00', { idempotencyKey: 'ORDER-77' })],
				executionId: newExecutionId(),
				processedStore: store,
				replies: service.replies,
			});
			if (restart) resetMoney();
			const { error } = await runNodeExpectingError({
				parameters: [payout('100.00', { idempotencyKey: 'ORDER-77', subjectId: OTHER_SUBJECT })],
				executionId: newExecutionId(),
				processedStore: store,
				replies: service.replies,
			});
			expect(error.message).toMatch(/Idempotency Key "ORDER-77" already names another payment/);
			expect(error.message).toContain(OTHER_SUBJECT);
			expect(service.sent()).toEqual(['100.00']);
		},
	);

	it('the same key with the same parameters, another execution: not sent, the record comes out', async () => {
		const service = facilitaPay();
		const store = new ProcessedStore();
		const run = async () =>
			await runNode({
				parameters: [payout('100.00', { idempotencyKey: 'ORDER-78' })],
				executionId: newExecutionId(),
				processedStore: store,
				replies: service.replies,
			});
		await run();
		resetMoney();
		const again = await run();
		expect(again.output[0].json).toMatchObject({ alreadyDone: true, id: 'tx-1' });
		expect(service.sent()).toEqual(['100.00']);
	});

	it('two items of one run with one key and different amounts: the second is refused naming the first', async () => {
		const service = facilitaPay();
		const { output } = await runNode({
			parameters: [
				payout('10.00', { idempotencyKey: 'K-1' }),
				payout('20.00', { idempotencyKey: 'K-1' }),
			],
			continueOnFail: true,
			executionId: newExecutionId(),
			replies: service.replies,
		});
		expect(output[1].json.error).toMatch(/already names another payment: item 0 of this run/);
		expect(service.sent()).toEqual(['10.00']);
	});
});

describe('Lookups are reads: a transient 5xx is retried (issue 32)', () => {
	it('one 500 on a page of the lookup of a retry of 150 payouts: read again, settled, nothing "Outcome unknown"', async () => {
		const values = Array.from({ length: 150 }, (_unused, i) => `${i + 1}.00`);
		const service = facilitaPay({
			decide: (_transaction, attempt) =>
				attempt === 150 ? httpError(422, { errors: { value: ['insufficient balance'] } }) : 'ok',
			failListRead: 2,
		});
		const customData = {};
		await runNodeExpectingError({
			parameters: values.map((value) => payout(value)),
			executionId: newExecutionId(),
			customData,
			replies: service.replies,
		});
		resetMoney();
		const retried = await runNode({
			parameters: values.map((value) => payout(value)),
			executionId: newExecutionId(),
			mode: 'retry',
			customData,
			replies: service.replies,
		});
		expect(retried.output.filter((item) => item.json.alreadyDone === true)).toHaveLength(149);
		expect(service.sent()).toHaveLength(151);
	});
});

describe('A payment made by a sub-workflow (issue 32)', () => {
	it("the error of a failed batch in a sub-workflow does not call the parent's retry safe", async () => {
		const service = facilitaPay({
			decide: (transaction) =>
				transaction.value === '2.00' ? httpError(422, { errors: { value: ['bad'] } }) : 'ok',
		});
		const { error } = await runNodeExpectingError({
			parameters: [payout('1.00'), payout('2.00')],
			executionId: newExecutionId(),
			mode: 'integrated',
			replies: service.replies,
		});
		expect(error.description).not.toMatch(/is safe/);
		expect(error.description).toMatch(
			/sub-workflow.*Retrying the parent execution runs this sub-workflow anew and sends its items again, unless an Idempotency Key is set/s,
		);
	});

	it('with an Idempotency Key on every item, the error says the done items are not sent again', async () => {
		const service = facilitaPay({
			decide: (transaction) =>
				transaction.value === '2.00' ? httpError(422, { errors: { value: ['bad'] } }) : 'ok',
		});
		const { error } = await runNodeExpectingError({
			parameters: [
				payout('1.00', { idempotencyKey: 'SUB-1' }),
				payout('2.00', { idempotencyKey: 'SUB-2' }),
			],
			executionId: newExecutionId(),
			mode: 'integrated',
			replies: service.replies,
		});
		expect(error.description).not.toMatch(/sends its items again/);
		expect(error.description).toMatch(
			/sub-workflow anew; items done under their Idempotency Key are not sent again/,
		);
	});
});
