import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maskedJson } from '../../security/cardData';
import { errorFromFacts } from '../../transport';
import { idParameter } from '../common/input';
import { locatorField } from '../common/locator';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [
	locatorField({
		name: 'invoiceId',
		displayName: 'Invoice',
		description: 'The invoice, e.g. from the invoice_paid event',
		searchListMethod: 'searchInvoices',
		searchHint: 'Search by status, subscription or invoice ID…',
		placeholder: 'e.g. 2c7e9a14-5b3d-4f8e-a1c6-7d9b0e2f4a68',
		uuid: false,
		kind: 'invoice',
		hint: 'FacilitaPay answers this path with one invoice, or with a list when the ID is a subscription’s: each invoice of the list becomes an item',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['get'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = idParameter(this, i, 'invoiceId', 'Invoice ID');
	return {
		request: {
			method: 'GET',
			path: `/subscriptions/invoices/${encodeURIComponent(id)}`,
			retry: 'safe',
			itemIndex: i,
		},
		output(data) {
			// The spec leaves open whether this path takes an invoice or a subscription ID: an array of
			// one is that invoice; an array of several is a subscription's invoices, one item each.
			if (Array.isArray(data)) {
				if (data.length === 0) {
					throw errorFromFacts(this.getNode(), {
						itemIndex: i,
						outcome: 'failed',
						head: `No invoice found for ID "${id}"`,
						fix: 'FacilitaPay answered with an empty list: no invoice has this ID, or it is a subscription without invoices yet. Check the ID.',
					});
				}
				return data.map((invoice) => ({ json: maskedJson(invoice) }));
			}
			return [{ json: maskedJson(data) }];
		},
	};
}
