import { invalid, valid, type Check } from './result';

/**
 * A simple e-mail check: one "@", something before it, a domain with a dot after it, no spaces,
 * at most 254 characters. Trimmed; the case is kept (the part before "@" may be case-sensitive).
 */
export function checkEmail(raw: string): Check {
	const text = String(raw ?? '').trim();
	if (text === '') return invalid('is empty; enter an e-mail address such as name@example.com');
	if (text.length > 254)
		return invalid('is longer than 254 characters, the limit of an e-mail address');
	if (!/^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(text) || /\.\./.test(text)) {
		return invalid('is not an e-mail address; use the form name@example.com');
	}
	return valid(text);
}
