import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maskedJson } from '../../security/cardData';
import { returnAllOrLimit } from '../common/fields';
import { idParameter } from '../common/input';
import { locatorValue } from '../common/locator';
import { subscriptionIdField } from '../subscription/subscriptionId.fields';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [
	{
		...subscriptionIdField(
			'Only the invoices of this subscription. Leave empty to list all your invoices.',
		),
		required: false,
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
	const subscriptionId = locatorValue(this, 'subscriptionId', i);
	const asItems = (invoices: unknown[]) =>
		invoices.map((invoice) => ({ json: maskedJson(invoice as IDataObject) }));

	if (subscriptionId === '') {
		return {
			request: { method: 'GET', path: '/subscriptions/invoices', retry: 'safe', itemIndex: i },
			send: 'allPages',
			page: { limit },
			output: (invoices) => asItems(invoices as unknown[]),
		};
	}

	const checkedId = idParameter(this, i, 'subscriptionId', 'Subscription ID');
	// The spec shows no paging on a subscription's invoice list: one request, Limit applied here.
	return {
		request: {
			method: 'GET',
			path: `/subscriptions/invoices/${encodeURIComponent(checkedId)}`,
			retry: 'safe',
			itemIndex: i,
		},
		output(data) {
			const invoices: unknown[] = Array.isArray(data)
				? data
				: data === undefined || data === null
					? []
					: [data];
			return asItems(limit === undefined ? invoices : invoices.slice(0, limit));
		},
	};
}
