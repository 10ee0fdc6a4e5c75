import { stripDocumentPunctuation } from './documents';
import { invalid, plural, valid, type Check } from './result';

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
export type BrazilianState = (typeof BRAZILIAN_STATES)[number];

/** A Brazilian state: one of the 27 two-letter codes, trimmed and upper-cased. */
export function checkBrazilianState(raw: string): Check {
	const text = String(raw ?? '')
		.trim()
		.toUpperCase();
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
 * A country as two letters (ISO 3166-1 alpha-2, e.g. BR, MX), trimmed and upper-cased. Only the
 * shape is checked; the service decides whether it knows the country.
 */
export function checkCountryCode2(raw: string): Check {
	const text = String(raw ?? '')
		.trim()
		.toUpperCase();
	if (text === '') return invalid('is empty; enter a two-letter country code, e.g. BR');
	if (!/^[A-Z]{2}$/.test(text)) {
		return invalid('is not a two-letter country code (ISO 3166-1); use e.g. BR, MX, CO or CL');
	}
	return valid(text);
}

/**
 * The international calling code of a phone number, digits only.
 *
 * The spec says "2 digits", which is true of the countries the service serves (Brazil 55,
 * Mexico 52, Colombia 57, Chile 56), but real calling codes have 1 to 3 digits (United States 1,
 * Portugal 351) and a subject may live abroad. So 1 to 3 digits are accepted; a leading "+" or
 * "00" and spaces are removed ("+55" → "55").
 */
export function checkPhoneCountryCode(raw: string): Check {
	let text = String(raw ?? '').replace(/[\s()-]/g, '');
	if (text.startsWith('+')) text = text.slice(1);
	else if (text.startsWith('00')) text = text.slice(2);
	if (text === '') return invalid('is empty; enter the country calling code, e.g. 55 for Brazil');
	if (!/^\d+$/.test(text)) {
		return invalid('must contain digits only; enter the country calling code, e.g. 55 for Brazil');
	}
	if (text.length > 3 || text.startsWith('0')) {
		return invalid(
			'is not a country calling code; it has 1 to 3 digits and does not start with 0, e.g. 55 for Brazil or 52 for Mexico',
		);
	}
	return valid(text);
}
