import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idParameter } from '../common/input';
import { answerAsJson } from '../common/output';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [
	{
		displayName: 'Request ID',
		name: 'requestId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 5e0c1f4a-2b3d-4c6e-8f9a-0b1c2d3e4f5a',
		description:
			'ID of the bank account request: the ID returned by Request Bank Account, or request_id of the account_request_status event',
		hint: 'While the status is processing there is no bank_account yet; it appears once the status is complete',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['marketplaceAccount'], operation: ['getBankAccountRequest'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = idParameter(this, i, 'requestId', 'Request ID');
	return {
		request: {
			method: 'GET',
			path: `/bank/accounts/request/${encodeURIComponent(id)}`,
			retry: 'safe',
			itemIndex: i,
		},
		output: (data) => [{ json: answerAsJson(data, { id }) }],
	};
}
