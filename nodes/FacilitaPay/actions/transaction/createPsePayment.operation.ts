import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { LOCAL_PAY_IN_LABELS, psePaymentSchema } from '../../schemas/localPayIn';
import { PAY_IN_EXCHANGE_CURRENCIES } from '../../schemas/transaction';
import * as fields from '../common/fields';
import { validateBody, withMetadata } from '../common/input';
import { locatorField, locatorValue } from '../common/locator';
import { answerAsJson } from '../common/output';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { inSubjectTransactions } from '../../money';
import { createTransaction, transactionInput, transactionOperation } from './transaction.requests';
import { validUntil } from './payIn.output';

/** A PSE payment URL can be used for this long after the payment is created (public docs). */
export const PSE_URL_MINUTES = 21;

const properties: INodeProperties[] = [
	{
		displayName:
			'Colombia’s PSE, as FacilitaPay’s public clients send it: the customer pays from their own bank at the Payment URL of the output, within 21 minutes. No source account is needed.',
		name: 'psePaymentNotice',
		type: 'notice',
		default: '',
	},
	fields.subjectIdField(
		'The registered customer who pays; PSE needs their e-mail, phone and address registered',
	),
	{ ...fields.valueField('Amount in Colombian pesos (COP)'), placeholder: 'e.g. 200000.00' },
	fields.currencyField(
		'exchangeCurrency',
		'Exchange Currency',
		'Currency the amount is converted to (the currency of the To Bank Account); COP for no conversion',
		PAY_IN_EXCHANGE_CURRENCIES,
		'COP',
	),
	fields.bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'Your internal cash-in account that receives the funds; its currency must equal the Exchange Currency',
	),
	locatorField({
		name: 'financialInstitutionCode',
		displayName: 'PSE Bank',
		description:
			'The customer’s bank. From List reads FacilitaPay’s PSE bank list; if it cannot be read, choose By ID and enter the bank’s PSE code.',
		searchListMethod: 'searchPseBanks',
		searchHint: 'Search by bank name or code…',
		placeholder: 'e.g. 1007',
		uuid: false,
		kind: 'PSE bank',
	}),
	{
		displayName: 'Redirect URL',
		name: 'redirectUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://shop.example.co/paid',
		description: 'The page PSE sends the customer back to after paying',
	},
	{
		displayName: 'Payment Description',
		name: 'paymentDescription',
		type: 'string',
		default: '',
		placeholder: 'e.g. Order 1001',
		description: 'What the customer pays for, shown by PSE',
	},
	fields.metadataField,
];

export const description = transactionOperation('createPsePayment', properties);

/**
 * `POST /transactions` in COP with `from_pse` and no `from_bank_account_id` (FacilitaPay's public
 * Python client). Sent once. The output adds `payment_url` (from `from_pse.payment_url`) and
 * `payment_url_valid_until` (the answer's `creation_date`, else its `inserted_at`, plus 21 minutes).
 */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const transaction = validateBody(
		this,
		i,
		psePaymentSchema,
		{
			...transactionInput(this, i, { fromAccount: false, currency: 'COP' }),
			from_pse: {
				financial_institution_code: locatorValue(this, 'financialInstitutionCode', i),
				redirect_url: this.getNodeParameter('redirectUrl', i, ''),
				payment_description: this.getNodeParameter('paymentDescription', i, ''),
			},
		},
		LOCAL_PAY_IN_LABELS,
	);
	const { payment_description: description, ...pse } = transaction.from_pse;
	const body = {
		...withMetadata(this, i, transaction as IDataObject),
		from_pse: description === undefined ? pse : { ...pse, payment_description: description },
	};
	return createTransaction(this, i, '/transactions', { transaction: body }, (data) => {
		const json = answerAsJson(data);
		const answer = (json.from_pse ?? {}) as IDataObject;
		const url = answer.payment_url;
		if (url === undefined || url === null) return [{ json }];
		const until = validUntil(answer.creation_date ?? json.inserted_at, PSE_URL_MINUTES * 60);
		return [
			{
				json: {
					...json,
					payment_url: url,
					...(until ? { payment_url_valid_until: until } : {}),
				},
			},
		];
	});
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = { record: inSubjectTransactions };
