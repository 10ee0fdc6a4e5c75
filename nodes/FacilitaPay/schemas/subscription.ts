import { z } from 'zod';

import {
	CHALLENGE_WINDOW_SIZES,
	checkCardNumber,
	checkFullName,
	checkSecurityCode,
	MCC_CODES,
	truncateSoftDescriptor,
} from '../validation/card';
import { checkCardExpiration, type TimeZoneOption } from '../validation/dates';
import { checkMetadata, NODE_META_FIELDS } from '../validation/metadata';
import { checkCurrency, checkMoney } from '../validation/amount';
import { checkUuid } from '../validation/uuid';
import { invalid, valid, type Check } from '../validation/result';
import { asciiLowerCase } from '../validation/text';
import { checked, oneOf, optionalText, text } from './checked';

/** `frequency` values, in the order of their length. */
export const FREQUENCIES = ['day', 'week', 'month', 'quarter', 'semester', 'year'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** `total_retry_attempts`: 0 to 3. */
export const MAX_RETRY_ATTEMPTS = 3;

export const CARD_TYPES = ['credit', 'debit'] as const;

/** The names the user sees in the node for the API fields of a subscription and of a card. */
export const SUBSCRIPTION_LABELS: Record<string, string> = {
	value: 'Value',
	frequency: 'Frequency',
	cycles: 'Cycles',
	trial_days: 'Trial Days',
	free_days: 'Free Days',
	total_retry_attempts: 'Total Retry Attempts',
	to_bank_account_id: 'To Bank Account ID',
	from_bank_account_id: 'From Bank Account ID',
	subject_id: 'Subject ID',
	meta: 'Meta (JSON)',
	reason: 'Reason',
	'from_card.card_type': 'Card Type',
	'from_card.card_number': 'Card Number',
	'from_card.card_expiration_date': 'Card Expiration Date',
	'from_card.card_brand': 'Card Brand',
	'from_card.card_security_code': 'Card Security Code',
	'from_card.fullname': 'Cardholder Full Name',
	'from_card.meta.df_reference_id': 'Device Fingerprint Reference ID',
	'from_card.meta.mcc': 'Merchant Category Code',
	'from_card.threeds.softDescriptor': 'Soft Descriptor',
	'from_card.threeds.httpAcceptBrowserValue': 'Browser Accept Header',
	'from_card.threeds.httpBrowserLanguage': 'Browser Language',
	'from_card.threeds.httpBrowserJavaEnabled': 'Browser Java Enabled',
	'from_card.threeds.httpBrowserJavaScriptEnabled': 'Browser JavaScript Enabled',
	'from_card.threeds.httpBrowserColorDepth': 'Browser Color Depth',
	'from_card.threeds.httpBrowserScreenHeight': 'Browser Screen Height',
	'from_card.threeds.httpBrowserScreenWidth': 'Browser Screen Width',
	'from_card.threeds.httpBrowserTimeDifference': 'Browser Time Difference',
	'from_card.threeds.userAgentBrowserValue': 'Browser User Agent',
	'from_card.threeds.ipAddress': 'Customer IP Address',
	'from_card.threeds.challengeWindowSize': 'Challenge Window Size',
	'credit_card.card_number': 'Card Number',
	'credit_card.card_expiration_date': 'Card Expiration Date',
	'credit_card.card_brand': 'Card Brand',
	'credit_card.card_security_code': 'Card Security Code',
	'credit_card.fullname': 'Cardholder Full Name',
};

const uuid = checked(checkUuid);

/** A card brand: lower-case letters, digits, spaces, dashes or underscores (e.g. visa, elo). */
export function checkCardBrand(raw: string): Check {
	const textValue = asciiLowerCase(String(raw ?? '').trim());
	if (textValue === '') return invalid('is empty; choose the brand of the card, e.g. visa');
	if (!/^[a-z][a-z0-9 _-]{1,29}$/.test(textValue)) {
		return invalid(
			'is not a card brand; use a name such as visa, mastercard, elo, amex or hipercard',
		);
	}
	return valid(textValue);
}

/** A whole number of at least `min` (and at most `max` when given), as a number. */
const wholeNumber = (min: number, max?: number) =>
	z.union([z.number(), z.string()]).transform((raw, ctx) => {
		const number = typeof raw === 'string' ? (raw.trim() === '' ? NaN : Number(raw.trim())) : raw;
		const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
		let message: string | undefined;
		if (!Number.isFinite(number)) message = `is not a number; enter a whole number ${range}`;
		else if (!Number.isInteger(number) || number < min || (max !== undefined && number > max)) {
			message = `is ${number}; enter a whole number ${range}`;
		}
		if (message) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message });
			return z.NEVER;
		}
		return number;
	});

/** Drops an optional number left empty, then checks it. */
const optionalWholeNumber = (min: number, max?: number) =>
	z
		.union([z.number(), z.string()])
		.optional()
		.transform((value) => (value === undefined || String(value).trim() === '' ? undefined : value))
		.pipe(wholeNumber(min, max).optional());

/** `"true"` / `"false"` as the service wants them, from a UI boolean or an expression's text. */
const booleanText = z.union([z.boolean(), z.string()]).transform((raw, ctx) => {
	const value = typeof raw === 'boolean' ? String(raw) : raw.trim().toLowerCase();
	if (value !== 'true' && value !== 'false') {
		ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be true or false' });
		return z.NEVER;
	}
	return value;
});

/** A whole number written as text (3DS browser data is sent as strings). */
const integerText = (what: string, signed = false) =>
	checked((raw) => {
		const value = String(raw ?? '').trim();
		if (value === '') return invalid(`is empty; enter ${what}`);
		const pattern = signed ? /^[+-]?\d{1,6}$/ : /^\d{1,6}$/;
		if (!pattern.test(value)) {
			return invalid(
				`is "${value}"; enter ${what} as a whole number${signed ? ' (it may be negative)' : ''}`,
			);
		}
		return valid(value.replace(/^\+/, ''));
	});

/** The customer's IP address, IPv4 (`203.0.113.7`) or IPv6 (`2001:db8::1`). */
export function checkIpAddress(raw: string): Check {
	const value = String(raw ?? '').trim();
	if (value === '') return invalid("is empty; enter the IP address of the customer's device");
	const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
	const ipv6 = /^[0-9A-Fa-f:.]{2,45}$/;
	if (ipv4.test(value) || (value.includes(':') && ipv6.test(value))) return valid(value);
	return invalid(`is "${value}"; enter an IPv4 or IPv6 address, e.g. 203.0.113.7`);
}

/** A language tag such as `pt-BR` or `en`. */
export function checkLanguageTag(raw: string): Check {
	const value = String(raw ?? '').trim();
	if (value === '') return invalid("is empty; enter the browser's language, e.g. pt-BR");
	if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(value)) {
		return invalid(`is "${value}"; enter a language tag such as pt-BR or en-US`);
	}
	return valid(value);
}

/** The card itself, as both `from_card` and the 3DS challenge's `credit_card` carry it. */
const cardFields = (now: Date, options: TimeZoneOption) => ({
	card_number: checked(checkCardNumber),
	card_expiration_date: checked((raw) => checkCardExpiration(raw, now, options)),
	card_brand: checked(checkCardBrand),
	card_security_code: checked(checkSecurityCode),
	fullname: checked(checkFullName),
});

const threedsSchema = z.object({
	softDescriptor: optionalText().transform((value) =>
		value === undefined ? undefined : truncateSoftDescriptor(value).value || undefined,
	),
	httpAcceptBrowserValue: text('the Accept header of the customer’s browser'),
	httpBrowserLanguage: checked(checkLanguageTag),
	httpBrowserJavaEnabled: booleanText,
	httpBrowserJavaScriptEnabled: booleanText,
	httpBrowserColorDepth: integerText('the color depth in bits, e.g. 24'),
	httpBrowserScreenHeight: integerText('the screen height in pixels, e.g. 1080'),
	httpBrowserScreenWidth: integerText('the screen width in pixels, e.g. 1920'),
	httpBrowserTimeDifference: integerText(
		'the minutes between UTC and the browser’s time, e.g. 180',
		true,
	),
	userAgentBrowserValue: text('the User-Agent header of the customer’s browser'),
	ipAddress: checked(checkIpAddress),
	challengeWindowSize: oneOf(
		CHALLENGE_WINDOW_SIZES as unknown as [string, ...string[]],
		'the 3DS challenge window size',
	),
});

/** Your own data on the subscription: a JSON object of at most 8 kB, without the node's own key. */
const metaObject = z.unknown().superRefine((value, ctx) => {
	if (value === undefined) return;
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: 'must be a JSON object, e.g. {"order_id": "1234"}',
		});
		return;
	}
	const result = checkMetadata(value, NODE_META_FIELDS);
	if (!result.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.reason });
});

const commonFields = {
	// A number from an expression is money too (10.5 → "10.50"), as for transactions.
	value: checked(checkMoney, { keepNumbers: true }),
	currency: checked((raw) => checkCurrency(raw, ['BRL'])),
	frequency: oneOf(
		FREQUENCIES as unknown as [string, ...string[]],
		'how often the customer is charged',
	),
	cycles: wholeNumber(1),
	trial_days: optionalWholeNumber(0),
	free_days: optionalWholeNumber(0),
	total_retry_attempts: optionalWholeNumber(0, MAX_RETRY_ATTEMPTS),
	description: optionalText(),
	to_bank_account_id: uuid,
	subject_id: uuid,
	meta: metaObject,
};

/**
 * `POST /subscriptions` body (`subscription`) for a card subscription. The card must not have
 * expired in the current month of `options.timeZone` (the workflow's time zone; UTC when not given).
 */
export const cardSubscriptionSchema = (now: Date, options: TimeZoneOption = {}) =>
	z.object({
		...commonFields,
		from_card: z.object({
			card_type: oneOf(CARD_TYPES as unknown as [string, ...string[]], 'the type of card'),
			...cardFields(now, options),
			meta: z.object({
				df_reference_id: text('the session id returned by device data collection'),
				mcc: oneOf(MCC_CODES as unknown as [string, ...string[]], 'the merchant category code'),
			}),
			threeds: threedsSchema,
		}),
	});

/** `POST /subscriptions` body (`subscription`) for an automatic PIX subscription. */
export const automaticPixSubscriptionSchema = z
	.object({ ...commonFields, from_bank_account_id: uuid })
	.superRefine((subscription, ctx) => {
		if (subscription.frequency === 'day') {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['frequency'],
				message:
					'is day, which automatic PIX does not allow; choose week, month, quarter, semester or year',
			});
		}
	});

/** `POST /subscriptions/:id/threeds_challenge` body. */
export const threedsChallengeSchema = (now: Date, options: TimeZoneOption = {}) =>
	z.object({ credit_card: z.object(cardFields(now, options)) });

/** `PUT /subscriptions/:id/cancel` body. */
export const cancelSubscriptionSchema = z.object({
	reason: text('why the subscription is cancelled, e.g. Customer asked to stop'),
});
