import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { LOCAL_PAY_IN_LABELS, speiPaymentSchema } from '../../schemas/localPayIn';
import { PAY_IN_EXCHANGE_CURRENCIES } from '../../schemas/transaction';
import * as fields from '../common/fields';
import { validateBody, withMetadata } from '../common/input';
import { answerAsJson } from '../common/output';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { inSubjectTransactions } from '../../money';
import { createTransaction, transactionInput, transactionOperation } from './transaction.requests';
import { CLABE_DAYS, withDynamicClabe } from './payIn.output';

export { CLABE_DAYS };

const properties: INodeProperties[] = [
	{
		displayName:
			'Mexico’s SPEI, as FacilitaPay’s public clients ask for it: the output’s Dynamic CLABE is the account the customer transfers to, valid 30 days. No source account is needed.',
		name: 'speiPaymentNotice',
		type: 'notice',
		default: '',
	},
	fields.subjectIdField('The registered customer who pays'),
	{ ...fields.valueField('Amount in Mexican pesos (MXN)'), placeholder: 'e.g. 1500.00' },
	fields.currencyField(
		'exchangeCurrency',
		'Exchange Currency',
		'Currency the amount is converted to (the currency of the To Bank Account); MXN for no conversion',
		PAY_IN_EXCHANGE_CURRENCIES,
		'MXN',
	),
	fields.bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'Your internal cash-in account that receives the funds; its currency must equal the Exchange Currency',
	),
	{
		displayName: 'Payment Description',
		name: 'paymentDescription',
		type: 'string',
		default: '',
		placeholder: 'e.g. Pedido 1001',
		description: 'What the customer pays for',
	},
	fields.metadataField,
];

export const description = transactionOperation('createSpeiPayment', properties);

/** The CLABE of the answer: `from_spei.clabe`, else `payment_info.dynamic_clabe`. */
export function clabeOf(json: IDataObject): string | undefined {
	const spei = (json.from_spei ?? {}) as IDataObject;
	const info = (json.payment_info ?? {}) as IDataObject;
	for (const candidate of [spei.clabe, spei.dynamic_clabe, info.dynamic_clabe]) {
		if (typeof candidate === 'string' && /^\d{18}$/.test(candidate)) return candidate;
	}
	return undefined;
}

/**
 * `POST /transactions` in MXN with `from_spei: {dynamic_clabe: true}` and no
 * `from_bank_account_id` (FacilitaPay's public Python client). Sent once. The output adds
 * `dynamic_clabe` and `dynamic_clabe_valid_until` (the answer's expiry, else creation + 30 days).
 */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const transaction = validateBody(
		this,
		i,
		speiPaymentSchema,
		{
			...transactionInput(this, i, { fromAccount: false, currency: 'MXN' }),
			from_spei: { dynamic_clabe: true },
			payment_description: this.getNodeParameter('paymentDescription', i, ''),
		},
		LOCAL_PAY_IN_LABELS,
	);
	const { payment_description: description, ...rest } = transaction;
	const body = withMetadata(this, i, description === undefined ? rest : transaction);
	return createTransaction(this, i, '/transactions', { transaction: body }, (data) => {
		const json = answerAsJson(data);
		return withDynamicClabe(json, clabeOf(json));
	});
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = { record: inSubjectTransactions };
