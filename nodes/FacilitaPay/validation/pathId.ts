import { invalid, valid, type Check } from './result';
import { describeCharacter } from './text';
import { checkUuid } from './uuid';

/** The most an ID placed into a URL path may have. */
export const MAX_PATH_ID_LENGTH = 128;

/** The only characters an ID placed into a URL path may have. */
const PATH_ID_CHARACTER = /[A-Za-z0-9_-]/;
const PATH_ID_SHAPE = `${PATH_ID_CHARACTER.source}{1,${MAX_PATH_ID_LENGTH}}`;
const PATH_ID_PATTERN = new RegExp(`^${PATH_ID_SHAPE}$`);

/** The editor's regex for such an ID typed into a field: spaces around it pass, the node trims them. */
export const PATH_ID_FIELD_REGEX = `^\\s*${PATH_ID_SHAPE}\\s*$`;

/** Whether `text` (already trimmed) may be placed into a URL path as it is. */
export function isPathId(text: string): boolean {
	return PATH_ID_PATTERN.test(text);
}

const ALLOWED = 'an ID uses only letters, digits, "-" and "_"';

/**
 * An ID that goes into a URL path (`/subject/people/:id`, `/transactions/:id/refund`…).
 *
 * URL-encoding alone is not enough: HTTP clients normalise `.` and `..` segments (and their
 * percent-encoded forms `%2e`) into other endpoints, so `..` as a transaction ID would call a
 * different route. Only `^[A-Za-z0-9_-]{1,128}$` is accepted (trimmed); with `{ uuid: true }`
 * (where the spec says the ID is a UUID) the ID must be a UUID and is returned in lower case.
 */
export function checkPathId(raw: string, options: { uuid?: boolean } = {}): Check {
	const text = raw === undefined || raw === null ? '' : String(raw).trim();
	if (text === '') return invalid('is empty; enter the ID');
	if (text === '.' || text === '..') {
		return invalid(
			`is "${text}", which a web address reads as "this folder" or "the folder above" and so would call another address; ${ALLOWED}`,
		);
	}
	if (/%[0-9A-Fa-f]{2}/.test(text)) {
		return invalid(
			`contains percent-encoded characters ("${/%[0-9A-Fa-f]{2}/.exec(text)?.[0]}"), which could call another address; enter the ID itself: ${ALLOWED}`,
		);
	}
	const other = [...text].find((character) => !PATH_ID_CHARACTER.test(character));
	if (other !== undefined) {
		return invalid(`contains ${describeCharacter(other)}; ${ALLOWED}`);
	}
	if (text.length > MAX_PATH_ID_LENGTH) {
		return invalid(
			`has ${text.length} characters; an ID has at most ${MAX_PATH_ID_LENGTH} (letters, digits, "-" and "_"); check that only the ID was pasted`,
		);
	}
	if (!isPathId(text)) return invalid(ALLOWED);
	return options.uuid ? checkUuid(text) : valid(text);
}
