import { invalid, valid, type Check } from './result';

// No reason text in this file ever repeats a card number or a security code: error messages end
// up in execution logs and screenshots.

/**
 * A card number: spaces and dashes removed, digits only, 13 to 19 digits (the spec: "no spaces;
 * at least 13 characters"; 19 is the longest card number issued).
 *
 * The Luhn checksum is deliberately NOT enforced: the spec does not ask for it, the service
 * decides, and sandbox test cards are not guaranteed to pass it. Rejecting them locally would
 * block tests without protecting anything.
 */
export function checkCardNumber(raw: string): Check {
	const text = String(raw ?? '').replace(/[\s-]+/g, '');
	if (text === '') return invalid('is empty; enter the card number');
	if (!/^\d+$/.test(text)) {
		return invalid(
			'contains characters other than digits; enter only the digits of the card number',
		);
	}
	if (text.length < 13) {
		return invalid(`has ${text.length} digits; a card number has at least 13 digits`);
	}
	if (text.length > 19) {
		return invalid(`has ${text.length} digits; a card number has at most 19 digits`);
	}
	return valid(text);
}

/** Whether a string of digits passes the Luhn checksum (the last digit checks the others). */
export function passesLuhn(digits: string): boolean {
	let sum = 0;
	for (let index = 0; index < digits.length; index++) {
		let digit = Number(digits[digits.length - 1 - index]);
		if (index % 2 === 1) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return digits.length > 0 && sum % 10 === 0;
}

/**
 * A card number for a card payment (Transaction > Create Card Payment): as `checkCardNumber`, and
 * its last digit must check the others (Luhn), as every issued card number's does: a number that
 * fails it is mistyped, and is refused before the card is charged.
 */
export function checkCardNumberForPayment(raw: string): Check {
	const result = checkCardNumber(raw);
	if (!result.ok) return result;
	if (!passesLuhn(result.value)) {
		return invalid(
			'is not a valid card number: its check digit does not match (Luhn); check the digits as printed on the card',
		);
	}
	return result;
}

/**
 * The first digits of the brands whose number ranges are published by the network and do not
 * overlap another brand the node offers (ISO/IEC 7812 issuer identification numbers): Visa 4;
 * Mastercard 51-55 and 2221-2720; American Express 34 and 37, 15 digits. Other brands (Elo,
 * Hipercard, Diners, Discover, JCB) share ranges with these or with each other, so they are left to
 * FacilitaPay.
 */
const BRAND_RANGES: Record<
	string,
	{ name: string; starts: string; test: (digits: string) => boolean }
> = {
	visa: { name: 'Visa', starts: 'start with 4', test: (digits) => digits.startsWith('4') },
	mastercard: {
		name: 'Mastercard',
		starts: 'start with 51 to 55 or 2221 to 2720',
		test: (digits) => {
			const two = Number(digits.slice(0, 2));
			const four = Number(digits.slice(0, 4));
			return (two >= 51 && two <= 55) || (four >= 2221 && four <= 2720);
		},
	},
	amex: {
		name: 'American Express',
		starts: 'start with 34 or 37 and have 15 digits',
		test: (digits) => /^3[47]/.test(digits) && digits.length === 15,
	},
};

/**
 * Whether the brand chosen fits the card number (`digits`, already checked): a card number that
 * cannot be of that brand means the brand, or the number, was mistyped. Only brands whose ranges
 * are published and distinct are checked (BRAND_RANGES); any other brand passes. The reason names
 * no digit of the card.
 */
export function checkBrandFitsNumber(brand: string, digits: string): Check {
	const range = BRAND_RANGES[brand];
	if (!range || range.test(digits)) return valid(brand);
	return invalid(
		`is ${brand}, but the card number is not a ${range.name} number (${range.name} numbers ${range.starts}); choose the brand printed on the card, or check the card number`,
	);
}

/** The security code (CVV/CVC): exactly 3 digits, surrounding spaces ignored. */
export function checkSecurityCode(raw: string): Check {
	const text = String(raw ?? '').trim();
	if (text === '')
		return invalid('is empty; enter the 3-digit code printed on the back of the card');
	if (!/^\d+$/.test(text))
		return invalid('must contain digits only; the security code has 3 digits');
	if (text.length !== 3) {
		return invalid(
			`has ${text.length} ${text.length === 1 ? 'digit' : 'digits'}; the service accepts a security code of exactly 3 digits`,
		);
	}
	return valid(text);
}

/** The cardholder's full name: at least two words; spaces are collapsed. */
export function checkFullName(raw: string): Check {
	const text = String(raw ?? '')
		.trim()
		.replace(/\s+/g, ' ');
	if (text === '')
		return invalid('is empty; enter the full name as printed on the card, e.g. Maria Silva');
	const words = text.split(' ').filter((word) => /\p{L}/u.test(word));
	if (words.length < 2) {
		return invalid(
			'is not a full name; enter first and last name as printed on the card, e.g. Maria Silva',
		);
	}
	return valid(text);
}

/**
 * Masks all but the last 4 digits, in groups of 4: "4111 1111 1111 1234" → "**** **** **** 1234".
 * Anything other than digits is ignored; with 4 digits or fewer everything is masked.
 */
export function maskCardNumber(raw: string): string {
	const digits = String(raw ?? '').replace(/\D/g, '');
	if (digits.length <= 4) return '*'.repeat(digits.length);
	const masked = '*'.repeat(digits.length - 4).replace(/(.{4})(?=.)/g, '$1 ');
	return `${masked} ${digits.slice(-4)}`;
}

/** `from_card.threeds.challengeWindowSize` values, sorted. */
export const CHALLENGE_WINDOW_SIZES = [
	'250x400',
	'390x400',
	'500x600',
	'600x400',
	'fullPage',
] as const;

/** `from_card.meta.mcc` values (dynamic merchant category codes), sorted. */
export const MCC_CODES = ['4722', '5045', '5065', '5947', '7372', '8299', '8999'] as const;

/** The service uses only the first 13 characters of the soft descriptor. */
export const SOFT_DESCRIPTOR_LENGTH = 13;

/**
 * Keeps the first 13 characters (letters, not UTF-16 units) of the soft descriptor, trimmed;
 * `truncated` tells whether something was cut so the caller can warn.
 */
export function truncateSoftDescriptor(raw: string): { value: string; truncated: boolean } {
	const characters = [...String(raw ?? '').trim()];
	if (characters.length <= SOFT_DESCRIPTOR_LENGTH)
		return { value: characters.join(''), truncated: false };
	return { value: characters.slice(0, SOFT_DESCRIPTOR_LENGTH).join('').trimEnd(), truncated: true };
}
