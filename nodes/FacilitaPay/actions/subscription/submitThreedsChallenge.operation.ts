import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { SUBSCRIPTION_LABELS, threedsChallengeSchema } from '../../schemas/subscription';
import { maskedJson, withCardDataHidden } from '../common/cardData';
import { idParameter, validateBody } from '../common/input';
import { cardFromParameters, cardProperties, secretsOf } from './cardFields';
import { subscriptionIdField } from './subscriptionIdField';

const properties: INodeProperties[] = [
	{
		...subscriptionIdField('ID of the card subscription whose 3-D Secure challenge is answered'),
		hint: 'Sent once and never repeated automatically',
	},
	...cardProperties,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['submitThreedsChallenge'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const card = cardFromParameters(this, i);
	const secrets = secretsOf(card);
	return await withCardDataHidden(this, secrets, async () => {
		const id = idParameter(this, i, 'subscriptionId', 'Subscription ID');
		const body = validateBody(this, i, threedsChallengeSchema(new Date()), { credit_card: card }, SUBSCRIPTION_LABELS);
		const data = await apiRequest.call(this, {
			method: 'POST',
			path: `/subscriptions/${encodeURIComponent(id)}/threeds_challenge`,
			body: body as IDataObject,
			retry: 'sendOnce',
			itemIndex: i,
		});
		return [{ json: maskedJson(data, secrets) }];
	});
}
