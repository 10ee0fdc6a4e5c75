import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkoutSchema, SETTLEMENT_CURRENCIES, TRANSACTION_LABELS } from '../../schemas/transaction';
import { bankAccountIdField, currencyField, subjectIdField, valueField } from '../common/fields';
import { validateBody } from '../common/input';
import type { ItemWork } from '../node.type';
import { answerAsJson } from '../common/output';
import { locatorValue } from '../common/locator';

const properties: INodeProperties[] = [
	subjectIdField('ID of the customer who pays by card'),
	valueField('Amount in the original currency with exactly two decimals'),
	currencyField('currency', 'Currency', 'Original currency (ISO 4217). Cards work in BRL, MXN, COP and CLP.'),
	currencyField(
		'exchangeCurrency',
		'Exchange Currency',
		'Currency of the destination account',
		SETTLEMENT_CURRENCIES,
	),
	bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'Destination account; its currency must equal the Exchange Currency',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['createCheckout'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const body = validateBody(
		this,
		i,
		checkoutSchema,
		{
			subject_id: locatorValue(this, 'subjectId', i),
			to_bank_account_id: this.getNodeParameter('toBankAccountId', i),
			currency: this.getNodeParameter('currency', i),
			exchange_currency: this.getNodeParameter('exchangeCurrency', i),
			value: this.getNodeParameter('value', i),
		},
		TRANSACTION_LABELS,
	);
	return {
		request: { method: 'POST', path: '/transactions/checkout', body: body as IDataObject, retry: 'sendOnce', itemIndex: i },
		output: (data) => [{ json: answerAsJson(data) }],
	};
}
