import type { INodeProperties } from 'n8n-workflow';

import { locatorField } from '../common/locator';

export const subscriptionIdField = (description = 'The subscription'): INodeProperties =>
	locatorField({
		name: 'subscriptionId',
		displayName: 'Subscription',
		description,
		searchListMethod: 'searchSubscriptions',
		searchHint: 'Search by customer, value or status…',
		placeholder: 'e.g. 6d2f1a3b-8c4e-4b7a-9f10-3e5d7c9b1a20',
		uuid: false,
		kind: 'subscription',
	});
