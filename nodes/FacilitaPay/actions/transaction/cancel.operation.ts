import { transactionAction } from './transaction.requests';
import { transactionStatus } from '../../money';
import type { MoneyDeclaration } from '../node.type';

export const { description, prepare } = transactionAction(
	'cancel',
	{
		description: 'ID of a payment that has not been processed yet',
		hint: 'Cancels the payment at FacilitaPay and outputs its void record (id, status, reason, transaction_kind, bank_transaction…) with transaction_id. It is sent once and never repeated automatically.',
	},
	'refund',
);

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = {
	record: (request) => transactionStatus('cancel', request),
};
