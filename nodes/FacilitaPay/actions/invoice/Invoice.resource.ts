import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get an invoice by ID (an ID of a subscription gives its invoices)',
				action: 'Get an invoice by invoice ID',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List all invoices, or the invoices of one subscription',
				action: 'Get many invoices of the account or of one subscription',
			},
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
];
