import { transactionAction } from './transaction.requests';
import { transactionStatus } from '../../money';
import type { MoneyDeclaration } from '../node.type';

export const { description, prepare } = transactionAction(
	'refund',
	{
		description: 'ID of a received payment to give back to the payer',
		hint: 'Refunds the full amount (partial refunds do not exist) and outputs the refund with transaction_id; its id is the Refund ID that Get Refund reads. It is sent once and never repeated automatically.',
	},
	'refund_received_transaction',
);

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = {
	record: (request) => transactionStatus('refund', request),
};
