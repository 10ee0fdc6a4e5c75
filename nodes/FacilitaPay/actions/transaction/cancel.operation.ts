import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { transactionIdField } from '../common/fields';
import { idParameter } from '../common/input';
import { answerAsJson } from '../common/output';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [
	{
		...transactionIdField,
		description: 'ID of a payment that has not been processed yet',
		hint: 'Cancels the payment at FacilitaPay. It is sent once and never repeated automatically.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['cancel'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = idParameter(this, i, 'transactionId', 'Transaction ID');
	return {
		request: {
			method: 'GET',
			path: `/transactions/${encodeURIComponent(id)}/refund`,
			retry: 'sendOnce',
			itemIndex: i,
		},
		output: (data) => [{ json: answerAsJson(data, { transaction_id: id }) }],
	};
}
