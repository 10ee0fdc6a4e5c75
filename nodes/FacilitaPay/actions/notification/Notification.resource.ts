import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';
import * as markAsSuccessful from './markAsSuccessful.operation';

export { getMany, markAsSuccessful };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['notification'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					'List the notifications FacilitaPay sent to the webhook URL, failed or delivered',
				action: 'Get many webhook notifications with their delivery status',
			},
			{
				name: 'Mark as Successful',
				value: 'markAsSuccessful',
				description: 'Mark a failed notification as delivered',
				action: 'Mark a failed notification as delivered by notification ID',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
	...markAsSuccessful.description,
];
