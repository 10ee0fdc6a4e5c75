import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maskedJson } from '../../security/cardData';
import { idParameter } from '../common/input';
import { subscriptionIdField } from './subscriptionId.fields';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [subscriptionIdField()];

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['get'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = idParameter(this, i, 'subscriptionId', 'Subscription ID');
	return {
		request: {
			method: 'GET',
			path: `/subscriptions/${encodeURIComponent(id)}`,
			retry: 'safe',
			itemIndex: i,
		},
		output: (data) => [{ json: maskedJson(data) }],
	};
}
