import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checkoutSchema, TRANSACTION_LABELS } from '../../schemas/transaction';
import { currencyField, subjectIdField, valueField } from '../common/fields';
import { validateBody } from '../common/input';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { createTransaction, transactionInput, transactionOperation } from './transaction.requests';
import { cardDestinationFields } from './cardDestination.fields';
import { CARD_CURRENCIES } from '../../validation/amount';
import { nowhere } from '../../money';

const properties: INodeProperties[] = [
	subjectIdField('ID of the customer who pays by card'),
	{
		...valueField('Amount in the original currency'),
		hint: 'Written with a dot and two decimals (150.00); CLP has no decimals (15000)',
	},
	currencyField(
		'currency',
		'Currency',
		'Original currency (ISO 4217). Cards work in BRL, CLP, COP and MXN only.',
		CARD_CURRENCIES,
	),
	...cardDestinationFields,
];

export const description = transactionOperation('createCheckout', properties);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const body = validateBody(
		this,
		i,
		checkoutSchema,
		transactionInput(this, i, { fromAccount: false }),
		TRANSACTION_LABELS,
	);
	return createTransaction(this, i, '/transactions/checkout', body as IDataObject);
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = {
	record: () =>
		nowhere(
			'A card checkout page cannot be found at FacilitaPay by an identity (it carries no meta and is listed nowhere until a customer pays). Check the FacilitaPay dashboard (or the payment_failed / payment_approved events) before creating it again.',
		),
};
