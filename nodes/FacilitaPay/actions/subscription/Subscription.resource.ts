import type { INodeProperties } from 'n8n-workflow';

import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as submitThreedsChallenge from './submitThreedsChallenge.operation';

export { cancel, create, get, getMany, submitThreedsChallenge };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['subscription'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				description: 'Cancel an active subscription; no later invoices or charges are made',
				action: 'Cancel a subscription by ID so no more charges are made',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Start recurring billing by card or automatic PIX',
				action: 'Create a card or automatic PIX subscription for a customer',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a subscription by ID',
				action: 'Get a subscription by subscription ID',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List your subscriptions',
				action: 'Get many subscriptions of the account',
			},
			{
				name: 'Submit 3DS Challenge',
				value: 'submitThreedsChallenge',
				description:
					'Send the card again to complete the 3-D Secure challenge of a card subscription',
				action: 'Complete the 3DS card challenge of a subscription',
			},
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...getMany.description,
	...cancel.description,
	...submitThreedsChallenge.description,
];
