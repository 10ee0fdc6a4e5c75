import { transactionAction } from './transaction.requests';

export const { description, prepare } = transactionAction(
	'cancel',
	{
		description: 'ID of a payment that has not been processed yet',
		hint: 'Cancels the payment at FacilitaPay and outputs its void record (id, status, reason, transaction_kind, bank_transaction…) with transaction_id. It is sent once and never repeated automatically.',
	},
	'refund',
);
