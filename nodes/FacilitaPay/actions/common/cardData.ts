import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { describeErrorBody } from '../../transport';
import { maskCardNumber } from '../../validation/card';

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
const CODE_KEYS = new Set(['cardsecuritycode', 'securitycode', 'cvv', 'cvv2', 'cvc', 'cvc2', 'cid', 'cardcvv']);
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
	const codePattern = hideCode && secrets.securityCode ? securityCodePattern(secrets.securityCode) : undefined;
	if (codePattern) result = result.replace(codePattern, MASKED_CODE);
	return result;
}

function maskNumberValue(value: unknown): unknown {
	if (typeof value !== 'string' && typeof value !== 'number') return value;
	const digits = String(value).replace(/\D/g, '');
	// Four digits or fewer: already masked by the service ("**** 1234"); nothing left to hide.
	return digits.length <= 4 ? value : maskCardNumber(String(value));
}

function maskValue(value: unknown, secrets: CardSecrets, inCard: boolean, hideCode: boolean): unknown {
	if (typeof value === 'string') return redactText(value, secrets, hideCode || inCard);
	if (Array.isArray(value)) return value.map((entry) => maskValue(entry, secrets, inCard, hideCode));
	if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
	const result: IDataObject = {};
	for (const [key, inner] of Object.entries(value as IDataObject)) {
		const normal = normalKey(key);
		if (NUMBER_KEYS.has(normal) || (inCard && normal === 'number')) {
			result[key] = maskNumberValue(inner) as IDataObject[string];
		} else if (CODE_KEYS.has(normal)) {
			result[key] = inner === null || inner === undefined || inner === '' ? inner : MASKED_CODE;
		} else {
			result[key] = maskValue(inner, secrets, inCard || CARD_OBJECT_KEYS.has(normal), hideCode) as IDataObject[string];
		}
	}
	return result;
}

/**
 * A copy of a service answer with every card number masked (`**** **** **** 1234`) and every
 * security code replaced by `***`: under the keys that hold them (`card_number`,
 * `card_security_code`, `cvv`…, and `number` inside a card object such as `from_card`), and, for
 * the card this item sent, anywhere inside a text.
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
export function redactCardError(ctx: IExecuteFunctions, error: unknown, secrets: CardSecrets): Error {
	if (error instanceof NodeApiError) {
		const response = (error.errorResponse ?? {}) as IDataObject;
		const body = response.body;
		const safeBody = maskCardData(body, secrets, true);
		let message = error.message;
		const rawDetail = describeErrorBody(body);
		const safeDetail = describeErrorBody(safeBody);
		if (rawDetail && safeDetail && message.includes(rawDetail)) {
			message = message.replace(rawDetail, safeDetail);
		} else {
			message = redactText(message, secrets, true);
		}
		message = redactText(message, secrets);
		const description = error.description ? redactText(error.description, secrets) : undefined;
		return new NodeApiError(
			ctx.getNode(),
			{ message, status: (response.status ?? null) as string, body: (safeBody ?? null) as JsonObject },
			{
				message,
				description: description ?? undefined,
				httpCode: error.httpCode ?? undefined,
				itemIndex: error.context.itemIndex as number | undefined,
			},
		);
	}
	if (error instanceof Error) {
		const message = redactText(error.message, secrets, true);
		const description = (error as NodeOperationError).description;
		const itemIndex = (error as NodeOperationError).context?.itemIndex as number | undefined;
		if (message === error.message && (!description || redactText(description, secrets, true) === description)) {
			return error;
		}
		return new NodeOperationError(ctx.getNode(), message, {
			itemIndex,
			description: description ? redactText(description, secrets, true) : undefined,
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
