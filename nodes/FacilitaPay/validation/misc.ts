import { invalid, valid, type Check } from './result';
import { asciiLowerCase } from './text';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * An id of the service (subject, transaction, bank account…): a hex UUID in the 8-4-4-4-12 shape
 * of RFC 4122, any version (sandbox ids are not all version 4), case-insensitive, trimmed, and
 * returned in lower case as the service writes them.
 */
export function checkUuid(raw: string): Check {
	const text = asciiLowerCase(String(raw ?? '').trim());
	if (text === '')
		return invalid('is empty; enter an id such as 3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b');
	if (!UUID_PATTERN.test(text)) {
		return invalid(
			'is not an id in the expected form: 32 hexadecimal characters in groups 8-4-4-4-12, e.g. 3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b',
		);
	}
	return valid(text);
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
	if (!/^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(text) || /\.\./.test(text)) {
		return invalid('is not an e-mail address; use the form name@example.com');
	}
	return valid(text);
}
