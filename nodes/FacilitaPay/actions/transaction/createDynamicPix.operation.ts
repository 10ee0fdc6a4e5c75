import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { clock } from '../../clock';
import {
	dynamicPixSchema,
	SETTLEMENT_CURRENCIES,
	TRANSACTION_LABELS,
} from '../../schemas/transaction';
import * as fields from '../common/fields';
import { invalidInput, validateBody, withMetadata } from '../common/input';
import { checkDynamicPixExpiry } from '../../validation/dates';
import { pixOutputItem, qrCodeImageFields, qrCodeTarget } from './pix.output';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { createTransaction, transactionInput, transactionOperation } from './transaction.requests';
import { answerAsJson } from '../common/output';
import { inSubjectTransactions } from '../../money';
import { checkReviewedText, reviewFields } from './review.fields';

export const properties: INodeProperties[] = [
	fields.subjectIdField('ID of the registered customer who will pay'),
	fields.valueField(
		'Amount in BRL with exactly two decimals. The QR code’s amount cannot change later.',
	),
	{
		displayName: 'Expires At',
		name: 'dynamicPixExpiresAt',
		type: 'dateTime',
		default:
			'={{ $now.plus({ hours: 1 }).toUTC().startOf("second").toISO({ suppressMilliseconds: true }) }}',
		description:
			'When the QR code stops accepting payment; clear it to let FacilitaPay decide. More than one minute ahead; a time without a zone is in the workflow’s time zone.',
		hint: 'An unpaid code sends the payment_expired event',
	},
	fields.bankAccountIdField(
		'fromBankAccountId',
		'From Bank Account ID',
		'Your exclusive BRL bank account at FacilitaPay. It must have a registered PIX key.',
	),
	fields.bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'Account that receives the funds; its currency must equal the Exchange Currency',
	),
	fields.currencyField(
		'exchangeCurrency',
		'Exchange Currency',
		'Currency the BRL received is converted to (the destination account’s currency)',
		SETTLEMENT_CURRENCIES,
	),
	...qrCodeImageFields,
	fields.metadataField,
];

export const description = transactionOperation('createDynamicPix', [
	...properties,
	...reviewFields('createDynamicPix'),
]);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const work = await dynamicPixWork.call(this, i);
	await checkReviewedText(this, i, 'createDynamicPix', work);
	return work;
}

/** The checked request of item `i` (also what Describe for Review describes). */
export async function dynamicPixWork(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const transaction = validateBody(
		this,
		i,
		dynamicPixSchema(clock.now(), { timeZone: this.getTimezone() }),
		{
			...transactionInput(this, i, { fromAccount: true, currency: 'BRL' }),
			use_dynamic_pix: true,
			dynamic_pix_expires_at: this.getNodeParameter('dynamicPixExpiresAt', i, ''),
		},
		TRANSACTION_LABELS,
	);
	const qrProperty = qrCodeTarget(this, i);
	const work = createTransaction(
		this,
		i,
		'/transactions',
		{ transaction: withMetadata(this, i, transaction as IDataObject) },
		async function (data) {
			const json = answerAsJson(data);
			return [await pixOutputItem(this, json, json, qrProperty)];
		},
	);
	const expiresAt = transaction.dynamic_pix_expires_at;
	if (expiresAt !== undefined) work.beforeSend = recheckExpiry(i, expiresAt);
	return work;
}

/**
 * The expiry checked again against the clock when the request is about to leave: many items, a
 * rate limit or a slow service can make an item wait long enough for a time that was more than a
 * minute ahead when checked to be less now, which FacilitaPay refuses.
 */
export function recheckExpiry(i: number, expiresAt: string): (this: IExecuteFunctions) => void {
	return function (this: IExecuteFunctions) {
		const result = checkDynamicPixExpiry(expiresAt, clock.now());
		if (!result.ok) {
			throw invalidInput(
				this,
				i,
				'Expires At',
				`${result.reason} (it was more than a minute ahead when the item was checked, but the item waited for its turn to be sent)`,
				'Set a later expiry (e.g. {{ $now.plus({ minutes: 30 }) }}) or send fewer items at once, and run the node again.',
			);
		}
	};
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = { record: inSubjectTransactions };
