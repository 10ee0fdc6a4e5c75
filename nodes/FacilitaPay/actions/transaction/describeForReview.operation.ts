import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { transactionIdField } from '../common/fields';
import { idParameter } from '../common/input';
import { TOOL_KEY_DEFAULT } from '../common/requestOptions';
import type { ItemWork } from '../node.type';
import { payoutWork, properties as payoutProperties } from './createPayout.operation';
import { dynamicPixWork, properties as dynamicPixProperties } from './createDynamicPix.operation';
import { reviewRequestOf } from './review.fields';
import type { ReviewKind } from './review.words';
import { describeRequest } from './review.words';

/**
 * Transaction > Describe for Review: a payout, PIX charge, refund or cancel in words, for the person
 * who approves it in n8n's human review of an AI agent's tool calls: amount and currency, who
 * receives it, the customer, the reference that keeps it once. It reads FacilitaPay and sends
 * nothing. The money operation given the text (its Reviewed Text) writes it again right
 * before sending and sends only when it is the same.
 */
const OPERATION = 'describeForReview';

/** Only what decides the money; the QR image and metadata options of the operations stay out. */
const DESCRIBED = (properties: INodeProperties[]) =>
	properties.filter((p) => !['qrCodeImage', 'qrCodeBinaryProperty', 'metadata'].includes(p.name));

const forKind = (kind: ReviewKind, properties: INodeProperties[]): INodeProperties[] =>
	updateDisplayOptions({ show: { reviewOf: [kind] } }, properties);

const properties: INodeProperties[] = [
	{
		displayName: 'Describe',
		name: 'reviewOf',
		type: 'options',
		noDataExpression: true,
		default: 'createPayout',
		description: 'The request to describe, with the same fields the operation itself takes',
		options: [
			{ name: 'Cancel', value: 'cancel' },
			{ name: 'Create Dynamic PIX', value: 'createDynamicPix' },
			{ name: 'Create Payout', value: 'createPayout' },
			{ name: 'Refund', value: 'refund' },
		],
	},
	...forKind('createPayout', DESCRIBED(payoutProperties)),
	...forKind('createDynamicPix', DESCRIBED(dynamicPixProperties)),
	...forKind('refund', [transactionIdField]),
	...forKind('cancel', [transactionIdField]),
];

export const description: INodeProperties[] = [
	...updateDisplayOptions(
		{ show: { resource: ['transaction'], operation: [OPERATION] } },
		properties,
	),
	{
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.orderId }}',
		description:
			'The Idempotency Key the money operation will carry (the reference that keeps it once): the same value as there',
		displayOptions: {
			show: { resource: ['transaction'], operation: [OPERATION], '@tool': [false] },
		},
	},
	{
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: TOOL_KEY_DEFAULT,
		description: 'The reference the money operation will carry. As a tool, the model gives it.',
		displayOptions: {
			show: { resource: ['transaction'], operation: [OPERATION], '@tool': [true] },
		},
	},
];

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const kind = this.getNodeParameter('reviewOf', i) as ReviewKind;
	const creates = kind === 'createPayout' || kind === 'createDynamicPix';
	const work = creates
		? await (kind === 'createPayout' ? payoutWork : dynamicPixWork).call(this, i)
		: undefined;
	const transactionId = creates
		? undefined
		: idParameter(this, i, 'transactionId', 'Transaction ID');
	const subject = reviewRequestOf(this, i, kind, work?.request.body, transactionId);
	const node = this.getNode();
	return {
		request: { method: 'GET', path: '/transactions', retry: 'safe', itemIndex: i },
		send: 'reads',
		perform: async (read) => {
			const described = await describeRequest(read, subject);
			if ('problem' in described) {
				throw new NodeOperationError(
					node,
					`Could not describe this request: ${described.problem}`,
					{
						itemIndex: i,
						description: 'Nothing was sent. Run it again when FacilitaPay answers.',
					},
				);
			}
			return { review: described.review, facts: described.facts };
		},
		output: (data) => [
			{
				json: {
					...(data as object),
					request: {
						operation: kind,
						...(work?.request.body ? { body: work.request.body } : {}),
						...(transactionId ? { transactionId } : {}),
					},
				},
			},
		],
	};
}
