import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { transactionIdField } from '../common/fields';
import { idParameter } from '../common/input';
import type { ItemWork } from '../node.type';
import { withTransactionId, transactionOperation } from './transaction.requests';

const properties: INodeProperties[] = [
	{
		...transactionIdField,
		description: 'The received payment that was refunded (the Transaction ID given to Refund)',
	},
	{
		displayName: 'Refund ID',
		name: 'refundId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 5d1e7c3a-2b4f-4c6d-8e9f-0a1b2c3d4e5f',
		description: 'The ID of the refund: the ID in the output of Transaction > Refund',
		hint: 'From the public payment-orchestrator connector of FacilitaPay, not the interface spec',
	},
];

export const description = transactionOperation('getRefund', properties);

/**
 * `GET /transactions/:id/refund_received_transaction/:refund_id` (the payment-orchestrator
 * connector): the refund record, `id` and `status` (the connector reads it as one of the
 * transaction statuses), with `transaction_id` added. A read: retried.
 */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = idParameter(this, i, 'transactionId', 'Transaction ID');
	const refundId = idParameter(this, i, 'refundId', 'Refund ID');
	return {
		request: {
			method: 'GET',
			path: `/transactions/${encodeURIComponent(id)}/refund_received_transaction/${encodeURIComponent(refundId)}`,
			retry: 'safe',
			itemIndex: i,
		},
		output: (data) => [{ json: withTransactionId(data, id) }],
	};
}
