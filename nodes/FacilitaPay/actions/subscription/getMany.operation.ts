import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maskedJson } from '../../security/cardData';
import { returnAllOrLimit } from '../common/fields';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [...returnAllOrLimit];

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['getMany'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', i) as number);
	return {
		request: { method: 'GET', path: '/subscriptions', retry: 'safe', itemIndex: i },
		send: 'allPages',
		page: { limit },
		output: (subscriptions) =>
			(subscriptions as IDataObject[]).map((subscription) => ({ json: maskedJson(subscription) })),
	};
}
