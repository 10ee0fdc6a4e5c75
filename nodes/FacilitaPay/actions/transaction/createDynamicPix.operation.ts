import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dynamicPixSchema, SETTLEMENT_CURRENCIES, TRANSACTION_LABELS } from '../../schemas/transaction';
import { bankAccountIdField, currencyField, subjectIdField, valueField } from '../common/fields';
import { validateBody } from '../common/input';
import { pixOutputItem, qrCodeImageFields, qrCodeTarget } from './pixOutput';
import type { ItemWork } from '../node.type';
import { answerAsJson } from '../common/output';
import { locatorValue } from '../common/locator';

const properties: INodeProperties[] = [
	subjectIdField('ID of the registered customer who will pay'),
	valueField('Amount in BRL with exactly two decimals. The QR code’s amount cannot change later.'),
	{
		displayName: 'Expires At',
		name: 'dynamicPixExpiresAt',
		type: 'dateTime',
		required: true,
		default: '={{ $now.plus({ hours: 1 }).toUTC().startOf("second").toISO({ suppressMilliseconds: true }) }}',
		description:
			'When the QR code stops accepting payment. Must be more than one minute ahead; a time without a zone is read as UTC. Unpaid codes send the payment_expired event.',
	},
	bankAccountIdField(
		'fromBankAccountId',
		'From Bank Account ID',
		'Your exclusive BRL bank account at FacilitaPay. It must have a registered PIX key.',
	),
	bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'Account that receives the funds; its currency must equal the Exchange Currency',
	),
	currencyField(
		'exchangeCurrency',
		'Exchange Currency',
		'Currency the BRL received is converted to (the destination account’s currency)',
		SETTLEMENT_CURRENCIES,
	),
	...qrCodeImageFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['createDynamicPix'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const transaction = validateBody(
		this,
		i,
		dynamicPixSchema(new Date()),
		{
			subject_id: locatorValue(this, 'subjectId', i),
			from_bank_account_id: this.getNodeParameter('fromBankAccountId', i),
			to_bank_account_id: this.getNodeParameter('toBankAccountId', i),
			currency: 'BRL',
			exchange_currency: this.getNodeParameter('exchangeCurrency', i),
			value: this.getNodeParameter('value', i),
			use_dynamic_pix: true,
			dynamic_pix_expires_at: this.getNodeParameter('dynamicPixExpiresAt', i),
		},
		TRANSACTION_LABELS,
	);
	const qrProperty = qrCodeTarget(this, i);
	return {
		request: {
			method: 'POST',
			path: '/transactions',
			body: { transaction: transaction as IDataObject },
			retry: 'sendOnce',
			itemIndex: i,
		},
		async output(data) {
			const json = answerAsJson(data);
			return [await pixOutputItem(this, json, json, qrProperty)];
		},
	};
}
