import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiDownload, apiRequest, apiRequestAllItems, beginRun } from '../transport';
import { redactCardError } from '../security/cardData';
import { readRunSettings } from './common/requestOptions';
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

/** The error with the item it belongs to; an n8n error is kept as it is (same message and data). */
function forItem(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/** Sends one item's work and turns the answer into its output items. */
async function perform(ctx: IExecuteFunctions, work: ItemWork): Promise<INodeExecutionData[]> {
	try {
		let answer: unknown;
		if (work.send === 'allPages')
			answer = await apiRequestAllItems.call(ctx, work.request, work.page);
		else if (work.send === 'download') answer = await apiDownload.call(ctx, work.request);
		else answer = await apiRequest.call(ctx, work.request);
		return await work.output.call(ctx, answer);
	} catch (error) {
		throw work.cardSecrets ? redactCardError(ctx, error, work.cardSecrets) : error;
	}
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
	const worker = async () => {
		while (next < count && !stopped()) {
			const index = next++;
			await task(index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(size, count) }, worker));
}

/** "0, 2, 5–9": item indexes as short ranges. */
export function indexList(indexes: number[]): string {
	const parts: string[] = [];
	for (let k = 0; k < indexes.length; k++) {
		const start = indexes[k];
		while (k + 1 < indexes.length && indexes[k + 1] === indexes[k] + 1) k++;
		parts.push(start === indexes[k] ? String(start) : `${start}–${indexes[k]}`);
	}
	return parts.join(', ');
}

const LISTED = 20;

/** One error naming every invalid item, thrown before anything is sent. */
function invalidItemsError(
	ctx: IExecuteFunctions,
	invalid: Array<{ index: number; error: NodeApiError | NodeOperationError }>,
	itemCount: number,
): NodeOperationError | NodeApiError {
	const nothingSent =
		itemCount > 1
			? 'Nothing was sent to FacilitaPay for any item: every item is checked before the first request.'
			: 'Nothing was sent to FacilitaPay.';
	if (invalid.length === 1) {
		const { error } = invalid[0];
		if (itemCount > 1) error.description = `${error.description ?? ''} ${nothingSent}`.trim();
		return error;
	}
	const lines = invalid
		.slice(0, LISTED)
		.map(
			({ error }) =>
				`${error.message}${error.description ? ` (${error.description.replace(/ ?Nothing was sent to FacilitaPay for this item\./, '')})` : ''}`,
		);
	if (invalid.length > LISTED) lines.push(`…and ${invalid.length - LISTED} more.`);
	return new NodeOperationError(
		ctx.getNode(),
		`Invalid input in ${invalid.length} items (${indexList(invalid.map((entry) => entry.index))}): nothing was sent to FacilitaPay`,
		{
			itemIndex: invalid[0].index,
			description: `${lines.join('\n')}\n\nCorrect these items and run the node again. ${nothingSent}`,
		},
	);
}

function isUnknownOutcome(error: NodeApiError | NodeOperationError): boolean {
	return error.context.outcome === 'unknown';
}

/** What became of every item of a run that failed part way, appended to the error the user reads. */
function batchSummary(
	results: Array<INodeExecutionData[] | NodeApiError | NodeOperationError | undefined>,
	works: Array<ItemWork | undefined>,
): string {
	const done: number[] = [];
	const failed: number[] = [];
	const unknown: number[] = [];
	const notSent: number[] = [];
	for (let index = 0; index < results.length; index++) {
		const result = results[index];
		if (result === undefined) notSent.push(index);
		else if (Array.isArray(result)) done.push(index);
		else if (isUnknownOutcome(result)) unknown.push(index);
		else failed.push(index);
	}
	const movesMoney = works.some((work) => work?.request.retry === 'sendOnce');
	const lines: string[] = [];
	if (done.length > 0) {
		const ids = done
			.slice(0, LISTED)
			.map((index) => {
				const id = (results[index] as INodeExecutionData[])[0]?.json?.id;
				return id === undefined ? String(index) : `${index} (ID ${String(id)})`;
			})
			.join(', ');
		const more = done.length > LISTED ? `, and ${done.length - LISTED} more` : '';
		lines.push(
			`Done: ${done.length > LISTED || !movesMoney ? indexList(done) : ids}${movesMoney && done.length > LISTED ? ` (first IDs: ${ids}${more})` : ''}.`,
		);
	}
	if (unknown.length > 0) {
		lines.push(
			`Unknown outcome: ${indexList(unknown)}: the request may have been processed; check each with Transaction > Get (or Subscription > Get) or Notification > Get Many before sending it again.`,
		);
	}
	if (failed.length > 0) lines.push(`Failed: ${indexList(failed)}.`);
	if (notSent.length > 0)
		lines.push(`Not sent (the run stopped at the first failure): ${indexList(notSent)}.`);
	if (movesMoney && done.length > 0) {
		lines.push(
			'Running the workflow again sends every item again: remove the items that are done (or turn on Continue On Fail to get one output item per input item).',
		);
	}
	return lines.join('\n');
}

/** The error item of a failed item under Continue On Fail. */
function errorItem(error: NodeApiError | NodeOperationError, index: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) json.httpCode = httpCode;
	if (isUnknownOutcome(error)) json.outcome = 'unknown';
	return { json, pairedItem: { item: index } };
}

/**
 * The item engine. It reads and checks every input item first (nothing is sent while any item is
 * invalid, unless Continue On Fail turns invalid items into error items), then sends the items'
 * requests through a pool of Max Parallel Requests whose width adapts to the service's rate limit,
 * then assembles the output in input order, each item paired with the input item it came from.
 * Without Continue On Fail the first failure stops new items from starting, and the error says
 * which items were done, failed, have an unknown outcome, or were not sent.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const settings = readRunSettings(this);

	const operation = operationFor(this);
	const works: Array<ItemWork | undefined> = [];
	const results: Array<INodeExecutionData[] | NodeApiError | NodeOperationError | undefined> =
		new Array(items.length);
	const invalid: Array<{ index: number; error: NodeApiError | NodeOperationError }> = [];
	for (let i = 0; i < items.length; i++) {
		try {
			works[i] = await operation.prepare.call(this, i);
		} catch (error) {
			const failure = forItem(this, error, i);
			invalid.push({ index: i, error: failure });
			results[i] = failure;
		}
	}
	if (invalid.length > 0 && !continueOnFail) throw invalidItemsError(this, invalid, items.length);

	beginRun(this, settings);
	let firstFailure: number | undefined;
	await runPool(
		items.length,
		settings.concurrency,
		async (i) => {
			const work = works[i];
			if (!work) return;
			try {
				results[i] = await perform(this, work);
			} catch (error) {
				results[i] = forItem(this, error, i);
				if (firstFailure === undefined || i < firstFailure) firstFailure = i;
			}
		},
		() => firstFailure !== undefined && !continueOnFail,
	);

	if (firstFailure !== undefined && !continueOnFail) {
		const failure = results[firstFailure] as NodeApiError | NodeOperationError;
		if (items.length > 1) {
			failure.description =
				`${failure.description ?? ''}\n\n${batchSummary(results, works)}`.trim();
		}
		throw failure;
	}

	const output: INodeExecutionData[] = [];
	results.forEach((result, index) => {
		if (result === undefined) return;
		if (Array.isArray(result)) {
			for (const item of result) output.push({ ...item, pairedItem: { item: index } });
		} else {
			output.push(errorItem(result, index));
		}
	});
	return [output];
}
