import { checkUuid } from './misc';
import { invalid, valid, type Check } from './result';
import { describeCharacter } from './text';

/** The most an ID placed into a URL path may have. */
export const MAX_PATH_ID_LENGTH = 128;

const PATH_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

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
	const other = [...text].find((character) => !/[A-Za-z0-9_-]/.test(character));
	if (other !== undefined) {
		return invalid(`contains ${describeCharacter(other)}; ${ALLOWED}`);
	}
	if (text.length > MAX_PATH_ID_LENGTH) {
		return invalid(
			`has ${text.length} characters; an ID has at most ${MAX_PATH_ID_LENGTH} (letters, digits, "-" and "_"); check that only the ID was pasted`,
		);
	}
	if (!PATH_ID_PATTERN.test(text)) return invalid(ALLOWED);
	return options.uuid ? checkUuid(text) : valid(text);
}
