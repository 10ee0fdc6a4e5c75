import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYOUT_CURRENCIES, payoutSchema, TRANSACTION_LABELS } from '../../schemas/transaction';
import * as fields from '../common/fields';
import { validateBody, withMetadata } from '../common/input';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { createTransaction, transactionInput, transactionOperation } from './transaction.requests';
import { inSubjectTransactions } from '../../money';
import { checkReviewedText, reviewFields } from './review.fields';

export const properties: INodeProperties[] = [
	fields.subjectIdField('ID of the customer who receives the money'),
	{
		...fields.valueField('Amount in the source currency'),
		hint: 'Written with a dot and two decimals (150.00); CLP has no decimals (15000)',
	},
	fields.currencyField(
		'currency',
		'Currency',
		'Source currency (ISO 4217), e.g. your foreign-currency balance. Stablecoins (RLUSD, USDC, USDG, USDT) come from the public documentation, not the spec.',
		PAYOUT_CURRENCIES,
		'USD',
	),
	fields.currencyField(
		'exchangeCurrency',
		'Exchange Currency',
		'Currency paid out (BRL for a BRL payout)',
	),
	fields.bankAccountIdField(
		'fromBankAccountId',
		'From Bank Account ID',
		'Your cash-out internal account at FacilitaPay',
	),
	fields.bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'The customer’s registered bank account. With bank details and a PIX key both registered, TED is preferred; with only a PIX key, PIX is used.',
	),
	fields.metadataField,
];

export const description = transactionOperation('createPayout', [
	...properties,
	...reviewFields('createPayout'),
]);

/** The checked request of item `i` (also what Describe for Review describes). */
export async function payoutWork(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const input = transactionInput(this, i, { fromAccount: true });
	const transaction = validateBody(this, i, payoutSchema, input, TRANSACTION_LABELS);
	return createTransaction(this, i, '/transactions', {
		transaction: withMetadata(this, i, transaction as IDataObject),
	});
}

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const work = await payoutWork.call(this, i);
	await checkReviewedText(this, i, 'createPayout', work);
	return work;
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = { record: inSubjectTransactions };
