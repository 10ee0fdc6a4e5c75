import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ErrorFacts, FacilitaPayError } from '../../transport';
import { factsOf, words } from '../../transport';

/*
 * What a person reads when items fail: one error naming every invalid item before anything is
 * sent, the summary of a run that failed part way (done, failed, unknown, not sent), and the error
 * item of a failed item under Continue On Fail. Composed from the items' facts, once, here.
 */

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

const NOTHING_SENT_ANY =
	'Nothing was sent to FacilitaPay for any item: every item is checked before the first request.';

/** One error naming every invalid item, thrown before anything is sent. */
export function invalidItemsError(
	ctx: IExecuteFunctions,
	invalid: Array<{ index: number; error: FacilitaPayError }>,
	itemCount: number,
): FacilitaPayError {
	if (invalid.length === 1) {
		const { error } = invalid[0];
		const facts = factsOf(error)!;
		if (itemCount > 1) {
			// One sentence for the run instead of the item's own "nothing was sent for this item".
			const { description } = words({ ...facts, outcome: 'failed' });
			error.description = `${description} ${NOTHING_SENT_ANY}`.trim();
		}
		return error;
	}
	const lines = invalid.slice(0, LISTED).map(({ error }) => {
		const facts = factsOf(error)!;
		const { message, description } = words({ ...facts, outcome: 'failed' });
		return `${message}${description ? ` (${description})` : ''}`;
	});
	if (invalid.length > LISTED) lines.push(`…and ${invalid.length - LISTED} more.`);
	return new NodeOperationError(
		ctx.getNode(),
		`Invalid input in ${invalid.length} items (${indexList(invalid.map((entry) => entry.index))}): nothing was sent to FacilitaPay`,
		{
			itemIndex: invalid[0].index,
			description: `${lines.join('\n')}\n\nCorrect these items and run the node again. ${NOTHING_SENT_ANY}`,
		},
	);
}

/** What became of every item of a run that failed part way, composed from the items' facts. */
export function batchSummary(
	results: Array<INodeExecutionData[] | FacilitaPayError | undefined>,
	movesMoney: boolean,
	/** The node ran in a sub-workflow (n8n's mode `integrated`): the parent's retry starts it anew. */
	subWorkflow = false,
	/** Every money item carried an Idempotency Key: what the parent's retry starts anew is settled. */
	keyed = false,
): string {
	const done: number[] = [];
	const failed: number[] = [];
	const unknown: number[] = [];
	const notSent: number[] = [];
	const ids = new Map<number, string>();
	for (let index = 0; index < results.length; index++) {
		const result = results[index];
		if (result === undefined) {
			notSent.push(index);
			continue;
		}
		if (Array.isArray(result)) {
			done.push(index);
			const id = result[0]?.json?.id;
			if (id !== undefined) ids.set(index, String(id));
			continue;
		}
		const facts = factsOf(result);
		if (facts?.outcome === 'unknown') unknown.push(index);
		else if (facts?.outcome === 'notSent') notSent.push(index);
		else if (facts?.outcome === 'done') {
			done.push(index);
			if (facts.recordId) ids.set(index, facts.recordId);
		} else failed.push(index);
	}
	const lines: string[] = [];
	if (done.length > 0) {
		const named = done
			.slice(0, LISTED)
			.map((index) => (ids.has(index) ? `${index} (ID ${ids.get(index)})` : String(index)))
			.join(', ');
		lines.push(
			movesMoney
				? `Done: ${done.length > LISTED ? `${indexList(done)} (first IDs: ${named}, and ${done.length - LISTED} more)` : named}.`
				: `Done: ${indexList(done)}.`,
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
	if (movesMoney && done.length > 0 && subWorkflow && keyed) {
		lines.push(
			'This node ran in a sub-workflow. Retrying the parent execution runs this sub-workflow anew; items done under their Idempotency Key are not sent again.',
		);
	} else if (movesMoney && done.length > 0 && subWorkflow) {
		lines.push(
			'This node ran in a sub-workflow. Retrying the parent execution runs this sub-workflow anew and sends its items again, unless an Idempotency Key is set: set one (such as the order ID) on this node before retrying the parent.',
		);
	} else if (movesMoney && done.length > 0) {
		lines.push(
			"Retrying this execution from n8n's executions list is safe: items already done are not sent again. Running the workflow anew sends every item again, unless an Idempotency Key is set.",
		);
	}
	return lines.join('\n');
}

/**
 * The error item of a failed item under Continue On Fail: `error` (the message), `description`,
 * `httpCode`, `outcome` and the record's `id` when known. With On Error "Continue (using error
 * output)" the fields besides `error` go under `details`: n8n moves an item to the error output
 * only when its JSON holds nothing but `error`, `message` and `details`.
 */
export function errorItem(
	error: FacilitaPayError,
	index: number,
	onError: INode['onError'],
): INodeExecutionData {
	const details: IDataObject = {};
	if (error.description) details.description = error.description;
	const httpCode = (error as { httpCode?: string | null }).httpCode;
	if (httpCode) details.httpCode = httpCode;
	const facts: ErrorFacts | undefined = factsOf(error);
	if (facts?.outcome) details.outcome = facts.outcome;
	if (facts?.recordId) details.id = facts.recordId;
	const json: IDataObject =
		onError === 'continueErrorOutput'
			? { error: error.message, ...(Object.keys(details).length > 0 ? { details } : {}) }
			: { error: error.message, ...details };
	return { json, pairedItem: { item: index } };
}
