import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { FacilitaPayError } from '../../transport';
import type { MoneyItem } from '../../money';
import { estimateBytes, undeclared } from '../../money';
import { readIdempotencyKey, readPreviewOnly } from '../common/requestOptions';
import type { OperationModule } from '../node.type';
import type { CheckedSoFar } from './checked';
import { forItem } from './perform';
import { loopYielder } from './pool';
import { readingMappedFields } from './mapped';
import type { Slot } from './slot';

/**
 * Checking the items (nothing is sent here): each item's parameters read and its request built and
 * checked into its slot, or why it is invalid.
 */

/** Work bigger than this (documents in Base64) is checked first, then prepared again when sent. */
const KEEP_PREPARED_BYTES = 256 * 1024;

/** The run's items between checking and sending. */
export interface Batch {
	/** Each valid item's state; undefined for an invalid one (and before it is checked). */
	slots: Slot[];
	/** Each item's output items or error, by input index. */
	results: Array<INodeExecutionData[] | FacilitaPayError | undefined>;
	invalid: Array<{ index: number; error: FacilitaPayError }>;
	/** The items that move money (their request is `sendOnce`), in input order. */
	moneyItems: MoneyItem[];
	/** What operations read item parameters through (mapped.ts). */
	reader: IExecuteFunctions;
}

/** An empty batch of the run's input items. */
export function newBatch(ctx: IExecuteFunctions): Batch {
	const count = ctx.getInputData().length;
	return {
		slots: new Array(count),
		results: new Array(count),
		invalid: [],
		moneyItems: [],
		reader: readingMappedFields(ctx),
	};
}

/** Reads and checks item `i` into its slot, or records why it is invalid. Sends nothing. */
async function checkItem(
	ctx: IExecuteFunctions,
	operation: OperationModule,
	batch: Batch,
	i: number,
): Promise<void> {
	try {
		const work = await operation.prepare.call(batch.reader, i);
		const slot: Slot = { work };
		if (work.request.retry === 'sendOnce') {
			slot.money = {
				itemIndex: i,
				request: work.request,
				idempotencyKey: readIdempotencyKey(ctx, i),
				place: operation.money?.record(work.request) ?? undeclared(work.request),
			};
		}
		// A big request (a document) is not held for every item at once: checked now, built
		// again when it is its turn.
		if (estimateBytes(work.request.body, KEEP_PREPARED_BYTES) > KEEP_PREPARED_BYTES) {
			slot.work = undefined;
			if (slot.money) slot.money = { ...slot.money, request: { ...work.request, body: undefined } };
		}
		if (slot.money) batch.moneyItems.push(slot.money);
		batch.slots[i] = slot;
	} catch (error) {
		const failure = forItem(ctx, error, i, 'check');
		batch.invalid.push({ index: i, error: failure });
		batch.results[i] = failure;
	}
}

/**
 * Checks every item in input order, telling `checked` of each. Every `yieldEveryMs` of checking
 * it lets the event loop run: n8n's other work, and the pool when it sends while checking.
 */
export async function checkItems(
	ctx: IExecuteFunctions,
	operation: OperationModule,
	batch: Batch,
	checked: CheckedSoFar,
	yieldEveryMs?: number,
): Promise<void> {
	const yieldToLoop = loopYielder(yieldEveryMs);
	try {
		for (let i = 0; i < batch.slots.length; i++) {
			await yieldToLoop();
			await checkItem(ctx, operation, batch, i);
			checked.passed(i);
		}
	} finally {
		checked.finish();
	}
}

/** How often checking lets the pool send the items checked so far, when it sends while checking. */
export const SEND_WHILE_CHECKING_YIELD_MS = 10;

/**
 * Whether items may be sent while later ones are still being checked, instead of after every
 * item was. Only when no rule needs the whole batch checked first: Continue On Fail is on (so an
 * invalid item becomes its error item rather than stopping the run before anything is sent), the
 * operation moves no money (the money rule and Preview Only look at every item at once), and
 * Preview Only is off. Each item is still checked before it is sent, and an item whose request
 * turns out to be `sendOnce` waits until every item is checked.
 */
export function sendsWhileChecking(
	ctx: IExecuteFunctions,
	operation: OperationModule,
	continueOnFail: boolean,
): boolean {
	if (!continueOnFail || operation.money) return false;
	try {
		return !readPreviewOnly(ctx);
	} catch {
		return false;
	}
}
