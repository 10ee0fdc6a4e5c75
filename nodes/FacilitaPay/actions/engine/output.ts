import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { FacilitaPayError } from '../../transport';
import { factsOf, setFacts } from '../../transport';
import { batchSummary, errorItem } from '../common/failures';
import { countText, totalsText } from '../common/moneySummary';
import type { Batch } from './check';
import type { Sent } from './send';
import { hint } from './slot';

/**
 * The node's output once the batch was sent: in input order, each item paired with the input item
 * it came from (an invalid or failed one as its error item, with Continue On Fail); without it, the
 * first failure is thrown, saying (for a batch) which items were done, failed, have an unknown
 * outcome, or were not sent. A batch that moved money gets a hint with what was sent.
 */
export function outputOf(
	ctx: IExecuteFunctions,
	batch: Batch,
	{ firstFailure, sentCounts }: Sent,
	continueOnFail: boolean,
): INodeExecutionData[] {
	const { moneyItems, results } = batch;
	const movesMoney = moneyItems.length > 0;
	if (firstFailure !== undefined && !continueOnFail) {
		const failure = results[firstFailure] as FacilitaPayError;
		const subWorkflow = ctx.getMode() === 'integrated';
		const keyed = movesMoney && moneyItems.every((item) => item.idempotencyKey !== undefined);
		if (results.length > 1)
			setFacts(failure, factsOf(failure)!, batchSummary(results, movesMoney, subWorkflow, keyed));
		throw failure;
	}

	if (movesMoney) {
		const total = totalsText(sentCounts.sent);
		const skipped =
			sentCounts.alreadyDone > 0
				? ` ${countText(sentCounts.alreadyDone, 'item')} not sent: already done (see alreadyDoneNote).`
				: '';
		hint(
			ctx,
			`Sent ${countText(sentCounts.sent.length)}${total ? `, ${total} in all` : ''}.${skipped}`,
		);
	}

	const output: INodeExecutionData[] = [];
	const { onError } = ctx.getNode();
	results.forEach((result, index) => {
		if (result === undefined) return;
		if (Array.isArray(result)) {
			for (const item of result) output.push({ ...item, pairedItem: { item: index } });
		} else {
			output.push(errorItem(result, index, onError));
		}
	});
	return output;
}
