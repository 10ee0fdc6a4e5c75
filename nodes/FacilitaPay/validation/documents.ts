import { invalid, plural, valid, type Check } from './result';
import { asciiUpperCase } from './text';

/**
 * Removes the punctuation people write in document numbers (dots, dashes, slashes and any
 * whitespace) and upper-cases the ASCII letters a–z and "ñ" (a letter of Mexican RFCs). Other
 * letters are kept as typed, so the document's rules refuse them: Unicode upper-casing would turn
 * "ſ" into "S" or "ß" into "SS" and check (and send) a different number. The service wants the
 * bare characters only.
 * `stripped` tells whether punctuation was removed (upper-casing alone does not count).
 */
export function stripDocumentPunctuation(raw: string): { value: string; stripped: boolean } {
	const text = String(raw ?? '');
	const withoutPunctuation = text.replace(/[.\-/\s]/g, '');
	return {
		value: asciiUpperCase(withoutPunctuation).replace(/ñ/g, 'Ñ'),
		stripped: withoutPunctuation.length !== text.length,
	};
}

function allSame(value: string): boolean {
	return value.length > 0 && [...value].every((character) => character === value[0]);
}

function describeOtherCharacters(value: string, allowed: RegExp): string {
	const others = [...new Set([...value].filter((character) => !allowed.test(character)))];
	return others.map((character) => `"${character}"`).join(', ');
}

function checkDigitsOnly(
	value: string,
	documentName: string,
	lengthText: string,
): Check | undefined {
	if (value === '') return invalid(`is empty; enter the ${lengthText} of the ${documentName}`);
	if (!/^\d+$/.test(value)) {
		return invalid(
			`contains ${describeOtherCharacters(value, /\d/)}; a ${documentName} has digits only (${lengthText})`,
		);
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------
// Brazil

/** Brazilian CPF: 11 digits, two mod-11 check digits, all-equal digits rejected. */
export function checkCpf(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	const problem = checkDigitsOnly(value, 'CPF', '11 digits');
	if (problem) return problem;
	if (value.length !== 11)
		return invalid(`has ${plural(value.length, 'digit')}; a CPF has 11 digits`);
	if (allSame(value)) return invalid('has all digits equal: this is not a valid CPF');
	const digits = [...value].map(Number);
	const checkDigit = (count: number): number => {
		let sum = 0;
		for (let i = 0; i < count; i++) sum += digits[i] * (count + 1 - i);
		const result = ((sum * 10) % 11) % 10;
		return result;
	};
	if (checkDigit(9) !== digits[9] || checkDigit(10) !== digits[10]) {
		return invalid('check digits do not match: this is not a valid CPF');
	}
	return valid(value);
}

/**
 * Brazilian CNPJ, including the alphanumeric form used from July 2026: the first 12 characters
 * may be letters A–Z or digits, the last 2 are digits. A character is worth its ASCII code − 48;
 * weights 2..9 from the right, repeating; r = Σ mod 11; DV = 0 if r < 2 else 11 − r.
 */
export function checkCnpj(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	if (value === '') return invalid('is empty; enter the 14 characters of the CNPJ');
	if (!/^[0-9A-Z]+$/.test(value)) {
		return invalid(
			`contains ${describeOtherCharacters(value, /[0-9A-Z]/)}; a CNPJ has only letters A to Z and digits`,
		);
	}
	if (value.length !== 14) {
		return invalid(`has ${plural(value.length, 'character')}; a CNPJ has 14 characters`);
	}
	if (!/^\d{2}$/.test(value.slice(12))) {
		return invalid(
			'ends with a letter; the last 2 characters of a CNPJ (its check digits) are digits',
		);
	}
	if (allSame(value)) return invalid('has all characters equal: this is not a valid CNPJ');
	const codes = [...value].map((character) => character.charCodeAt(0) - 48);
	const checkDigit = (count: number): number => {
		let sum = 0;
		for (let i = 0; i < count; i++) {
			const weight = ((count - 1 - i) % 8) + 2;
			sum += codes[i] * weight;
		}
		const remainder = sum % 11;
		return remainder < 2 ? 0 : 11 - remainder;
	};
	if (checkDigit(12) !== codes[12] || checkDigit(13) !== codes[13]) {
		return invalid('check digits do not match: this is not a valid CNPJ');
	}
	return valid(value);
}

// ---------------------------------------------------------------------------------------------
// Mexico

const CURP_STATES =
	'(AS|B[CS]|C[CLMSH]|D[FG]|G[TR]|HG|JC|M[CNS]|N[ETL]|OC|PL|Q[TR]|S[PLR]|T[CSL]|VZ|YN|ZS|NE)';
const CURP_PATTERN = new RegExp(
	'^[A-Z][AEIOUX][A-Z]{2}\\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])[HMX]' +
		CURP_STATES +
		'[B-DF-HJ-NP-TV-Z]{3}[A-Z\\d]\\d$',
);
const CURP_ALPHABET = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';

/** Explains which part of an 18-character CURP is wrong. */
function describeCurpShape(value: string): string {
	if (!/^[A-Z][AEIOUX][A-Z]{2}/.test(value)) {
		return 'does not start with 4 letters (the second a vowel or X) as a CURP does';
	}
	if (!/^\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(value.slice(4, 10))) {
		return 'characters 5 to 10 are not a birth date written YYMMDD as in a CURP';
	}
	if (!/^[HMX]$/.test(value[10])) return 'character 11 must be H, M or X in a CURP';
	if (!new RegExp(`^${CURP_STATES}$`).test(value.slice(11, 13))) {
		return 'characters 12 and 13 are not a Mexican state code (e.g. DF, JC, NL, or NE for born abroad)';
	}
	if (!/^[B-DF-HJ-NP-TV-Z]{3}$/.test(value.slice(13, 16))) {
		return 'characters 14 to 16 must be consonants in a CURP';
	}
	return 'the last 2 characters do not have the shape of a CURP (a letter or digit, then a digit)';
}

/** Mexican CURP: 18 characters, fixed shape, check digit over 0-9A-NÑO-Z. */
export function checkCurp(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	if (value === '') return invalid('is empty; enter the 18 characters of the CURP');
	if (value.length !== 18) {
		return invalid(`has ${plural(value.length, 'character')}; a CURP has 18 characters`);
	}
	if (!CURP_PATTERN.test(value)) return invalid(describeCurpShape(value));
	let sum = 0;
	for (let i = 0; i < 17; i++) sum += CURP_ALPHABET.indexOf(value[i]) * (18 - i);
	const checkDigit = (10 - (sum % 10)) % 10;
	if (checkDigit !== Number(value[17])) {
		return invalid('check digit does not match: this is not a valid CURP');
	}
	return valid(value);
}

const RFC_PERSON_PATTERN = /^[A-ZÑ&]{4}\d{6}[A-Z\d]{2}[A\d]$/;
const RFC_COMPANY_PATTERN = /^[A-ZÑ&]{3}\d{6}[A-Z\d]{2}[A\d]$/;

/**
 * What is wrong with the 6 date digits of an RFC (YYMMDD: a person's birth date, a company's date
 * of incorporation, as SAT composes it), or undefined for a real date. A 2-digit year is either
 * century, so 29 February is taken in a year divisible by 4 (00 included).
 */
function rfcDateProblem(digits: string, what: string): string | undefined {
	const year = Number(digits.slice(0, 2));
	const month = Number(digits.slice(2, 4));
	const day = Number(digits.slice(4, 6));
	const days = [31, year % 4 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
	if (days === undefined || day < 1 || day > days) {
		return `has ${digits} where its ${what} goes (YYMMDD), which is not a date; check the RFC`;
	}
	return undefined;
}

/**
 * Mexican RFC of a person (13 characters). Its own check digit is NOT enforced: many real RFCs
 * fail it. When a CURP is given, the first 10 characters of both must be equal.
 */
export function checkRfcPerson(raw: string, curp?: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	if (value === '') return invalid('is empty; enter the 13 characters of the RFC');
	if (value.length !== 13) {
		return invalid(
			`has ${plural(value.length, 'character')}; the RFC of a person has 13 characters`,
		);
	}
	if (!RFC_PERSON_PATTERN.test(value)) {
		return invalid(
			"does not have the shape of a person's RFC: 4 letters, 6 digits of birth date (YYMMDD), 2 letters or digits, then a digit or A",
		);
	}
	const badDate = rfcDateProblem(value.slice(4, 10), 'birth date');
	if (badDate) return invalid(badDate);
	if (curp !== undefined && curp.trim() !== '') {
		const curpStart = stripDocumentPunctuation(curp).value.slice(0, 10);
		if (curpStart !== value.slice(0, 10)) {
			return invalid(
				`its first 10 characters (${value.slice(0, 10)}) differ from the first 10 of the CURP (${curpStart}); they must be equal`,
			);
		}
	}
	return valid(value);
}

/** Mexican RFC of a person (13 characters) or of a company (12 characters). */
export function checkRfc(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	if (value.length === 12) {
		if (RFC_COMPANY_PATTERN.test(value)) {
			const badDate = rfcDateProblem(value.slice(3, 9), 'date of incorporation');
			return badDate ? invalid(badDate) : valid(value);
		}
		return invalid(
			"does not have the shape of a company's RFC: 3 letters, 6 digits of date (YYMMDD), 2 letters or digits, then a digit or A",
		);
	}
	if (value === '' || value.length === 13) return checkRfcPerson(value);
	return invalid(
		`has ${plural(value.length, 'character')}; an RFC has 13 characters (person) or 12 (company)`,
	);
}

// ---------------------------------------------------------------------------------------------
// Colombia

/**
 * Colombian CC (cédula de ciudadanía) or CE (cédula de extranjería): digits only, 6 to 10 digits,
 * no check digit. The spec's "CC 10 digits, CE 6 to 9" is too narrow for real documents (older
 * CCs are shorter, and the service's own glossary says a CE has 10).
 */
export function checkColombianId(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	const problem = checkDigitsOnly(value, 'Colombian CC or CE', '6 to 10 digits');
	if (problem) return problem;
	if (value.length < 6 || value.length > 10) {
		return invalid(`has ${plural(value.length, 'digit')}; a Colombian CC or CE has 6 to 10 digits`);
	}
	return valid(value);
}

/** DIAN's weights for a NIT's verification digit, from the last digit of the number leftwards. */
const NIT_WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];

/** The verification digit (DV) of a NIT's digits, as DIAN computes it (weighted sum modulo 11). */
export function nitVerificationDigit(digits: string): number {
	let sum = 0;
	for (let i = 0; i < digits.length; i++)
		sum += Number(digits[digits.length - 1 - i]) * NIT_WEIGHTS[i];
	const rest = sum % 11;
	return rest > 1 ? 11 - rest : rest;
}

/**
 * Colombian NIT (tax id). Accepted: digits only, 6 to 11 digits, i.e. a company NIT of 9 digits or
 * a person's NIT (their CC, 6 to 10 digits), with or without its verification digit (DV), sent as
 * typed without punctuation (whether FacilitaPay wants the DV is not published). Where the DV can be
 * told apart it must be DIAN's: written after a dash (`900.123.456-8`), or as the 10th digit of a
 * company's NIT (companies' NITs are 9 digits from 800000000; no CC has 10 digits starting with 8
 * or 9).
 */
export function checkNit(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	const problem = checkDigitsOnly(value, 'NIT', '6 to 11 digits');
	if (problem) return problem;
	if (value.length < 6 || value.length > 11) {
		return invalid(`has ${plural(value.length, 'digit')}; a NIT has 6 to 11 digits`);
	}
	const dashed = /-\s*\d\s*$/.test(String(raw ?? ''));
	const company = value.length === 10 && /^[89]/.test(value);
	if (dashed || company) {
		const expected = nitVerificationDigit(value.slice(0, -1));
		if (Number(value.slice(-1)) !== expected) {
			return invalid(
				`verification digit does not match: the NIT ${value.slice(0, -1)} has DV ${expected}, not ${value.slice(-1)}; check the number`,
			);
		}
	}
	return valid(value);
}

// ---------------------------------------------------------------------------------------------
// Chile

/**
 * Chilean RUT: 7 or 8 digits followed by a check character (a digit or K), weights 2..7 from
 * the right, repeating; 11 − Σ mod 11, where 11 → 0 and 10 → K. The spec says "9 digits", but
 * the check character can be K and older RUTs have 7 body digits.
 */
export function checkRut(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	if (value === '') return invalid('is empty; enter the RUT, e.g. 12345678-5');
	if (!/^\d+[0-9K]$/.test(value)) {
		return invalid('must be digits followed by a check digit or K, e.g. 12345678-5 or 7654321-K');
	}
	if (value.length < 8 || value.length > 9) {
		return invalid(
			`has ${plural(value.length, 'character')}; a RUT has 8 or 9 (7 or 8 digits plus the check digit or K)`,
		);
	}
	const body = value.slice(0, -1);
	let sum = 0;
	for (let i = 0; i < body.length; i++) {
		const weight = (i % 6) + 2;
		sum += Number(body[body.length - 1 - i]) * weight;
	}
	const result = 11 - (sum % 11);
	const expected = result === 11 ? '0' : result === 10 ? 'K' : String(result);
	if (expected !== value.slice(-1)) {
		return invalid('check digit does not match: this is not a valid RUT');
	}
	return valid(value);
}

// ---------------------------------------------------------------------------------------------
// Other documents

/** Passport number: letters and digits only, 5 to 20 of them (no country has a shared format). */
export function checkPassport(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	if (value === '') return invalid('is empty; enter the passport number');
	if (!/^[0-9A-Z]+$/.test(value)) {
		return invalid(
			`contains ${describeOtherCharacters(value, /[0-9A-Z]/)}; a passport number has only letters and digits`,
		);
	}
	if (value.length < 5 || value.length > 20) {
		return invalid(`has ${plural(value.length, 'character')}; a passport number has 5 to 20`);
	}
	return valid(value);
}

/**
 * Foreign tax id (`tax_id`): formats differ per country, so only the shape is checked: letters
 * and digits, 4 to 30 characters after punctuation is removed.
 */
export function checkTaxId(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	if (value === '') return invalid('is empty; enter the tax id');
	if (!/^[0-9A-Z]+$/.test(value)) {
		return invalid(
			`contains ${describeOtherCharacters(value, /[0-9A-Z]/)}; a tax id has only letters and digits`,
		);
	}
	if (value.length < 4 || value.length > 30) {
		return invalid(`has ${plural(value.length, 'character')}; a tax id has 4 to 30`);
	}
	return valid(value);
}

/** Document types a person (POST /subject/people) may have. */
export const PERSON_DOCUMENT_TYPES = ['cc', 'ce', 'cpf', 'curp', 'passport', 'rut'] as const;

/** Document types accepted across the API (subjects, bank account owners, partners). */
export const DOCUMENT_TYPES = [
	'cc',
	'ce',
	'cnpj',
	'cpf',
	'curp',
	'nit',
	'passport',
	'rfc',
	'rut',
	'tax_id',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

const CHECKS_BY_TYPE: Record<DocumentType, (raw: string) => Check> = {
	cc: checkColombianId,
	ce: checkColombianId,
	cnpj: checkCnpj,
	cpf: checkCpf,
	curp: checkCurp,
	nit: checkNit,
	passport: checkPassport,
	rfc: checkRfc,
	rut: checkRut,
	tax_id: checkTaxId,
};

/** Checks a document number according to its type (case-insensitive, e.g. "cpf" or "CPF"). */
export function checkDocumentNumber(type: string, raw: string): Check {
	const key = String(type ?? '')
		.trim()
		.toLowerCase();
	if (!(DOCUMENT_TYPES as readonly string[]).includes(key)) {
		return invalid(
			`cannot be checked because the document type "${String(type ?? '')}" is unknown; use one of ${DOCUMENT_TYPES.join(', ')}`,
		);
	}
	return CHECKS_BY_TYPE[key as DocumentType](raw);
}
