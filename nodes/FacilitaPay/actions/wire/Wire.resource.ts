import type { INodeProperties } from 'n8n-workflow';

import * as updateBankAccount from './updateBankAccount.operation';

export { updateBankAccount };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['wire'] } },
		options: [
			{
				name: 'Update Bank Account',
				value: 'updateBankAccount',
				description:
					'Correct the account of a wire waiting for correction (AC03: branch or account number, AC14: account type, CH11: owner document, AG03: another account); FacilitaPay retries it',
				action: 'Correct the bank account of a wire waiting for correction',
			},
		],
		default: 'updateBankAccount',
	},
	...updateBankAccount.description,
];
