import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { CardSecrets } from '../../security/cardData';

/** Brands offered in the dropdown, sorted by name; an expression may give any other brand. */
export const CARD_BRAND_OPTIONS = [
	{ name: 'American Express', value: 'amex' },
	{ name: 'Diners Club', value: 'diners' },
	{ name: 'Discover', value: 'discover' },
	{ name: 'Elo', value: 'elo' },
	{ name: 'Hipercard', value: 'hipercard' },
	{ name: 'JCB', value: 'jcb' },
	{ name: 'Mastercard', value: 'mastercard' },
	{ name: 'Visa', value: 'visa' },
];

/**
 * The card as the customer gives it: number, expiry, brand, security code and the holder's full
 * name. Used by Subscription > Create (card) and Subscription > Submit 3DS Challenge.
 */
export const cardProperties: INodeProperties[] = [
	{
		displayName: 'Card Number',
		name: 'cardNumber',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description:
			'Digits of the card number (at least 13). Spaces and dashes are removed. It is never shown in the output or in errors: only its last 4 digits are.',
	},
	{
		displayName: 'Card Expiration Date',
		name: 'cardExpirationDate',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 08/2029',
		description: 'Month and year as MM/YYYY. An expired card is refused before anything is sent.',
	},
	{
		displayName: 'Card Brand',
		name: 'cardBrand',
		type: 'options',
		required: true,
		options: CARD_BRAND_OPTIONS,
		default: 'visa',
		description:
			'Brand of the card. For a brand not listed, use an expression that gives its name in lower case.',
	},
	{
		displayName: 'Card Security Code',
		name: 'cardSecurityCode',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description:
			'The 3-digit code on the back of the card. It is never shown in the output or in errors.',
	},
	{
		displayName: 'Cardholder Full Name',
		name: 'fullname',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Maria Silva',
		description: 'First and last name as printed on the card',
	},
];

/** Reads the card parameters as the API names them (`card_number`, `fullname`…). */
export function cardFromParameters(ctx: IExecuteFunctions, i: number): IDataObject {
	return {
		card_number: ctx.getNodeParameter('cardNumber', i, '') as string,
		card_expiration_date: ctx.getNodeParameter('cardExpirationDate', i, '') as string,
		card_brand: ctx.getNodeParameter('cardBrand', i, '') as string,
		card_security_code: ctx.getNodeParameter('cardSecurityCode', i, '') as string,
		fullname: ctx.getNodeParameter('fullname', i, '') as string,
	};
}

/** The card number and security code as typed, to hide them in answers and errors. */
export function secretsOf(card: IDataObject): CardSecrets {
	return {
		cardNumber: String(card.card_number ?? '').replace(/[\s-]+/g, '') || undefined,
		securityCode: String(card.card_security_code ?? '').trim() || undefined,
	};
}
