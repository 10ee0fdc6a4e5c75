import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkUuid } from '../../validation/uuid';
import { requireValid } from '../common/input';
import { answerAsJson } from '../common/output';
import type { ItemWork } from '../node.type';
import { withoutSecret } from './getMany.operation';

const properties: INodeProperties[] = [
	{
		displayName: 'Notification ID',
		name: 'notificationId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b',
		description:
			'ID (a UUID) of a failed notification, as listed by Notification > Get Many with Only Failed',
		hint: 'FacilitaPay lists a notification as failed until it is marked successful; it is not sent again',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['markAsSuccessful'] } },
	properties,
);

/** Sent with retry `safe`: marking a notification twice leaves it marked. */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = requireValid(
		this,
		i,
		'Notification ID',
		checkUuid(this.getNodeParameter('notificationId', i) as string),
	);
	return {
		request: {
			method: 'PUT',
			path: `/notifications/${encodeURIComponent(id)}`,
			retry: 'safe',
			itemIndex: i,
		},
		output: (data) => [{ json: withoutSecret(answerAsJson(data, { id })) }],
	};
}
