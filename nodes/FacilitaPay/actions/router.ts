import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ApiRequest, FacilitaPayError, RunState } from '../transport';
import {
	apiDownload,
	apiRequest,
	apiRequestAllItems,
	beginRun,
	CREDENTIAL_TYPE,
	factsOf,
	stopRun,
} from '../transport';
import { errorFromFacts, setFacts } from '../transport/errors';
import type { MoneyItem } from '../money';
import {
	estimateBytes,
	MoneyRun,
	RecordLookups,
	recordIdOf,
	sentMemory,
	undeclared,
} from '../money';
import { maskCardData, redactCardError } from '../security/cardData';
import { batchSummary, errorItem, invalidItemsError } from './common/failures';
import { countText, totalsText } from './common/moneySummary';
import { readIdempotencyKey, readPreviewOnly, readRunSettings } from './common/requestOptions';
import type { ItemWork, OperationModule } from './node.type';
import { resources } from './resources';

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

/**
 * The error as this package's error with facts, for the item it belongs to. An error from elsewhere
 * (n8n reading a parameter, an expression) happened while checking (`check`: nothing was sent) or
 * while sending (`send`).
 */
function forItem(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	phase: 'check' | 'send',
): FacilitaPayError {
	const facts = factsOf(error);
	if (facts) {
		const own = error as FacilitaPayError;
		if (facts.itemIndex === undefined) setFacts(own, { ...facts, itemIndex });
		return own;
	}
	const { message, description } = (error ?? {}) as { message?: string; description?: string };
	const head = String(message ?? error);
	return errorFromFacts(
		ctx.getNode(),
		phase === 'check'
			? { itemIndex, outcome: 'notSent', invalidInput: true, head, fix: description ?? undefined }
			: { itemIndex, outcome: 'failed', head, fix: description ?? undefined },
	);
}

/** What a money-moving run did, for the hint above its output. */
interface Tally {
	sent: ApiRequest[];
	alreadyDone: number;
}

/** A request as the preview shows it: card data masked, long texts (a file's Base64) summarised. */
function previewOf(work: ItemWork, idempotencyKey?: string): IDataObject {
	const shorten = (value: unknown): unknown => {
		if (typeof value === 'string')
			return value.length > 500 ? `[${value.length} characters, not shown]` : value;
		if (Array.isArray(value)) return value.map(shorten);
		if (value && typeof value === 'object')
			return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shorten(inner)]));
		return value;
	};
	const preview: IDataObject = {
		preview: true,
		method: work.request.method,
		path: work.request.path,
	};
	if (work.request.body !== undefined)
		preview.body = shorten(maskCardData(work.request.body, work.cardSecrets ?? {})) as IDataObject;
	if (idempotencyKey !== undefined) preview.idempotencyKey = idempotencyKey;
	return preview;
}

/** Adds a hint above the output pane. */
function hint(ctx: IExecuteFunctions, message: string, type: 'info' | 'warning' = 'info'): void {
	ctx.addExecutionHints({ message, type, location: 'outputPane' });
}

/** Work bigger than this (documents in Base64) is checked first, then prepared again when sent. */
const KEEP_PREPARED_BYTES = 256 * 1024;

/** One item's state between checking and sending. */
interface Slot {
	work?: ItemWork;
	/** The work was too big to keep: prepare again right before sending. */
	again?: boolean;
	money?: MoneyItem;
}

/** Sends one item's work and turns the answer into its output items. */
async function perform(
	ctx: IExecuteFunctions,
	run: RunState,
	work: ItemWork,
	money: MoneyRun | undefined,
	item: MoneyItem | undefined,
	tally: Tally,
): Promise<INodeExecutionData[]> {
	const index = work.request.itemIndex ?? item?.itemIndex ?? 0;
	/** The item's error, its card data hidden, in this package's shape. */
	const failure = (error: unknown) =>
		forItem(
			ctx,
			work.cardSecrets ? redactCardError(ctx, error, work.cardSecrets) : error,
			index,
			'send',
		);
	let answer: unknown;
	let replayed = false;
	try {
		// Rules that depend on the moment of sending (a PIX expiry at least a minute ahead).
		work.beforeSend?.call(ctx);
	} catch (error) {
		throw failure(error);
	}
	// The request as it leaves: the payment's identity in its meta.
	const request = money && item ? money.withIdentity(item) : work.request;
	if (money && item) {
		try {
			const decision = await money.before(item);
			if (decision.kind === 'alreadyDone' || decision.kind === 'notSent') {
				tally.alreadyDone++;
				// FacilitaPay's record of a card payment is an answer like any other: card data masked.
				const json = work.cardSecrets
					? maskCardData(decision.json, work.cardSecrets)
					: decision.json;
				return [{ json }];
			}
			if (decision.kind === 'replay') {
				answer = decision.answer;
				replayed = true;
			}
		} catch (error) {
			throw failure(error);
		}
	}
	if (!replayed) {
		try {
			if (work.send === 'allPages')
				answer = await apiRequestAllItems.call(ctx, request, work.page, undefined, run);
			else if (work.send === 'download')
				answer = await apiDownload.call(ctx, request, undefined, run);
			else answer = await apiRequest.call(ctx, request, undefined, run);
		} catch (error) {
			if (money && item) money.failed(item, error);
			throw failure(error);
		}
		if (money && item) {
			money.sent(item, answer);
			tally.sent.push(item.request);
			try {
				await money.confirm(item, answer);
			} catch (error) {
				throw failure(error);
			}
		}
	}
	try {
		return await work.output.call(ctx, answer);
	} catch (error) {
		const own = failure(error);
		if (work.request.retry !== 'sendOnce') throw own;
		// Processed at FacilitaPay: the item is done whatever went wrong after.
		const facts = factsOf(own)!;
		setFacts(own, {
			...facts,
			outcome: 'done',
			head: `its output could not be built: ${facts.head}`,
			recordId: recordIdOf(answer),
			movesMoney: true,
			invalidInput: false,
		});
		throw own;
	}
}

/**
 * A pause of the run's own loops: every 50 ms of work it lets the event loop run (n8n's other
 * executions, timers, answers), so that 50,000 items never block the process for long.
 */
function breather(): () => Promise<void> {
	let last = Date.now();
	let breath: Promise<void> | undefined;
	return async () => {
		if (breath) return await breath;
		if (Date.now() - last < 50) return;
		// One pause for every worker of the pool: they all wait for the same turn of the loop.
		breath = sleep(0).then(() => {
			last = Date.now();
			breath = undefined;
		});
		await breath;
	};
}

/**
 * Runs `task` for indexes 0..count-1 with at most `size` running at once, starting them in order.
 * Stops starting new ones once `stopped()` says so; those already running finish.
 */
async function runPool(
	count: number,
	size: number,
	task: (index: number) => Promise<void>,
	stopped: () => boolean,
): Promise<void> {
	let next = 0;
	const breathe = breather();
	const worker = async () => {
		while (next < count && !stopped()) {
			const index = next++;
			await task(index);
			await breathe();
		}
	};
	await Promise.all(Array.from({ length: Math.min(size, count) }, worker));
}

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
	const breathe = breather();
	for (let i = 0; i < items.length; i++) {
		await breathe();
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
				slot.again = true;
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

	if (movesMoney && readPreviewOnly(this)) {
		const previews: INodeExecutionData[] = [];
		const requests: ApiRequest[] = [];
		const moneyItems = slots.filter((slot) => slot?.money).map((slot) => slot.money!);
		// The identity each payment would carry in its meta, as it would be sent in this execution.
		const identities = MoneyRun.preview(this, moneyItems, runIndexOf(this));
		for (let i = 0; i < items.length; i++) {
			const slot = slots[i];
			if (!slot) {
				previews.push(errorItem(results[i] as FacilitaPayError, i, this.getNode().onError));
				continue;
			}
			const prepared = slot.work ?? (await operation.prepare.call(this, i));
			const work = slot.money
				? {
						...prepared,
						request: identities.withIdentity({ ...slot.money, request: prepared.request }),
					}
				: prepared;
			requests.push(work.request);
			previews.push({ json: previewOf(work, slot.money?.idempotencyKey), pairedItem: { item: i } });
		}
		const total = totalsText(requests);
		hint(
			this,
			`Preview: ${countText(requests.length)} checked${total ? `, ${total} in all` : ''}. Nothing was sent to FacilitaPay: turn Preview Only off to send them.`,
		);
		return [previews];
	}

	const run = beginRun(settings);
	const runIndex = runIndexOf(this);
	const tally: Tally = { sent: [], alreadyDone: 0 };
	const moneyItems = slots.filter((slot) => slot?.money).map((slot) => slot.money!);
	const lookups = new RecordLookups(
		async (read) => await apiRequest.call(this, read, undefined, run),
		{ lists: sentMemory.lists, scope: this.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? '' },
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
					results[i] = await perform(this, run, work, money, item, tally);
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
		if (items.length > 1)
			setFacts(failure, factsOf(failure)!, batchSummary(results, movesMoney, subWorkflow));
		throw failure;
	}

	if (movesMoney) {
		const total = totalsText(tally.sent);
		const skipped =
			tally.alreadyDone > 0
				? ` ${countText(tally.alreadyDone, 'item')} not sent: already done (see alreadyDoneNote).`
				: '';
		hint(
			this,
			`Sent ${countText(tally.sent.length)}${total ? `, ${total} in all` : ''}.${skipped}`,
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
