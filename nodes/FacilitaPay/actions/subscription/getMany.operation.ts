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

/**
 * `GET /subscriptions` "returns all the partner's subscriptions": the spec shows no paging on it,
 * so one request is sent and Limit is applied here (no `last_id` request the spec does not have).
 */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', i) as number);
	return {
		request: { method: 'GET', path: '/subscriptions', retry: 'safe', itemIndex: i },
		output: (data) => {
			const subscriptions = (Array.isArray(data) ? data : data ? [data] : []) as IDataObject[];
			const kept = limit === undefined ? subscriptions : subscriptions.slice(0, limit);
			return kept.map((subscription) => ({ json: maskedJson(subscription) }));
		},
	};
}
