import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [
	{
		displayName:
			'This turns off ALL notifications of the FacilitaPay account, not only those of this workflow: every workflow or system that receives FacilitaPay webhooks (including FacilitaPay Trigger nodes) stops receiving events until webhooks are enabled again.',
		name: 'disableAllNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['disable'] } },
	properties,
);

/** Sent with retry `safe`: disabling twice leaves webhooks disabled. */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	return {
		request: { method: 'GET', path: '/disable_webhooks', retry: 'safe', itemIndex: i },
		output: (data) => [
			{
				json: {
					disabled: true,
					result: typeof data === 'string' ? data : JSON.stringify(data ?? null),
				},
			},
		],
	};
}
