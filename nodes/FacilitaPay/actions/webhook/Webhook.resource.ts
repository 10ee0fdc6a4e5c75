import type { INodeProperties } from 'n8n-workflow';

import * as disable from './disable.operation';
import * as enable from './enable.operation';

export { disable, enable };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Disable',
				value: 'disable',
				description:
					'Turn off ALL notifications of the FacilitaPay account (every workflow and system)',
				action: 'Turn off all webhook notifications of the account',
			},
			{
				name: 'Enable',
				value: 'enable',
				description:
					'Set the account’s single webhook URL (replacing any other) and get the secret notifications carry',
				action: 'Set the one webhook URL that receives all notifications',
			},
		],
		default: 'enable',
	},
	...disable.description,
	...enable.description,
];
