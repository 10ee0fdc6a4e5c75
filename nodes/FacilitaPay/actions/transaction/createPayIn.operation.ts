import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	PAY_IN_CURRENCIES,
	PAY_IN_EXCHANGE_CURRENCIES,
	payInSchema,
	TRANSACTION_LABELS,
} from '../../schemas/transaction';
import * as fields from '../common/fields';
import { invalidInput, jsonParameter, validateBody, withMetadata } from '../common/input';
import { answerAsJson } from '../common/output';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { createTransaction, transactionInput, transactionOperation } from './transaction.requests';
import { withDynamicClabe } from './payIn.output';
import { inSubjectTransactions } from '../../money';

const properties: INodeProperties[] = [
	{
		displayName:
			'Local pay-ins come from FacilitaPay’s public documentation, not the interface spec, and are enabled per partner. Mexico (MXN): the answer carries the dynamic CLABE the customer pays to. Chile (CLP): amounts without decimals. Colombia (COP, PSE): the field names of the bank and the return URL were not readable; give them under Additional Fields as FacilitaPay tells you.',
		name: 'payInNotice',
		type: 'notice',
		default: '',
	},
	fields.subjectIdField('The registered customer who pays'),
	fields.currencyField(
		'currency',
		'Currency',
		'Currency the customer pays in: a local currency or a stablecoin',
		PAY_IN_CURRENCIES,
		'MXN',
	),
	{
		...fields.valueField('Amount in the currency paid'),
		hint: 'Decimals follow the currency: 150.00 in MXN, COP and stablecoins; 15000 in CLP (no decimals)',
	},
	fields.currencyField(
		'exchangeCurrency',
		'Exchange Currency',
		'Currency the amount is converted to (the currency of the To Bank Account); equal to Currency for no conversion',
		PAY_IN_EXCHANGE_CURRENCIES,
		'MXN',
	),
	fields.bankAccountIdField(
		'fromBankAccountId',
		'From Bank Account ID',
		'Your real account in the currency paid (the documentation’s general page; its Chile page uses a cash-in account here)',
	),
	fields.bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'Your internal cash-in account that receives the funds; its currency must equal the Exchange Currency',
	),
	fields.metadataField,
	{
		...fields.ADDITIONAL_FIELDS,
		options: [
			{
				displayName: 'Extra Transaction Fields (JSON)',
				name: 'extraFields',
				type: 'json',
				default: '{}',
				description:
					'Further fields of the transaction as a JSON object, sent as given: for a PSE pay-in the customer’s bank and the return (redirect) URL, under the names FacilitaPay gives you (not published). They cannot replace the fields above.',
			},
		],
	},
];

export const description = transactionOperation('createPayIn', properties);

/** The fields the node checks itself: extra fields may not replace them. */
const CHECKED_FIELDS = [
	'subject_id',
	'currency',
	'exchange_currency',
	'value',
	'from_bank_account_id',
	'to_bank_account_id',
	'use_dynamic_pix',
	'from_boleto',
	'meta',
];

/**
 * `POST /transactions` with `{"transaction": {…}}` as the documentation's local pay-ins send it.
 * Sent once (it creates a payment). The output adds `dynamic_clabe` (from
 * `payment_info.dynamic_clabe`, Mexico) when the answer has one, and `dynamic_clabe_valid_until`
 * (its expiry, else its creation plus 30 days).
 */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const additional = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const extra = jsonParameter(this, i, 'Extra Transaction Fields (JSON)', additional.extraFields);
	if (
		extra !== undefined &&
		(extra === null || typeof extra !== 'object' || Array.isArray(extra))
	) {
		throw invalidInput(
			this,
			i,
			'Extra Transaction Fields (JSON)',
			'must be a JSON object, e.g. {"field": "value"}',
		);
	}
	const clash = Object.keys((extra ?? {}) as IDataObject).filter((key) =>
		CHECKED_FIELDS.includes(key),
	);
	if (clash.length > 0) {
		throw invalidInput(
			this,
			i,
			'Extra Transaction Fields (JSON)',
			`contains ${clash.join(', ')}, which the node's own fields set; remove ${clash.length === 1 ? 'it' : 'them'} from the JSON`,
		);
	}
	const transaction = validateBody(
		this,
		i,
		payInSchema,
		transactionInput(this, i, { fromAccount: true }),
		TRANSACTION_LABELS,
	);
	return createTransaction(
		this,
		i,
		'/transactions',
		{
			transaction: withMetadata(this, i, {
				...((extra ?? {}) as IDataObject),
				...(transaction as IDataObject),
			}),
		},
		(data) => {
			const json = answerAsJson(data);
			return withDynamicClabe(json, (json.payment_info as IDataObject | undefined)?.dynamic_clabe);
		},
	);
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = { record: inSubjectTransactions };
