import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ErrorFacts } from '../transport';
import { errorFromFacts, factsOf } from '../transport';
import { maskCardNumber } from '../validation/card';

/**
 * Card data this item sent, so that it can be found and hidden wherever the service echoes it.
 * Either may be missing (reads send no card).
 */
export interface CardSecrets {
	cardNumber?: string;
	securityCode?: string;
}

const MASKED_CODE = '***';

/** Keys (lower case, without `_` or `-`) that hold a card number. */
const NUMBER_KEYS = new Set(['cardnumber', 'pan', 'creditcardnumber']);
/** Keys that hold a security code. */
const CODE_KEYS = new Set([
	'cardsecuritycode',
	'securitycode',
	'cvv',
	'cvv2',
	'cvc',
	'cvc2',
	'cid',
	'cardcvv',
]);
/** Objects that are a card: inside them a plain `number` is the card number. */
const CARD_OBJECT_KEYS = new Set(['fromcard', 'creditcard', 'card', 'fromcreditcard']);

const normalKey = (key: string) => key.toLowerCase().replace(/[_-]/g, '');

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The card number's digits, allowing the spaces or dashes someone may have written between them. */
function cardNumberPattern(cardNumber: string): RegExp | undefined {
	const digits = cardNumber.replace(/\D/g, '');
	if (digits.length < 8) return undefined;
	return new RegExp(`(?<!\\d)${digits.split('').join('[\\s-]?')}(?!\\d)`, 'g');
}

/** The security code as a separate number (not part of a longer one or of a word). */
function securityCodePattern(code: string): RegExp | undefined {
	const digits = code.replace(/\D/g, '');
	if (digits.length < 3) return undefined;
	return new RegExp(`(?<![0-9A-Za-z])${escapeRegExp(digits)}(?![0-9A-Za-z])`, 'g');
}

/**
 * Hides the card number (all but its last 4 digits) in a text; with `hideCode`, also the security
 * code wherever it stands as a number of its own. Only for texts that may quote what was sent
 * (error bodies, text inside a card object): elsewhere three digits are too common to hide.
 */
export function redactText(text: string, secrets: CardSecrets, hideCode = false): string {
	let result = text;
	const numberPattern = secrets.cardNumber ? cardNumberPattern(secrets.cardNumber) : undefined;
	if (numberPattern) result = result.replace(numberPattern, (found) => maskCardNumber(found));
	const codePattern =
		hideCode && secrets.securityCode ? securityCodePattern(secrets.securityCode) : undefined;
	if (codePattern) result = result.replace(codePattern, MASKED_CODE);
	return result;
}

/** 13 to 19 digits, maybe grouped by single spaces or dashes, not part of a longer id or word. */
const CARD_NUMBER_CANDIDATE = /(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])/g;

/** The Luhn checksum every issued card number passes. */
function passesLuhn(digits: string): boolean {
	let sum = 0;
	for (let k = 0; k < digits.length; k++) {
		let digit = Number(digits[digits.length - 1 - k]);
		if (k % 2 === 1) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return sum % 10 === 0;
}

/**
 * Masks what looks like a card number in a text even when the card is not known (a read): 13 to
 * 19 digits that pass the Luhn check.
 */
export function maskLikelyCardNumbers(text: string): string {
	return text.replace(CARD_NUMBER_CANDIDATE, (found) => {
		const digits = found.replace(/\D/g, '');
		return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits)
			? maskCardNumber(digits)
			: found;
	});
}

function maskText(text: string, secrets: CardSecrets, hideCode: boolean): string {
	return maskLikelyCardNumbers(redactText(text, secrets, hideCode));
}

/** A value under a card number key: a number is masked; a sentence about it is redacted. */
function maskNumberValue(value: unknown, secrets: CardSecrets, hideCode: boolean): unknown {
	if (typeof value === 'number') return maskCardNumber(String(value));
	if (typeof value !== 'string') return maskValue(value, secrets, true, hideCode);
	if (!/^[\d\s*.-]+$/.test(value)) return maskText(value, secrets, true);
	// Four digits or fewer: already masked by the service ("**** 1234"); nothing left to hide.
	return value.replace(/\D/g, '').length <= 4 ? value : maskCardNumber(value);
}

/** A value under a security code key: the code itself is replaced; a sentence about it is redacted. */
function maskCodeValue(value: unknown, secrets: CardSecrets): unknown {
	if (value === null || value === undefined || value === '') return value;
	if (typeof value === 'number') return MASKED_CODE;
	if (typeof value === 'string')
		return /^\s*\d{3,4}\s*$/.test(value) ? MASKED_CODE : maskText(value, secrets, true);
	return maskValue(value, secrets, true, true);
}

function maskValue(
	value: unknown,
	secrets: CardSecrets,
	inCard: boolean,
	hideCode: boolean,
): unknown {
	if (typeof value === 'string') return maskText(value, secrets, hideCode || inCard);
	if (Array.isArray(value))
		return value.map((entry) => maskValue(entry, secrets, inCard, hideCode));
	if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
	const result: IDataObject = {};
	for (const [key, inner] of Object.entries(value as IDataObject)) {
		const normal = normalKey(key);
		let masked: unknown;
		if (NUMBER_KEYS.has(normal) || (inCard && normal === 'number')) {
			masked = maskNumberValue(inner, secrets, hideCode);
		} else if (CODE_KEYS.has(normal)) {
			masked = maskCodeValue(inner, secrets);
		} else {
			masked = maskValue(inner, secrets, inCard || CARD_OBJECT_KEYS.has(normal), hideCode);
		}
		result[key] = masked as IDataObject[string];
	}
	return result;
}

/**
 * A copy of a service answer with every card number masked (`**** **** **** 1234`) and every
 * security code replaced by `***`: under the keys that hold them (`card_number`,
 * `card_security_code`, `cvv`…, and `number` inside a card object such as `from_card`); inside
 * texts, the card this item sent and anything else that looks like a card number (Luhn).
 */
export function maskCardData<T>(value: T, secrets: CardSecrets = {}, hideCodeInText = false): T {
	return maskValue(value, secrets, false, hideCodeInText) as T;
}

/**
 * The masked answer as an item's JSON: an object as it is, anything else (a text, an array) under
 * `data`.
 */
export function maskedJson(data: unknown, secrets: CardSecrets = {}): IDataObject {
	const masked = maskCardData(data, secrets);
	if (masked && typeof masked === 'object' && !Array.isArray(masked)) return masked as IDataObject;
	return { data: masked as IDataObject['data'] };
}

/**
 * The same error with the card data taken out of its message, description and the body the
 * service sent back (a validation answer may quote the card number or the security code).
 */
export function redactCardError(
	ctx: IExecuteFunctions,
	error: unknown,
	secrets: CardSecrets,
): Error {
	const facts = factsOf(error);
	if (facts) {
		// The facts keep the outcome (an unknown outcome stays unknown); only their texts are masked.
		const safe: ErrorFacts = {
			...facts,
			head: maskText(redactText(facts.head, secrets, true), secrets, false),
			detail:
				facts.detail === undefined
					? undefined
					: maskText(redactText(facts.detail, secrets, true), secrets, false),
			fix: facts.fix === undefined ? undefined : maskText(facts.fix, secrets, false),
		};
		if (error instanceof NodeApiError) {
			const response = (error.errorResponse ?? {}) as IDataObject;
			const safeBody = maskCardData(response.body, secrets, true);
			const status = Number(response.status ?? error.httpCode);
			return errorFromFacts(ctx.getNode(), safe, {
				status: Number.isFinite(status) && status > 0 ? status : undefined,
				body: safeBody,
			});
		}
		return errorFromFacts(ctx.getNode(), safe);
	}
	if (error instanceof Error) {
		const message = maskText(error.message, secrets, true);
		const description = (error as NodeOperationError).description;
		const itemIndex = (error as NodeOperationError).context?.itemIndex as number | undefined;
		if (
			message === error.message &&
			(!description || maskText(description, secrets, true) === description)
		) {
			return error;
		}
		return new NodeOperationError(ctx.getNode(), message, {
			itemIndex,
			description: description ? maskText(description, secrets, true) : undefined,
		});
	}
	return error as Error;
}

/** Runs a request that carries card data; any error it throws comes out without that data. */
export async function withCardDataHidden<T>(
	ctx: IExecuteFunctions,
	secrets: CardSecrets,
	request: () => Promise<T>,
): Promise<T> {
	try {
		return await request();
	} catch (error) {
		throw redactCardError(ctx, error, secrets);
	}
}
