import { stripDocumentPunctuation } from './documents';
import { invalid, plural, valid, type Check } from './result';
import { asciiUpperCase } from './text';

/** The 27 federative units of Brazil (`address_state`), sorted. */
export const BRAZILIAN_STATES = [
	'AC',
	'AL',
	'AM',
	'AP',
	'BA',
	'CE',
	'DF',
	'ES',
	'GO',
	'MA',
	'MG',
	'MS',
	'MT',
	'PA',
	'PB',
	'PE',
	'PI',
	'PR',
	'RJ',
	'RN',
	'RO',
	'RR',
	'RS',
	'SC',
	'SE',
	'SP',
	'TO',
] as const;

/**
 * A Brazilian state: one of the 27 two-letter codes, trimmed, ASCII letters upper-cased (any other
 * letter, such as "ſ" that Unicode would turn into "S", is refused, not converted).
 */
export function checkBrazilianState(raw: string): Check {
	const text = asciiUpperCase(String(raw ?? '').trim());
	if (text === '')
		return invalid('is empty; enter the two-letter code of a Brazilian state, e.g. SP');
	if (!(BRAZILIAN_STATES as readonly string[]).includes(text)) {
		return invalid(
			`is not the code of a Brazilian state; use one of ${BRAZILIAN_STATES.join(', ')} (e.g. SP for São Paulo)`,
		);
	}
	return valid(text);
}

/** A Brazilian postal code (CEP): 8 digits; dots, dashes and spaces are removed. */
export function checkCep(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	if (value === '') return invalid('is empty; enter the 8 digits of the CEP, e.g. 01310-100');
	if (!/^\d+$/.test(value))
		return invalid('must contain digits only; a CEP has 8 digits, e.g. 01310-100');
	if (value.length !== 8)
		return invalid(`has ${plural(value.length, 'digit')}; a CEP has 8 digits`);
	return valid(value);
}

/**
 * A country code as FacilitaPay's own examples write it: two letters (`BR`, ISO 3166-1 alpha-2, as
 * the spec writes the wire correction's) or three (`BRA`, `COL`, alpha-3, as the public docs and
 * clients write `branch_country`), trimmed and ASCII upper-cased (other letters are refused). Only
 * the shape is checked; the service decides whether it knows the country.
 */
export function checkCountryCode(raw: string): Check {
	const value = asciiUpperCase(String(raw ?? '').trim());
	if (value === '') return invalid('is empty; enter the country of the branch, e.g. BR or BRA');
	if (!/^[A-Z]{2,3}$/.test(value)) {
		return invalid('is not a country code; use two or three letters (ISO 3166-1), e.g. BR or BRA');
	}
	return valid(value);
}

/** Whether a country code (`checkCountryCode`'s value) names Brazil. */
export const isBrazilianCountryCode = (country: string) => country === 'BR' || country === 'BRA';

/** What the reason says when a calling code does not have the 2 digits of the spec. */
const TWO_DIGIT_CODES =
	'FacilitaPay takes a country calling code of 2 digits, e.g. 55 for Brazil, 52 for Mexico, 57 for Colombia or 56 for Chile';

/**
 * `phone_country_code`: the international calling code of a phone number, 2 digits as the spec
 * says ("Country phone code, 2 digits"). A leading "+" or "00", spaces, brackets and dashes are
 * removed ("+55" → "55").
 *
 * 1- and 3-digit codes (United States 1, Portugal 351) are refused rather than sent: the spec
 * defines the field as 2 digits, the countries the service serves (Brazil 55, Mexico 52, Colombia
 * 57, Chile 56) all have 2, and the field is used for card and PSE payments in those countries, so
 * a value of another length would be refused by the service or reach the payment wrongly.
 */
export function checkPhoneCountryCode(raw: string): Check {
	let text = String(raw ?? '').replace(/[\s()-]/g, '');
	if (text.startsWith('+')) text = text.slice(1);
	else if (text.startsWith('00')) text = text.slice(2);
	if (text === '') return invalid('is empty; enter the country calling code, e.g. 55 for Brazil');
	if (!/^[0-9]+$/.test(text)) {
		return invalid('must contain digits only; enter the country calling code, e.g. 55 for Brazil');
	}
	if (text.length !== 2) return invalid(`has ${plural(text.length, 'digit')}; ${TWO_DIGIT_CODES}`);
	if (text.startsWith('0')) {
		return invalid(`starts with 0, which no country calling code does; ${TWO_DIGIT_CODES}`);
	}
	return valid(text);
}

/** A phone area code: 1 to 4 digits (Brazil's have 2, e.g. 11), trimmed. */
export function checkPhoneAreaCode(raw: string): Check {
	const text = String(raw ?? '').trim();
	return /^\d{1,4}$/.test(text) ? valid(text) : invalid('must be 1 to 4 digits, e.g. 11');
}

/**
 * `phone_number`: the number without country and area code, 4 to 15 digits, as the sandbox holds
 * the service to it. Spaces, dashes, dots and brackets people write are removed ("98765-4321" →
 * "987654321"); a whole number from an expression is taken as its digits. A number written with
 * "+" carries the country code, which goes in Phone Country Code instead.
 */
export function checkPhoneNumber(raw: string | number): Check {
	if (typeof raw === 'number') {
		if (!Number.isSafeInteger(raw) || raw < 0) {
			return invalid('is not a whole number; enter the phone number\u2019s digits, e.g. 987654321');
		}
		raw = String(raw);
	}
	const text = String(raw ?? '').replace(/[\s().-]/g, '');
	if (text === '') return invalid('is empty; enter the phone number\u2019s digits, e.g. 987654321');
	if (text.startsWith('+')) {
		return invalid(
			'starts with "+": enter the country code in Phone Country Code and the area code in Phone Area Code, and here only the number, e.g. 987654321',
		);
	}
	if (!/^\d+$/.test(text)) {
		return invalid('must contain digits only (spaces and dashes are removed), e.g. 987654321');
	}
	if (text.length < 4 || text.length > 15) {
		return invalid(`has ${plural(text.length, 'digit')}; a phone number has 4 to 15 digits`);
	}
	return valid(text);
}

/**
 * A short text that may come from an expression as a number (`address_number`): a whole number is
 * sent as its digits (1000 → "1000"); a number that would not read back the same as text (a
 * fraction, or too large to be exact) is refused. Text is trimmed and kept as typed ("12A").
 */
export function checkTextOrWholeNumber(raw: string | number): Check {
	if (typeof raw === 'number') {
		if (!Number.isSafeInteger(raw) || raw < 0) {
			return invalid(`is ${raw}, not a whole number; write it as text, e.g. 1000 or 12A`);
		}
		return valid(String(raw));
	}
	const text = String(raw ?? '').trim();
	if (text === '') return invalid('is empty; enter a value, e.g. 1000');
	return valid(text);
}

/**
 * A postal code written the Brazilian way, with the dash a CEP has (`01310-100`, `01.310-100`):
 * no other country writes five digits, a dash and three. Used where the node cannot tell the
 * address's country (Subject > Update without a country): such a code is a CEP whatever the
 * stored country is, so it is sent as its 8 digits.
 */
export function isWrittenCep(raw: string): boolean {
	return /^\d{2}\.?\d{3}-\d{3}$/.test(String(raw ?? '').trim());
}
