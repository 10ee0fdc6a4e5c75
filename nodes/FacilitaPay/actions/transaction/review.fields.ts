import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { createHash } from 'crypto';

import { customDataOf } from '../../money/chain';

import { apiRequest } from '../../transport';
import type { Read } from '../../money/reads';
import { readIdempotencyKey } from '../common/requestOptions';
import type { ItemWork } from '../node.type';
import type { ReviewKind, ReviewRequest } from './review.words';
import { describeRequest, sameReview } from './review.words';

/**
 * Fields of the operations a review text describes (Create Payout, Create Dynamic PIX,
 * Refund, Cancel): the text a person approved (in n8n's human review of an AI agent's tool calls, or a
 * send-and-wait step of a workflow), which the node checks against the request and FacilitaPay's
 * records right before sending, and whether an item without one is refused. As a tool, the model
 * gives the text (`$fromAI('review')`, optional).
 */
const OPERATION_WORDS: Record<ReviewKind, string> = {
	createPayout: 'payout',
	createDynamicPix: 'PIX charge',
	refund: 'refund',
	cancel: 'cancel',
};

const REVIEW_ARGUMENT =
	"={{ $fromAI('review', 'The review text that the Describe for Review tool gave for exactly this request, copied unchanged. A person reads it before approving.', 'string', '') }}";

export function reviewFields(kind: ReviewKind): INodeProperties[] {
	const text: INodeProperties = {
		displayName: 'Reviewed Text',
		name: 'reviewedText',
		type: 'string',
		default: '',
		placeholder: "e.g. {{ $('Describe for Review').item.json.review }}",
		description: `The words a person approved for this ${OPERATION_WORDS[kind]} (Transaction > Describe for Review). Written again from FacilitaPay's records before sending; if they differ, nothing is sent. Empty: not checked.`,
	};
	return [
		{ ...text, displayOptions: { show: { '@tool': [false] } } },
		{
			...text,
			default: REVIEW_ARGUMENT,
			hint: "Show it to the reviewer in the human review node's message: {{ $tool.parameters.review }}",
			displayOptions: { show: { '@tool': [true] } },
		},
		{
			displayName: 'Require Reviewed Text',
			name: 'requireReviewedText',
			type: 'boolean',
			default: false,
			description: `Whether an item without the reviewed text is refused (nothing sent), so that nobody approves this ${OPERATION_WORDS[kind]} from IDs alone`,
		},
	];
}

/** The execution's custom data key of the words a tool call of this execution was approved for. */
export const REVIEWED_MARK = 'facilitapay_reviewed';

/**
 * As an AI agent's tool, one execution sends the money of one approved text (asked again, the same
 * text passes: the Idempotency Key keeps it once). n8n 2.41.1 gives every review of one review
 * node in one execution the same Approve link (the execution, the node, `approved=true`, one
 * signature), so the link of an earlier review, opened again, approves whatever the agent asks
 * next: a second, different request of the execution is refused, and the person asks again in a
 * new message (a new execution, new links). The mark is a hash of the request (operation, body,
 * transaction, Idempotency Key: not its words, which the payment itself may change), in the execution's
 * custom data (kept with the execution while it waits). Without custom data (not offered by this
 * n8n) there is no mark.
 */
function onePerExecution(ctx: IExecuteFunctions, i: number, what: string, request: string): void {
	if (!isTool(ctx)) return;
	const data = customDataOf(ctx);
	if (!data) return;
	const mark = createHash('sha256').update(request).digest('base64url').slice(0, 22);
	const earlier = data.get(REVIEWED_MARK);
	if (typeof earlier === 'string' && earlier !== '' && earlier !== mark) {
		refuse(
			ctx,
			i,
			`This execution already sent the money of another approved request, so this ${what} was not sent`,
			`n8n sends the same Approve link for every review of one review node in one execution: the approval of the earlier request, opened again, would approve this one without anyone reading it. Ask for this ${what} in a new message (a new execution), where its review gets links of its own.`,
		);
	}
	data.set(REVIEWED_MARK, mark);
}

/** Reads of FacilitaPay for one item, outside the run's pool (a handful, before anything is sent). */
export function readerFor(ctx: IExecuteFunctions, itemIndex: number): Read {
	return async (request) => await apiRequest.call(ctx, { ...request, retry: 'lookup', itemIndex });
}

/** What the review text of item `i` is about, built from the request the operation would send. */
export function reviewRequestOf(
	ctx: IExecuteFunctions,
	i: number,
	kind: ReviewKind,
	body: IDataObject | undefined,
	transactionId?: string,
): ReviewRequest {
	const transaction = body?.transaction;
	return {
		kind,
		...(transaction && typeof transaction === 'object'
			? { transaction: transaction as IDataObject }
			: {}),
		...(transactionId !== undefined ? { transactionId } : {}),
		key: readIdempotencyKey(ctx, i),
	};
}

/** Whether this node runs as an AI agent's tool (n8n gives the tool variant the type `…Tool`). */
function isTool(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

function refuse(ctx: IExecuteFunctions, i: number, message: string, description: string): never {
	// As a tool, only the message reaches the model (n8n hands it the error's message alone): it
	// carries the description too, so the agent can tell the person why.
	throw new NodeOperationError(
		ctx.getNode(),
		isTool(ctx) ? `${message}. ${description}` : message,
		{
			itemIndex: i,
			description,
		},
	);
}

/**
 * Checks item `i`'s reviewed text (when it has one, or must) against the words written again now
 * from its request and FacilitaPay's records; throws the readable refusal, sending nothing.
 */
export async function checkReviewedText(
	ctx: IExecuteFunctions,
	i: number,
	kind: ReviewKind,
	work: ItemWork,
	transactionId?: string,
): Promise<void> {
	const given = String(ctx.getNodeParameter('reviewedText', i, '') ?? '').trim();
	const required = ctx.getNodeParameter('requireReviewedText', i, false) === true;
	const what = OPERATION_WORDS[kind];
	if (given === '') {
		if (!required) return;
		refuse(
			ctx,
			i,
			`This ${what} needs the reviewed text, and the call had none. Nothing was sent`,
			`Call the Describe for Review tool with exactly these fields first, then call this tool again with its text, unchanged, as "review", so that the person approving reads the ${what} in words.`,
		);
	}
	const request = reviewRequestOf(ctx, i, kind, work.request.body, transactionId);
	const now = await describeRequest(readerFor(ctx, i), request);
	if ('problem' in now) {
		refuse(
			ctx,
			i,
			`The approved text of this ${what} could not be checked against FacilitaPay. Nothing was sent`,
			`${now.problem} The ${what} is sent only once its approved words are confirmed; run it again when FacilitaPay answers.`,
		);
	}
	if ([now.review, ...(now.alsoAccepted ?? [])].some((words) => sameReview(given, words))) {
		onePerExecution(ctx, i, what, JSON.stringify(request));
		return;
	}
	refuse(
		ctx,
		i,
		`The approved text does not match this ${what}. Nothing was sent`,
		`Approved: "${given}". This request, as FacilitaPay's records stand now: "${now.review}". Describe it again and ask for a new approval.`,
	);
}
