import { resetMoney } from '../../../nodes/FacilitaPay/money';
import { ProcessedStore } from '../../helpers/fakeExecuteContext';
import { runNode, runNodeExpectingError } from '../helpers/executeContext';
import { skipRetryWaits } from '../helpers/retryWaits';
import { httpError } from '../helpers/serviceAnswers';
import { USD_CASHOUT } from '../../fixtures/transactions';
import { facilitaPay, newExecutionId, payout } from './fixtures';

const EMPTY_ACCOUNT = USD_CASHOUT;
const FUNDED_ACCOUNT = '0b5e7c2a-1f3d-4a8e-9c61-0000000000f1';

skipRetryWaits();

// Issue 24, "Paid twice": each case as a user plays it. The retried execution gets what n8n
// carries into it (the failed execution's custom data), nothing else: a new execution id, mode
// "retry", and, where the case says days passed or n8n restarted, an empty process memory and an
// empty deduplication store.

const refused = () => httpError(422, { errors: { value: ['insufficient balance'] } });

describe('Paid twice (issue 24): a retried execution never pays an item again', () => {
	it('a payout batch fails on item 3; From Bank Account edited; "Retry with currently saved workflow": items 1 and 2 are not paid again', async () => {
		const service = facilitaPay({
			decide: (transaction) =>
				transaction.from_bank_account_id === EMPTY_ACCOUNT && transaction.value === '3.00'
					? refused()
					: 'ok',
		});
		const customData = {};
		const before = ['1.00', '2.00', '3.00'].map((value) =>
			payout(value, { fromBankAccountId: EMPTY_ACCOUNT }),
		);
		const failed = await runNodeExpectingError({
			parameters: before,
			executionId: newExecutionId(),
			customData,
			replies: service.replies,
		});
		expect(failed.error.message).toMatch(/\(item 2\)/);

		const edited = ['1.00', '2.00', '3.00'].map((value) =>
			payout(value, { fromBankAccountId: FUNDED_ACCOUNT }),
		);
		const retried = await runNode({
			parameters: edited,
			executionId: newExecutionId(),
			mode: 'retry',
			customData,
			replies: service.replies,
		});
		expect(service.sent()).toEqual(['1.00', '2.00', '3.00', '3.00']);
		expect(retried.output.map((item) => [item.json.alreadyDone ?? false, item.json.id])).toEqual([
			[true, 'tx-1'],
			[true, 'tx-2'],
			[false, 'tx-3'],
		]);
	});

	it('the same Retry clicked 25 hours later (n8n restarted, its store emptied): nothing is paid again, the item of unknown outcome is found at FacilitaPay', async () => {
		const service = facilitaPay({
			decide: (transaction) => (transaction.value === '2.00' ? 'lostAnswer' : 'ok'),
		});
		const customData = {};
		const failed = await runNodeExpectingError({
			parameters: [payout('1.00'), payout('2.00')],
			executionId: newExecutionId(),
			customData,
			processedStore: new ProcessedStore(),
			replies: service.replies,
		});
		expect(failed.error.message).toMatch(/^Outcome unknown/);

		resetMoney();
		const retried = await runNode({
			parameters: [payout('1.00'), payout('2.00')],
			executionId: newExecutionId(),
			mode: 'retry',
			customData,
			processedStore: new ProcessedStore(),
			replies: service.replies,
		});
		expect(service.sent()).toEqual(['1.00', '2.00']);
		expect(retried.output.map((item) => [item.json.alreadyDone, item.json.id])).toEqual([
			[true, 'tx-1'],
			[true, 'tx-2'],
		]);
		expect(retried.output[1].json.alreadyDoneNote).toMatch(
			/FacilitaPay already holds this payment/,
		);
	});

	it('a run longer than an hour (its memory gone), then Retry On Fail: its first items are not sent again', async () => {
		const values = Array.from({ length: 40 }, (_unused, i) => `${i + 1}.00`);
		const service = facilitaPay({
			decide: (transaction, attempt) =>
				transaction.value === '40.00' && attempt === 40 ? refused() : 'ok',
		});
		const executionId = newExecutionId();
		const customData = {};
		await runNodeExpectingError({
			parameters: values.map((value) => payout(value)),
			executionId,
			runIndex: 0,
			customData,
			replies: service.replies,
		});
		resetMoney();
		const again = await runNode({
			parameters: values.map((value) => payout(value)),
			executionId,
			runIndex: 0,
			customData,
			replies: service.replies,
		});
		expect(service.sent()).toEqual([...values, '40.00']);
		expect(again.output.filter((item) => item.json.alreadyDone === true)).toHaveLength(39);
		// One list, read once for the 40 items, from the chain's first record there: that record by
		// its ID, the page after it and the empty page that ends it.
		expect(service.reads).toEqual([
			'/transactions/tx-1',
			expect.stringMatching(/^\/subject\/.+\/transactions$/),
			expect.stringMatching(/^\/subject\/.+\/transactions$/),
		]);
	});

	it("70,000 newer payouts pushed the older execution's keys out of n8n's store: its retry still pays nothing twice", async () => {
		const service = facilitaPay({
			decide: (transaction, attempt) =>
				transaction.value === '3.00' && attempt === 3 ? refused() : 'ok',
		});
		const customData = {};
		await runNodeExpectingError({
			parameters: ['1.00', '2.00', '3.00'].map((value) => payout(value)),
			executionId: newExecutionId(),
			customData,
			processedStore: new ProcessedStore(),
			replies: service.replies,
		});
		resetMoney();
		const retried = await runNode({
			parameters: ['1.00', '2.00', '3.00'].map((value) => payout(value)),
			executionId: newExecutionId(),
			mode: 'retry',
			customData,
			processedStore: new ProcessedStore(),
			replies: service.replies,
		});
		expect(service.sent()).toEqual(['1.00', '2.00', '3.00', '3.00']);
		expect(retried.output.map((item) => item.json.alreadyDone ?? false)).toEqual([
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
		const customData = {};
		const parameters = [payout('1.00'), payout('2.00')];
		await runNodeExpectingError({
			parameters,
			executionId: newExecutionId(),
			customData,
			replies: service.replies,
		});
		await runNodeExpectingError({
			parameters,
			executionId: newExecutionId(),
			mode: 'retry',
			customData,
			replies: service.replies,
		});
		resetMoney();
		const third = await runNode({
			parameters,
			executionId: newExecutionId(),
			mode: 'retry',
			customData,
			replies: service.replies,
		});
		expect(service.sent()).toEqual(['1.00', '2.00', '2.00', '2.00']);
		expect(third.output.map((item) => item.json.id)).toEqual(['tx-1', 'tx-2']);
	});
});
