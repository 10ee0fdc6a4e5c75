import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { clock } from '../../clock';
import { SUBSCRIPTION_LABELS, threedsChallengeSchema } from '../../schemas/subscription';
import { maskedJson, withCardDataHidden } from '../../security/cardData';
import { idParameter, validateBody } from '../common/input';
import { cardFromParameters, cardProperties, secretsOf } from './card.fields';
import { subscriptionIdField } from './subscriptionId.fields';
import { sendOnce } from '../common/sendOnce';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { subscriptionStatus } from '../../money';

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

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const card = cardFromParameters(this, i);
	const secrets = secretsOf(card);
	return await withCardDataHidden(this, secrets, async () => {
		const id = idParameter(this, i, 'subscriptionId', 'Subscription ID');
		const body = validateBody(
			this,
			i,
			threedsChallengeSchema(clock.now(), { timeZone: this.getTimezone() }),
			{ credit_card: card },
			SUBSCRIPTION_LABELS,
		);
		return {
			...sendOnce(
				i,
				'POST',
				`/subscriptions/${encodeURIComponent(id)}/threeds_challenge`,
				body as IDataObject,
				(data) => [{ json: maskedJson(data, secrets) }],
			),
			cardSecrets: secrets,
		};
	});
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = {
	record: (request) => subscriptionStatus('threedsChallenge', request),
};
