import { invalid, valid, type Check } from './result';
import { asciiLowerCase } from './text';

/**
 * The service's IDs (subject, transaction, bank account…) and PIX random keys are UUIDs: hex in
 * the 8-4-4-4-12 shape of RFC 4122, any version (sandbox ids are not all version 4), either case.
 */
const UUID_SHAPE = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID_PATTERN = new RegExp(`^${UUID_SHAPE}$`);

/** The editor's regex for a UUID typed into a field: spaces around it pass, the node trims them. */
export const UUID_FIELD_REGEX = `^\\s*${UUID_SHAPE}\\s*$`;

/** Whether `text` (already trimmed) is a UUID. */
export function isUuid(text: string): boolean {
	return UUID_PATTERN.test(text);
}

/**
 * An id of the service: a UUID, trimmed, and returned in lower case as the service writes them.
 */
export function checkUuid(raw: string): Check {
	const text = asciiLowerCase(String(raw ?? '').trim());
	if (text === '')
		return invalid('is empty; enter an id such as 3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b');
	if (!isUuid(text)) {
		return invalid(
			'is not an id in the expected form: 32 hexadecimal characters in groups 8-4-4-4-12, e.g. 3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b',
		);
	}
	return valid(text);
}
