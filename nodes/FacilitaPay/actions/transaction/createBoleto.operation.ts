import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { clock } from '../../clock';
import {
	BOLETO_CURRENCIES,
	boletoSchema,
	SETTLEMENT_CURRENCIES,
	TRANSACTION_LABELS,
} from '../../schemas/transaction';
import * as fields from '../common/fields';
import { validateBody, withMetadata } from '../common/input';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { createTransaction, transactionInput, transactionOperation } from './transaction.requests';
import { inSubjectTransactions } from '../../money';

const properties: INodeProperties[] = [
	fields.subjectIdField(
		'ID of the customer who pays. The subject must have every address field, an email and a phone number registered.',
	),
	fields.valueField('Amount in BRL with exactly two decimals'),
	fields.currencyField('currency', 'Currency', 'A boleto is paid in BRL', BOLETO_CURRENCIES),
	fields.currencyField(
		'exchangeCurrency',
		'Exchange Currency',
		'Currency the payment is converted to: the currency of the To Bank Account',
		SETTLEMENT_CURRENCIES,
	),
	{
		displayName: 'Expire At',
		name: 'expireAt',
		type: 'dateTime',
		required: true,
		default: '={{ $today.plus({ days: 3 }).toFormat("yyyy-MM-dd") }}',
		description:
			'Due date of the boleto (YYYY-MM-DD), today or later. Confirmation of payment can take up to 3 business days.',
	},
	fields.bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'Account that receives the funds after payment',
	),
	fields.metadataField,
];

export const description = transactionOperation('createBoleto', properties);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const transaction = validateBody(
		this,
		i,
		boletoSchema(clock.now(), { timeZone: this.getTimezone() }),
		{
			...transactionInput(this, i, { fromAccount: false }),
			from_boleto: { expire_at: this.getNodeParameter('expireAt', i) },
		},
		TRANSACTION_LABELS,
	);
	return createTransaction(this, i, '/transactions', {
		transaction: withMetadata(this, i, transaction as IDataObject),
	});
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = { record: inSubjectTransactions };
