import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { payoutSchema, TRANSACTION_LABELS } from '../../schemas/transaction';
import { bankAccountIdField, currencyField, subjectIdField, valueField } from '../common/fields';
import { validateBody } from '../common/input';
import type { ItemWork } from '../node.type';
import { answerAsJson } from '../common/output';
import { locatorValue } from '../common/locator';

const properties: INodeProperties[] = [
	subjectIdField('ID of the customer who receives the money'),
	valueField('Amount in the source currency with exactly two decimals'),
	currencyField('currency', 'Currency', 'Source currency (ISO 4217), e.g. your foreign-currency balance', undefined, 'USD'),
	currencyField('exchangeCurrency', 'Exchange Currency', 'Currency paid out (BRL for a BRL payout)'),
	bankAccountIdField('fromBankAccountId', 'From Bank Account ID', 'Your cash-out internal account at FacilitaPay'),
	bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'The customer’s registered bank account. With bank details and a PIX key both registered, TED is preferred; with only a PIX key, PIX is used.',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['createPayout'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const transaction = validateBody(
		this,
		i,
		payoutSchema,
		{
			subject_id: locatorValue(this, 'subjectId', i),
			from_bank_account_id: this.getNodeParameter('fromBankAccountId', i),
			to_bank_account_id: this.getNodeParameter('toBankAccountId', i),
			currency: this.getNodeParameter('currency', i),
			exchange_currency: this.getNodeParameter('exchangeCurrency', i),
			value: this.getNodeParameter('value', i),
		},
		TRANSACTION_LABELS,
	);
	return {
		request: {
			method: 'POST',
			path: '/transactions',
			body: { transaction: transaction as IDataObject },
			retry: 'sendOnce',
			itemIndex: i,
		},
		output: (data) => [{ json: answerAsJson(data) }],
	};
}
