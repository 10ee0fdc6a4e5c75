import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maskedJson } from '../common/cardData';
import { returnAllOrLimit } from '../common/fields';
import { invalidInput } from '../common/input';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [
	{
		displayName: 'Subscription ID',
		name: 'subscriptionId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 6d2f1a3b-8c4e-4b7a-9f10-3e5d7c9b1a20',
		description: 'Only the invoices of this subscription. Leave empty to list all your invoices.',
	},
	...returnAllOrLimit,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['getMany'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', i) as number);
	const subscriptionId = String(this.getNodeParameter('subscriptionId', i, '') ?? '').trim();
	const asItems = (invoices: unknown[]) => invoices.map((invoice) => ({ json: maskedJson(invoice as IDataObject) }));

	if (subscriptionId === '') {
		return {
			request: { method: 'GET', path: '/subscriptions/invoices', retry: 'safe', itemIndex: i },
			send: 'allPages',
			page: { limit },
			output: (invoices) => asItems(invoices as unknown[]),
		};
	}

	if (/[\s/?#]/.test(subscriptionId)) {
		throw invalidInput(this, i, 'Subscription ID', 'must be a single ID without spaces or slashes');
	}
	// The spec shows no paging on a subscription's invoice list: one request, Limit applied here.
	return {
		request: {
			method: 'GET',
			path: `/subscriptions/invoices/${encodeURIComponent(subscriptionId)}`,
			retry: 'safe',
			itemIndex: i,
		},
		output(data) {
			const invoices: unknown[] = Array.isArray(data) ? data : data === undefined || data === null ? [] : [data];
			return asItems(limit === undefined ? invoices : invoices.slice(0, limit));
		},
	};
}
