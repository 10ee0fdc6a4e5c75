import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { maskedJson } from '../common/cardData';
import { returnAllOrLimit } from '../common/fields';

const properties: INodeProperties[] = [...returnAllOrLimit];

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', i) as number);
	const subscriptions = await apiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/subscriptions', retry: 'safe', itemIndex: i },
		{ limit },
	);
	return subscriptions.map((subscription) => ({ json: maskedJson(subscription) }));
}
