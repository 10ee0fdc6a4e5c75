import { transactionAction } from './transaction.fields';

export const { description, prepare } = transactionAction(
	'cancel',
	{
		description: 'ID of a payment that has not been processed yet',
		hint: 'Cancels the payment at FacilitaPay. It is sent once and never repeated automatically.',
	},
	'refund',
);
