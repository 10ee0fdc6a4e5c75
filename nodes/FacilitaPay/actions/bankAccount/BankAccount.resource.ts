import type { INodeProperties } from 'n8n-workflow';

import * as getBalance from './getBalance.operation';

export { getBalance };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bankAccount'] } },
		options: [
			{
				name: 'Get Balance',
				value: 'getBalance',
				description: 'Balance, credits and debits of one of your own accounts',
				action: 'Get the balance of one of your bank accounts',
			},
		],
		default: 'getBalance',
	},
	...getBalance.description,
];
