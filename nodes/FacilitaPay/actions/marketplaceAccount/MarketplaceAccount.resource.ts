import type { INodeProperties } from 'n8n-workflow';

import * as getBankAccountRequest from './getBankAccountRequest.operation';
import * as requestAuthorization from './requestAuthorization.operation';
import * as requestBankAccount from './requestBankAccount.operation';

export { getBankAccountRequest, requestAuthorization, requestBankAccount };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['marketplaceAccount'] } },
		options: [
			{
				name: 'Get Bank Account Request',
				value: 'getBankAccountRequest',
				description: 'Get a bank account request and, once complete, the opened bank account',
				action: 'Get the status of a bank account request by request ID',
			},
			{
				name: 'Request Authorization',
				value: 'requestAuthorization',
				description:
					'Ask FacilitaPay to authorise opening a collection account for a subject (step 1 of 2)',
				action: 'Request a collection account authorization for a subject',
			},
			{
				name: 'Request Bank Account',
				value: 'requestBankAccount',
				description:
					'Open a pay-in bank account for a subject whose authorisation was approved (step 2 of 2)',
				action: 'Open a bank account for a subject after approval',
			},
		],
		default: 'requestAuthorization',
	},
	...getBankAccountRequest.description,
	...requestAuthorization.description,
	...requestBankAccount.description,
];
