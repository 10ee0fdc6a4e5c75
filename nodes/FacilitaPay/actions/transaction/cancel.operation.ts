import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { transactionIdField } from '../common/fields';
import { idParameter } from '../common/input';
import { answerAsJson } from '../common/output';

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

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = idParameter(this, i, 'transactionId', 'Transaction ID');
	const data = await apiRequest.call(this, {
		method: 'GET',
		path: `/transactions/${encodeURIComponent(id)}/refund`,
		retry: 'sendOnce',
		itemIndex: i,
	});
	return [{ json: answerAsJson(data, { transaction_id: id }) }];
}
