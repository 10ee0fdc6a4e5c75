import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { maskedJson } from '../common/cardData';
import { idParameter } from '../common/input';
import { subscriptionIdField } from './subscriptionIdField';

const properties: INodeProperties[] = [subscriptionIdField()];

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = idParameter(this, i, 'subscriptionId', 'Subscription ID');
	const data = await apiRequest.call(this, {
		method: 'GET',
		path: `/subscriptions/${encodeURIComponent(id)}`,
		retry: 'safe',
		itemIndex: i,
	});
	return [{ json: maskedJson(data) }];
}
