import { invalid, valid, type Check } from './result';

/**
 * The shape of an e-mail address: one "@", something before it, a domain with a dot after it, no
 * spaces, no ".." (an e-mail PIX key is checked by it too).
 */
export function isEmailAddress(text: string): boolean {
	return /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(text) && !/\.\./.test(text);
}

/**
 * A simple e-mail check: one "@", something before it, a domain with a dot after it, no spaces,
 * at most 254 characters. Trimmed; the case is kept (the part before "@" may be case-sensitive).
 */
export function checkEmail(raw: string): Check {
	const text = String(raw ?? '').trim();
	if (text === '') return invalid('is empty; enter an e-mail address such as name@example.com');
	if (text.length > 254)
		return invalid('is longer than 254 characters, the limit of an e-mail address');
	if (!isEmailAddress(text)) {
		return invalid('is not an e-mail address; use the form name@example.com');
	}
	return valid(text);
}
