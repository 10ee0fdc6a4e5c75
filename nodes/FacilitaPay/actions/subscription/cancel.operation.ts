import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { cancelSubscriptionSchema, SUBSCRIPTION_LABELS } from '../../schemas/subscription';
import { maskedJson } from '../../security/cardData';
import { idParameter, validateBody } from '../common/input';
import { subscriptionIdField } from './subscriptionId.fields';
import { sendOnce } from '../common/sendOnce';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { subscriptionStatus } from '../../money';

const properties: INodeProperties[] = [
	{
		...subscriptionIdField('ID of an active subscription'),
		hint: 'Stops the subscription: no later invoices or charges. It is sent once and never repeated automatically.',
	},
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Customer asked to stop',
		description: 'Why the subscription is cancelled',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['cancel'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = idParameter(this, i, 'subscriptionId', 'Subscription ID');
	const body = validateBody(
		this,
		i,
		cancelSubscriptionSchema,
		{ reason: this.getNodeParameter('reason', i, '') },
		SUBSCRIPTION_LABELS,
	);
	return sendOnce(
		i,
		'PUT',
		`/subscriptions/${encodeURIComponent(id)}/cancel`,
		body as IDataObject,
		(data) =>
			data === undefined || data === null || data === ''
				? [{ json: { subscription_id: id, canceled: true } }]
				: [{ json: maskedJson(data) }],
	);
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = {
	record: (request) => subscriptionStatus('cancel', request),
};
