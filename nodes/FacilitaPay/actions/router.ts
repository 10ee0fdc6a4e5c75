import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FacilitaPayError } from '../transport';
import { apiRequest, beginRun, CREDENTIAL_TYPE, factsOf, setFacts, stopRun } from '../transport';
import { estimateBytes, lookupsFor, MoneyRun, undeclared } from '../money';
import { batchSummary, errorItem, invalidItemsError } from './common/failures';
import { countText, totalsText } from './common/moneySummary';
import { readIdempotencyKey, readPreviewOnly, readRunSettings } from './common/requestOptions';
import type { OperationModule } from './node.type';
import { resources } from './resources';

import { forItem, perform } from './engine/perform';
import type { SentCounts } from './engine/perform';
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

/**
 * The item engine. It reads and checks every input item first (nothing is sent while any item is
 * invalid, unless Continue On Fail turns invalid items into error items), then sends the items'
 * requests through a pool of Max Parallel Requests whose width adapts to the service's rate limit,
 * then assembles the output in input order, each item paired with the input item it came from.
 * Money-moving requests go through the money rule (money/). Without Continue On Fail
 * the first failure stops the run: no new item starts and requests still waiting are not sent; the
 * error says which items were done, failed, have an unknown outcome, or were not sent.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const settings = readRunSettings(this);
	const operation = operationFor(this);

	const slots: Slot[] = new Array(items.length);
	const results: Array<INodeExecutionData[] | FacilitaPayError | undefined> = new Array(
		items.length,
	);
	const invalid: Array<{ index: number; error: FacilitaPayError }> = [];
	let movesMoney = false;
	const yieldToLoop = loopYielder();
	for (let i = 0; i < items.length; i++) {
		await yieldToLoop();
		try {
			const work = await operation.prepare.call(this, i);
			const slot: Slot = { work };
			if (work.request.retry === 'sendOnce') {
				movesMoney = true;
				slot.money = {
					itemIndex: i,
					request: work.request,
					idempotencyKey: readIdempotencyKey(this, i),
					place: operation.money?.record(work.request) ?? undeclared(work.request),
				};
			}
			// A big request (a document) is not held for every item at once: checked now, built
			// again when it is its turn.
			if (estimateBytes(work.request.body, KEEP_PREPARED_BYTES) > KEEP_PREPARED_BYTES) {
				slot.work = undefined;
				if (slot.money)
					slot.money = { ...slot.money, request: { ...work.request, body: undefined } };
			}
			slots[i] = slot;
		} catch (error) {
			const failure = forItem(this, error, i, 'check');
			invalid.push({ index: i, error: failure });
			results[i] = failure;
		}
	}
	if (invalid.length > 0 && !continueOnFail) throw invalidItemsError(this, invalid, items.length);

	if (movesMoney && readPreviewOnly(this))
		return await preview(this, operation, slots, results, runIndexOf(this));

	const run = beginRun(settings);
	const runIndex = runIndexOf(this);
	const sentCounts: SentCounts = { sent: [], alreadyDone: 0 };
	const moneyItems = slots.filter((slot) => slot?.money).map((slot) => slot.money!);
	const lookups = lookupsFor(
		async (read) => await apiRequest.call(this, read, undefined, run),
		this.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? '',
	);
	const money =
		moneyItems.length > 0
			? MoneyRun.begin(this, moneyItems, {
					runIndex,
					findSent: async (place, ref, windows) => await lookups.find(place, ref, windows),
					recount: async (place, ref) => await lookups.recount(place, ref),
				})
			: undefined;

	let firstFailure: number | undefined;
	try {
		await runPool(
			items.length,
			settings.concurrency,
			async (i) => {
				const slot = slots[i];
				if (!slot) return;
				slots[i] = {};
				try {
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
	} finally {
		await money?.finish();
	}

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
