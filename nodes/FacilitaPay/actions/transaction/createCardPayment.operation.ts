import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { clock } from '../../clock';
import { CARD_PAYMENT_LABELS, cardPaymentSchemaFor } from '../../schemas/cardPayment';
import { maskedJson, withCardDataHidden } from '../../security/cardData';
import { CARD_CURRENCIES } from '../../validation/amount';
import {
	ADDITIONAL_FIELDS,
	currencyField,
	metadataField,
	documentTypeOptions,
	subjectIdField,
	valueField,
} from '../common/fields';
import { compact, validateBody, withMetadata } from '../common/input';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { inSubjectTransactions } from '../../money';
import { cardFromParameters, cardProperties, secretsOf } from '../subscription/card.fields';
import { createTransaction, transactionInput, transactionOperation } from './transaction.requests';
import { cardDestinationFields } from './cardDestination.fields';
import { DOCUMENT_TYPES } from '../../validation/documents';

const properties: INodeProperties[] = [
	{
		displayName:
			'Charges the card once, now. Card data passes through n8n: read docs/card-data.md for what this means for your PCI scope, or use Create Card Checkout to let FacilitaPay’s page take the card.',
		name: 'cardPaymentNotice',
		type: 'notice',
		default: '',
	},
	subjectIdField('The registered customer who pays by card'),
	{
		...valueField('Amount charged to the card'),
		hint: 'Written with a dot and two decimals (150.00); CLP has no decimals (15000)',
	},
	currencyField(
		'currency',
		'Currency',
		'Currency charged to the card (ISO 4217). Cards work in BRL, CLP, COP and MXN only.',
		CARD_CURRENCIES,
	),
	...cardDestinationFields,
	...cardProperties,
	metadataField,
	{
		...ADDITIONAL_FIELDS,
		options: [
			{
				displayName: 'Cardholder Document Number',
				name: 'documentNumber',
				type: 'string',
				default: '',
				placeholder: 'e.g. 39053344705',
				description:
					'The cardholder’s document, checked by its type (a CPF’s check digits…); punctuation is removed',
			},
			{
				displayName: 'Cardholder Document Type',
				name: 'documentType',
				type: 'options',
				options: documentTypeOptions(DOCUMENT_TYPES),
				default: 'cpf',
				description: 'Type of the cardholder’s document; needed with a Cardholder Document Number',
			},
			{
				displayName: 'Cardholder Phone Area Code',
				name: 'phoneAreaCode',
				type: 'string',
				default: '',
				placeholder: 'e.g. 11',
			},
			{
				displayName: 'Cardholder Phone Country Code',
				name: 'phoneCountryCode',
				type: 'string',
				default: '',
				placeholder: 'e.g. 55',
			},
			{
				displayName: 'Cardholder Phone Number',
				name: 'phoneNumber',
				type: 'string',
				default: '',
				placeholder: 'e.g. 987654321',
			},
		],
	},
];

export const description = transactionOperation('createCardPayment', properties);

/**
 * `POST /transactions` with `from_credit_card`: the card is charged once (a money-moving request),
 * approved or declined at once. The card number and security code never reach the output, an
 * error or the preview: only the last 4 digits are shown. The output adds `approved` (from the
 * answer's `from_credit_card.status`, when it has one).
 */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const card = cardFromParameters(this, i);
	const secrets = secretsOf(card);
	const additional = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	return await withCardDataHidden(this, secrets, async () => {
		const holder = compact({
			document_number: additional.documentNumber,
			document_type:
				additional.documentNumber !== undefined && String(additional.documentNumber).trim() !== ''
					? (additional.documentType ?? 'cpf')
					: undefined,
			phone_country_code: additional.phoneCountryCode,
			phone_area_code: additional.phoneAreaCode,
			phone_number: additional.phoneNumber,
		} as IDataObject);
		const transaction = validateBody(
			this,
			i,
			cardPaymentSchemaFor(clock.now(), { timeZone: this.getTimezone() }),
			{
				...transactionInput(this, i, { fromAccount: false }),
				from_credit_card: { ...card, ...holder },
			},
			CARD_PAYMENT_LABELS,
		);
		const body = {
			...withMetadata(this, i, transaction as IDataObject),
			from_credit_card: compact(transaction.from_credit_card as IDataObject),
		};
		return {
			...createTransaction(this, i, '/transactions', { transaction: body }, (data) => {
				const json = maskedJson(data, secrets);
				const status = (json.from_credit_card as IDataObject | undefined)?.status;
				return [
					{ json: status === undefined ? json : { ...json, approved: status === 'approved' } },
				];
			}),
			cardSecrets: secrets,
		};
	});
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = { record: inSubjectTransactions };
