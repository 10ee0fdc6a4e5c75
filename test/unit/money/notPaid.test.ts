import type { IDataObject } from 'n8n-workflow';

import { resetMoney } from '../../../nodes/FacilitaPay/money';
import { ProcessedStore } from '../../helpers/fakeExecuteContext';
import { runNode, runNodeExpectingError } from '../helpers/executeContext';
import { skipRetryWaits } from '../helpers/retryWaits';
import { connectionError, httpError } from '../helpers/serviceAnswers';
import { SUBJECT_ID } from '../../fixtures/subjects';
import { facilitaPay, newExecutionId, payout } from './fixtures';

skipRetryWaits();

// Issue 24, "Not paid, reported already done or unknown": each case as a user plays it.

const refused = () => httpError(422, { errors: { value: ['insufficient balance'] } });

describe('Not paid (issue 24): a payment FacilitaPay does not hold under its identity is paid', () => {
	it('daily settlement: Monday paid; Tuesday refused, balance topped up, Tuesday retried: Tuesday is paid', async () => {
		const service = facilitaPay({
			decide: (_transaction, attempt) => (attempt === 2 ? refused() : 'ok'),
		});
		// One workflow: its executions share n8n's deduplication store.
		const store = new ProcessedStore();
		await runNode({
			parameters: [payout('1000.00')],
			executionId: newExecutionId(),
			processedStore: store,
			replies: service.replies,
		});
		const tuesday = {};
		await runNodeExpectingError({
			parameters: [payout('1000.00')],
			executionId: newExecutionId(),
			customData: tuesday,
			processedStore: store,
			replies: service.replies,
		});
		resetMoney();
		const retried = await runNode({
			parameters: [payout('1000.00')],
			executionId: newExecutionId(),
			mode: 'retry',
			customData: tuesday,
			processedStore: store,
			replies: service.replies,
		});
		expect(service.sent()).toEqual(['1000.00', '1000.00', '1000.00']);
		expect(retried.output[0].json).toMatchObject({ id: 'tx-2' });
		expect(retried.output[0].json.alreadyDone).toBeUndefined();
	});

	it('two orders of 100.00 to one customer, one paid, one timed out unprocessed, other 100.00 payouts on record: the retry pays the second', async () => {
		const service = facilitaPay({
			decide: (_transaction, attempt) => (attempt === 2 ? connectionError('ETIMEDOUT') : 'ok'),
		});
		// An older payout and one made at 15:00 by another system: same value, same accounts, no identity.
		const other = (id: string): IDataObject => ({
			...(payout('100.00') as IDataObject),
			id,
			subject_id: SUBJECT_ID,
			value: '100.00',
			meta: {},
		});
		service.records.push(other('older'));
		resetMoney();
		const customData = {};
		const parameters = [payout('100.00'), payout('100.00')];
		const failed = await runNodeExpectingError({
			parameters,
			executionId: newExecutionId(),
			customData,
			replies: service.replies,
		});
		expect(failed.error.message).toMatch(/^Outcome unknown \(item 1\)/);
		service.records.push(other('at-15:00'));
		const retried = await runNode({
			parameters,
			executionId: newExecutionId(),
			mode: 'retry',
			customData,
			replies: service.replies,
		});
		expect(service.sent()).toEqual(['100.00', '100.00', '100.00']);
		expect(retried.output.map((item) => [item.json.alreadyDone ?? false, item.json.id])).toEqual([
			[true, 'tx-2'],
			[false, 'tx-4'],
		]);
	});

	it('Idempotency Keys order-1 and order-2 with one amount (an AI tool, one workflow): both are paid', async () => {
		const service = facilitaPay();
		const store = new ProcessedStore();
		for (const [call, key] of ['order-1', 'order-2'].entries())
			await runNode({
				parameters: [payout('50.00', { idempotencyKey: `${key}-${newExecutionId()}` })],
				executionId: newExecutionId(),
				runIndex: call,
				nodeType: 'n8n-nodes-facilitapay.facilitaPayTool',
				processedStore: store,
				replies: service.replies,
			});
		expect(service.sent()).toEqual(['50.00', '50.00']);
	});

	it('a key found done yesterday is "already done" every later day, with its record, never "Outcome unknown"', async () => {
		const service = facilitaPay();
		const key = `order-7-${newExecutionId()}`;
		await runNode({
			parameters: [payout('70.00', { idempotencyKey: key })],
			executionId: newExecutionId(),
			processedStore: new ProcessedStore(),
			replies: service.replies,
		});
		for (let day = 1; day <= 3; day++) {
			resetMoney();
			const later = await runNode({
				parameters: [payout('70.00', { idempotencyKey: key })],
				executionId: newExecutionId(),
				processedStore: new ProcessedStore(),
				replies: service.replies,
			});
			expect(later.output[0].json).toMatchObject({ alreadyDone: true, id: 'tx-1' });
		}
		expect(service.sent()).toEqual(['70.00']);
	});

	it('two items with one key: the second is "not sent", the run does not fail', async () => {
		const service = facilitaPay();
		const key = `order-9-${newExecutionId()}`;
		const { output } = await runNode({
			parameters: [
				payout('9.00', { idempotencyKey: key }),
				payout('9.00', { idempotencyKey: key }),
			],
			executionId: newExecutionId(),
			replies: service.replies,
		});
		expect(service.sent()).toEqual(['9.00']);
		expect(output[0].json).toMatchObject({ id: 'tx-1' });
		expect(output[1].json).toMatchObject({ notSent: true, idempotencyKey: key });
		expect(output[1].json.notSentNote).toMatch(
			/item 0 of this run carries the same Idempotency Key/,
		);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('a new execution with content identical to an earlier one is another payment (monthly payouts)', async () => {
		const service = facilitaPay();
		const store = new ProcessedStore();
		for (let month = 0; month < 3; month++)
			await runNode({
				parameters: [payout('300.00')],
				executionId: newExecutionId(),
				processedStore: store,
				replies: service.replies,
			});
		expect(service.sent()).toEqual(['300.00', '300.00', '300.00']);
	});
});
