import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PAYOUT_CURRENCIES, payoutSchema, TRANSACTION_LABELS } from '../../schemas/transaction';
import {
	bankAccountIdField,
	currencyField,
	metadataField,
	subjectIdField,
	valueField,
} from '../common/fields';
import { validateBody, withMetadata } from '../common/input';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { createTransaction, transactionInput } from './transaction.requests';
import { inSubjectTransactions } from '../../money';

const properties: INodeProperties[] = [
	subjectIdField('ID of the customer who receives the money'),
	{
		...valueField('Amount in the source currency'),
		hint: 'Written with a dot and two decimals (150.00); CLP has no decimals (15000)',
	},
	currencyField(
		'currency',
		'Currency',
		'Source currency (ISO 4217), e.g. your foreign-currency balance. Stablecoins (RLUSD, USDC, USDG, USDT) come from the public documentation, not the spec.',
		PAYOUT_CURRENCIES,
		'USD',
	),
	currencyField(
		'exchangeCurrency',
		'Exchange Currency',
		'Currency paid out (BRL for a BRL payout)',
	),
	bankAccountIdField(
		'fromBankAccountId',
		'From Bank Account ID',
		'Your cash-out internal account at FacilitaPay',
	),
	bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'The customer’s registered bank account. With bank details and a PIX key both registered, TED is preferred; with only a PIX key, PIX is used.',
	),
	metadataField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['createPayout'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const input = transactionInput(this, i, { fromAccount: true });
	const transaction = validateBody(this, i, payoutSchema, input, TRANSACTION_LABELS);
	return createTransaction(i, '/transactions', {
		transaction: withMetadata(this, i, transaction as IDataObject),
	});
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = { record: inSubjectTransactions };
