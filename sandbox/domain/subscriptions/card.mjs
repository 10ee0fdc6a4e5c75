/**
 * The payer's card of a card subscription: the card fields, the 3DS browser data and the stored
 * (masked) card, checked and built by plain functions.
 */
import { isBlank, toBool } from '../../validation.mjs';

export const MCC_CODES = ['8999', '5045', '4722', '8299', '5947', '5065', '7372'];
export const CHALLENGE_WINDOW_SIZES = ['fullPage', '250x400', '390x400', '500x600', '600x400'];
export const THREEDS_REQUIRED = [
	'httpAcceptBrowserValue',
	'httpBrowserLanguage',
	'httpBrowserJavaEnabled',
	'httpBrowserJavaScriptEnabled',
	'httpBrowserColorDepth',
	'httpBrowserScreenHeight',
	'httpBrowserScreenWidth',
	'httpBrowserTimeDifference',
	'userAgentBrowserValue',
	'ipAddress',
	'challengeWindowSize',
];
/** A card number that always declines. */
export const DECLINED_CARD = '4000000000000002';

/**
 * The card's own fields (number, expiry against `now`, brand, security code, holder's name).
 * @param {import('../../validation.mjs').Errors} errors @param {any} card
 * @param {string} prefix e.g. `from_card.` @param {number} now epoch ms
 */
export function validateCard(errors, card, prefix, now) {
	const fieldPath = (field) => `${prefix}${field}`;
	if (card.card_type !== undefined && !['credit', 'debit'].includes(card.card_type))
		errors.add(fieldPath('card_type'), 'must be credit or debit');
	if (isBlank(card.card_number)) errors.add(fieldPath('card_number'), "can't be blank");
	else if (!/^\d+$/.test(String(card.card_number)))
		errors.add(fieldPath('card_number'), 'must contain only digits, without spaces');
	else if (String(card.card_number).length < 13)
		errors.add(fieldPath('card_number'), 'must have at least 13 digits');
	else if (String(card.card_number).length > 19)
		errors.add(fieldPath('card_number'), 'must have at most 19 digits');
	if (isBlank(card.card_expiration_date))
		errors.add(fieldPath('card_expiration_date'), "can't be blank");
	else {
		const match = /^(0[1-9]|1[0-2])\/(\d{4})$/.exec(String(card.card_expiration_date));
		if (!match) errors.add(fieldPath('card_expiration_date'), 'must be in the form MM/YYYY');
		else {
			const endOfMonth = Date.UTC(Number(match[2]), Number(match[1]), 1);
			if (endOfMonth <= now)
				errors.add(fieldPath('card_expiration_date'), 'is in the past (the card has expired)');
		}
	}
	if (isBlank(card.card_brand)) errors.add(fieldPath('card_brand'), "can't be blank");
	if (isBlank(card.card_security_code))
		errors.add(fieldPath('card_security_code'), "can't be blank");
	else if (!/^\d{3}$/.test(String(card.card_security_code)))
		errors.add(fieldPath('card_security_code'), 'must be 3 digits');
	if (isBlank(card.fullname)) errors.add(fieldPath('fullname'), "can't be blank");
	else if (String(card.fullname).trim().split(/\s+/).length < 2)
		errors.add(fieldPath('fullname'), "must be the cardholder's full name (first and last name)");
}

/** `from_card.meta` (device fingerprint reference and merchant category code). */
export function validateCardMeta(errors, card) {
	const meta = card.meta && typeof card.meta === 'object' ? card.meta : {};
	if (isBlank(meta.df_reference_id)) errors.add('from_card.meta.df_reference_id', "can't be blank");
	if (isBlank(meta.mcc)) errors.add('from_card.meta.mcc', "can't be blank");
	else if (!MCC_CODES.includes(String(meta.mcc)))
		errors.add('from_card.meta.mcc', `must be one of: ${MCC_CODES.join(', ')}`);
}

/** `from_card.threeds`: the payer's browser data for 3-D Secure. */
export function validateThreeds(errors, threeds) {
	if (!threeds || typeof threeds !== 'object') {
		errors.add('from_card.threeds', "can't be blank");
		return;
	}
	for (const field of THREEDS_REQUIRED)
		if (isBlank(threeds[field])) errors.add(`from_card.threeds.${field}`, "can't be blank");
	for (const field of ['httpBrowserJavaEnabled', 'httpBrowserJavaScriptEnabled']) {
		if (!isBlank(threeds[field]) && toBool(threeds[field]) === undefined)
			errors.add(`from_card.threeds.${field}`, 'must be "true" or "false"');
	}
	for (const field of [
		'httpBrowserColorDepth',
		'httpBrowserScreenHeight',
		'httpBrowserScreenWidth',
	]) {
		if (!isBlank(threeds[field]) && !/^\d+$/.test(String(threeds[field])))
			errors.add(`from_card.threeds.${field}`, 'must be a number');
	}
	if (
		!isBlank(threeds.httpBrowserTimeDifference) &&
		!/^-?\d+$/.test(String(threeds.httpBrowserTimeDifference))
	)
		errors.add('from_card.threeds.httpBrowserTimeDifference', 'must be a number of minutes');
	if (
		!isBlank(threeds.challengeWindowSize) &&
		!CHALLENGE_WINDOW_SIZES.includes(threeds.challengeWindowSize)
	) {
		errors.add(
			'from_card.threeds.challengeWindowSize',
			`must be one of: ${CHALLENGE_WINDOW_SIZES.join(', ')}`,
		);
	}
}

/** The card as stored and shown: no number beyond its last 4 digits, no security code. */
export function maskCard(card) {
	const number = String(card.card_number);
	return {
		card_type: card.card_type ?? 'credit',
		card_brand: card.card_brand,
		last4: number.slice(-4),
		card_expiration_date: card.card_expiration_date,
		fullname: card.fullname,
	};
}

/**
 * What a charge of the subscription yields: a decline asked for through the control endpoint
 * (`forced`, one per charge), the always-declining card, or success.
 * @returns {{ok: true} | {ok: false, reason: string, forced?: boolean}}
 */
export function chargeOutcome(sub) {
	if (sub._declineNext > 0)
		return {
			ok: false,
			reason: sub.payment_method === 'card' ? 'card_declined' : 'insufficient_funds',
			forced: true,
		};
	if (sub._cardNumber === DECLINED_CARD) return { ok: false, reason: 'card_declined' };
	return { ok: true };
}
