import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FacilitaPayError, RunState } from '../transport';
import { apiRequest, beginRun, CREDENTIAL_TYPE, factsOf, setFacts, stopRun } from '../transport';
import type { MoneyItem } from '../money';
import { estimateBytes, lookupsFor, MoneyRun, undeclared } from '../money';
import { batchSummary, errorItem, invalidItemsError } from './common/failures';
import { countText, totalsText } from './common/moneySummary';
import { readIdempotencyKey, readPreviewOnly, readRunSettings } from './common/requestOptions';
import type { OperationModule } from './node.type';
import { resources } from './resources';

import { forItem, perform } from './engine/perform';
import type { SentCounts } from './engine/perform';
import { CheckedSoFar } from './engine/checked';
import { runPool, loopYielder } from './engine/pool';
import { preview } from './engine/preview';
import { hint } from './engine/slot';
import type { Slot } from './engine/slot';
/**
 * The operation the node runs. Resource and Operation cannot be expressions (`noDataExpression`),
 * so they are the same for every item and are read once.
 */
function operationFor(ctx: IExecuteFunctions): OperationModule {
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const module = resources[resource]?.[operation] as OperationModule | undefined;
	if (!module || typeof module.prepare !== 'function') {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of the resource "${resource}" is not supported`,
		);
	}
	return module;
}

/** Work bigger than this (documents in Base64) is checked first, then prepared again when sent. */
const KEEP_PREPARED_BYTES = 256 * 1024;

/** n8n's $runIndex of this run of the node, when it tells it. */
function runIndexOf(ctx: IExecuteFunctions): number | undefined {
	try {
		const runIndex = ctx.getWorkflowDataProxy?.(0)?.$runIndex;
		return typeof runIndex === 'number' ? runIndex : undefined;
	} catch {
		return undefined;
	}
}

/** The run's items between checking and sending. */
interface Batch {
	/** Each valid item's state; undefined for an invalid one (and before it is checked). */
	slots: Slot[];
	/** Each item's output items or error, by input index. */
	results: Array<INodeExecutionData[] | FacilitaPayError | undefined>;
	invalid: Array<{ index: number; error: FacilitaPayError }>;
	/** The items that move money (their request is `sendOnce`), in input order. */
	moneyItems: MoneyItem[];
}

/** Reads and checks item `i` into its slot, or records why it is invalid. Sends nothing. */
async function checkItem(
	ctx: IExecuteFunctions,
	operation: OperationModule,
	batch: Batch,
	i: number,
): Promise<void> {
	try {
		const work = await operation.prepare.call(ctx, i);
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
async function checkItems(
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
const SEND_WHILE_CHECKING_YIELD_MS = 10;

/**
 * Whether items may be sent while later ones are still being checked, instead of after every
 * item was. Only when no rule needs the whole batch checked first: Continue On Fail is on (so an
 * invalid item becomes its error item rather than stopping the run before anything is sent), the
 * operation moves no money (the money rule and Preview Only look at every item at once), and
 * Preview Only is off. Each item is still checked before it is sent, and an item whose request
 * turns out to be `sendOnce` waits until every item is checked.
 */
function sendsWhileChecking(
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

/** The money rule's run over the batch's money-moving items, or undefined when there are none. */
function beginMoney(
	ctx: IExecuteFunctions,
	batch: Batch,
	run: RunState,
	runIndex: number | undefined,
): MoneyRun | undefined {
	const { moneyItems } = batch;
	if (moneyItems.length === 0) return undefined;
	const lookups = lookupsFor(
		async (read) => await apiRequest.call(ctx, read, undefined, run),
		ctx.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? '',
	);
	return MoneyRun.begin(ctx, moneyItems, {
		runIndex,
		findSent: async (place, ref, windows) => await lookups.find(place, ref, windows),
		recount: async (place, ref) => await lookups.recount(place, ref),
	});
}

/**
 * The item engine. It reads and checks every input item (nothing is sent while any item is
 * invalid, unless Continue On Fail turns invalid items into error items), then sends the items'
 * requests through a pool of Max Parallel Requests whose width adapts to the service's rate limit,
 * then assembles the output in input order, each item paired with the input item it came from.
 * When no rule needs the whole batch checked first (sendsWhileChecking), the pool sends each item
 * as soon as it is checked, while later ones are still being checked. Money-moving requests go
 * through the money rule (money/). Without Continue On Fail the first failure stops the run: no
 * new item starts and requests still waiting are not sent; the error says which items were done,
 * failed, have an unknown outcome, or were not sent.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const settings = readRunSettings(this);
	const operation = operationFor(this);

	const batch: Batch = {
		slots: new Array(items.length),
		results: new Array(items.length),
		invalid: [],
		moneyItems: [],
	};
	const checked = new CheckedSoFar();
	const streaming = sendsWhileChecking(this, operation, continueOnFail);
	if (!streaming) {
		await checkItems(this, operation, batch, checked);
		if (batch.invalid.length > 0 && !continueOnFail)
			throw invalidItemsError(this, batch.invalid, items.length);
		if (batch.moneyItems.length > 0 && readPreviewOnly(this))
			return await preview(this, operation, batch.slots, batch.results, runIndexOf(this));
	}

	const run = beginRun(settings);
	const runIndex = runIndexOf(this);
	const sentCounts: SentCounts = { sent: [], alreadyDone: 0 };
	const { slots, results } = batch;
	// The money run starts once every item is checked (it needs them all): at once, or when
	// sending while checking, after the checking below; money-moving items wait for it.
	let moneyStarted: (money: MoneyRun | undefined) => void = () => {};
	let moneyRefused: (error: unknown) => void = () => {};
	const moneyReady = new Promise<MoneyRun | undefined>((resolve, reject) => {
		moneyStarted = resolve;
		moneyRefused = reject;
	});
	moneyReady.catch(() => {});
	if (!streaming) moneyStarted(beginMoney(this, batch, run, runIndex));

	let firstFailure: number | undefined;
	const sending = runPool(
		items.length,
		settings.concurrency,
		async (i) => {
			await checked.reached(i);
			const slot = slots[i];
			if (!slot) return;
			slots[i] = {};
			try {
				const money = slot.money && (await moneyReady);
				const work = slot.work ?? (await operation.prepare.call(this, i));
				const item = slot.money && { ...slot.money, request: work.request };
				results[i] = await perform(this, run, work, money, item, sentCounts);
			} catch (error) {
				results[i] = forItem(this, error, i, 'send');
				if (!continueOnFail && (firstFailure === undefined || i < firstFailure)) {
					firstFailure = i;
					stopRun(run);
				}
			}
		},
		() => firstFailure !== undefined && !continueOnFail,
	);
	let moneyError: unknown;
	if (streaming) {
		await checkItems(this, operation, batch, checked, SEND_WHILE_CHECKING_YIELD_MS);
		try {
			moneyStarted(beginMoney(this, batch, run, runIndex));
		} catch (error) {
			moneyError = error;
			moneyRefused(error);
		}
	}
	try {
		await sending;
	} finally {
		await (await moneyReady.catch(() => undefined))?.finish();
	}
	if (moneyError !== undefined) throw moneyError;
	const { moneyItems } = batch;
	const movesMoney = moneyItems.length > 0;

	if (firstFailure !== undefined && !continueOnFail) {
		const failure = results[firstFailure] as FacilitaPayError;
		const subWorkflow = this.getMode() === 'integrated';
		const keyed =
			moneyItems.length > 0 && moneyItems.every((item) => item.idempotencyKey !== undefined);
		if (items.length > 1)
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
			this,
			`Sent ${countText(sentCounts.sent.length)}${total ? `, ${total} in all` : ''}.${skipped}`,
		);
	}

	const output: INodeExecutionData[] = [];
	const { onError } = this.getNode();
	results.forEach((result, index) => {
		if (result === undefined) return;
		if (Array.isArray(result)) {
			for (const item of result) output.push({ ...item, pairedItem: { item: index } });
		} else {
			output.push(errorItem(result, index, onError));
		}
	});
	return [output];
}
