/**
 * Field rules of the FacilitaPay API as the sandbox enforces them. Algorithms and vectors come
 * from what the service publishes and is known to do. Every `validate*` helper adds messages to an `Errors`
 * collector keyed by the API's field names; routes answer `{"errors": {...}}`.
 */
import { MONEY_PATTERN, CURRENCIES } from './money.mjs';

export class Errors {
	constructor() {
		/** @type {Record<string, string[]>} */
		this.map = {};
	}
	/** @param {string} field @param {string} message */
	add(field, message) {
		(this.map[field] ||= []).push(message);
		return this;
	}
	get any() {
		return Object.keys(this.map).length > 0;
	}
}

export const BRAZIL_STATES = [
	'AC',
	'AL',
	'AP',
	'AM',
	'BA',
	'CE',
	'DF',
	'ES',
	'GO',
	'MA',
	'MT',
	'MS',
	'MG',
	'PA',
	'PB',
	'PR',
	'PE',
	'PI',
	'RJ',
	'RN',
	'RS',
	'RO',
	'RR',
	'SC',
	'SP',
	'SE',
	'TO',
];

export const PERSON_DOCUMENT_TYPES = ['cpf', 'curp', 'cc', 'ce', 'rut', 'passport'];
export const ALL_DOCUMENT_TYPES = [
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
];

export function isBlank(value) {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

export function isValidCpf(value) {
	if (!/^\d{11}$/.test(value) || /^(\d)\1{10}$/.test(value)) return false;
	const digits = [...value].map(Number);
	let sum = 0;
	for (let index = 0; index < 9; index++) sum += digits[index] * (10 - index);
	const dv1 = ((sum * 10) % 11) % 10;
	sum = 0;
	for (let index = 0; index < 10; index++) sum += digits[index] * (11 - index);
	const dv2 = ((sum * 10) % 11) % 10;
	return dv1 === digits[9] && dv2 === digits[10];
}

export function isValidCnpj(value) {
	if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(value) || /^(\d)\1{13}$/.test(value)) return false;
	const dv = (body) => {
		let sum = 0;
		let weight = 2;
		for (let index = body.length - 1; index >= 0; index--) {
			sum += (body.charCodeAt(index) - 48) * weight;
			weight = weight === 9 ? 2 : weight + 1;
		}
		const remainder = sum % 11;
		return remainder < 2 ? 0 : 11 - remainder;
	};
	const d1 = dv(value.slice(0, 12));
	const d2 = dv(value.slice(0, 12) + d1);
	return `${d1}${d2}` === value.slice(12);
}

const CURP_PATTERN =
	/^[A-Z][AEIOUX][A-Z]{2}\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[HMX](AS|B[CS]|C[CLMSH]|D[FG]|G[TR]|HG|JC|M[CNS]|N[ETL]|OC|PL|Q[TR]|S[PLR]|T[CSL]|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[A-Z\d]\d$/;
const CURP_ALPHABET = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';

export function isValidCurp(value) {
	if (!CURP_PATTERN.test(value)) return false;
	let sum = 0;
	for (let index = 0; index < 17; index++)
		sum += CURP_ALPHABET.indexOf(value[index]) * (18 - index);
	return (10 - (sum % 10)) % 10 === Number(value[17]);
}

/** A person's Mexican RFC (`rfc_pf`): 13 characters. */
export function isValidRfc(value) {
	return /^[A-ZÑ&]{4}\d{6}[A-Z\d]{2}[A\d]$/.test(value);
}

/** An RFC as a document: a person's (13 characters) or a company's (12: 3 letters first). */
function isValidRfcDocument(value) {
	return /^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{2}[A\d]$/.test(value);
}

export function isValidRut(value) {
	if (!/^\d{7,8}[0-9K]$/.test(value)) return false;
	const body = value.slice(0, -1);
	let sum = 0;
	let weight = 2;
	for (let index = body.length - 1; index >= 0; index--) {
		sum += Number(body[index]) * weight;
		weight = weight === 7 ? 2 : weight + 1;
	}
	const remainder = 11 - (sum % 11);
	const dv = remainder === 11 ? '0' : remainder === 10 ? 'K' : String(remainder);
	return dv === value.slice(-1);
}

/**
 * @param {string} type
 * @param {unknown} number
 * @returns {string|null} the error message, or null when valid
 */
export function documentNumberError(type, number) {
	if (isBlank(number)) return "can't be blank";
	if (typeof number !== 'string') return 'must be a string';
	if (/[.\-/\s]/.test(number))
		return 'must contain only digits and letters, without dots, dashes, slashes or spaces';
	switch (type) {
		case 'cpf':
			return isValidCpf(number) ? null : 'is not a valid CPF';
		case 'cnpj':
			return isValidCnpj(number) ? null : 'is not a valid CNPJ';
		case 'curp':
			return isValidCurp(number) ? null : 'is not a valid CURP';
		case 'rfc':
			return isValidRfcDocument(number) ? null : 'is not a valid RFC';
		case 'cc':
			return /^\d{6,10}$/.test(number) ? null : 'must have 6 to 10 digits (Colombian CC)';
		case 'ce':
			return /^\d{6,10}$/.test(number) ? null : 'must have 6 to 10 digits (Colombian CE)';
		case 'rut':
			return isValidRut(number) ? null : 'is not a valid RUT';
		default:
			return null; // passport, nit, tax_id: non-empty
	}
}

export function isMoney(value) {
	return typeof value === 'string' && MONEY_PATTERN.test(value);
}

/**
 * @param {Errors} errors @param {Record<string, any>} obj @param {string} field
 * @param {{prefix?: string, required?: boolean}} [options]
 */
export function requireMoney(errors, obj, field, options = {}) {
	const name = (options.prefix ?? '') + field;
	const value = obj[field];
	if (isBlank(value)) {
		if (options.required !== false) errors.add(name, "can't be blank");
		return;
	}
	if (!isMoney(value)) errors.add(name, 'must be a string with exactly two decimals, e.g. "10.50"');
	else if (/^0+\.00$/.test(value)) errors.add(name, 'must be greater than 0');
}

export function requireCurrency(errors, obj, field, allowed = CURRENCIES, prefix = '') {
	const value = obj[field];
	if (isBlank(value)) return errors.add(prefix + field, "can't be blank");
	if (!allowed.includes(value)) errors.add(prefix + field, `must be one of: ${allowed.join(', ')}`);
}

export function requirePresent(errors, obj, fields, prefix = '') {
	for (const field of fields)
		if (isBlank(obj?.[field])) errors.add(prefix + field, "can't be blank");
}

export function isDate(value) {
	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
	const date = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export function isUuid(value) {
	return (
		typeof value === 'string' &&
		/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
	);
}

export function isBrazil(country) {
	return (
		typeof country === 'string' &&
		['br', 'bra', 'brazil', 'brasil'].includes(country.trim().toLowerCase())
	);
}

/** Coerces booleans sent as strings ("true"/"false"). Returns undefined for anything else. */
export function toBool(value) {
	if (value === true || value === 'true') return true;
	if (value === false || value === 'false') return false;
	return undefined;
}

/**
 * `phone_number`: 4 to 15 digits, nothing else. The node removes the spaces, dashes, dots and
 * brackets people write and then holds the number to this same rule.
 */
export const PHONE_NUMBER_PATTERN = /^\d{4,15}$/;

/**
 * An income (`net_monthly_average_income`, a company's `net_value`): a string of digits with at
 * most two decimals. The service's own examples send whole amounts ("4000"; live docs).
 */
export function isIncome(value) {
	return typeof value === 'string' && /^\d+(\.\d{1,2})?$/.test(value);
}

/** A percentage share of a partner: "50", "33.33"; more than 0 and at most 100. */
export function percentageError(value) {
	if (isBlank(value)) return "can't be blank";
	if (typeof value !== 'string' || !/^\d{1,3}(\.\d{1,2})?$/.test(value))
		return 'must be a percentage as a string, e.g. "50"';
	const [whole, fraction = ''] = value.split('.');
	const hundredths = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
	if (hundredths === 0 || hundredths > 10000) return 'must be more than 0 and at most 100';
	return null;
}
