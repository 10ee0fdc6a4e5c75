/**
 * Field rules of the FacilitaPay API as the sandbox enforces them. Algorithms and vectors come
 * from /work/shared/spec/service-facts.md. Every `validate*` helper adds messages to an `Errors`
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
	'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR',
	'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
];

export const PERSON_DOCUMENT_TYPES = ['cpf', 'curp', 'cc', 'ce', 'rut', 'passport'];
export const ALL_DOCUMENT_TYPES = ['cc', 'ce', 'cnpj', 'cpf', 'curp', 'nit', 'passport', 'rfc', 'rut', 'tax_id'];

export function isBlank(v) {
	return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

export function isValidCpf(v) {
	if (!/^\d{11}$/.test(v) || /^(\d)\1{10}$/.test(v)) return false;
	const d = [...v].map(Number);
	let s = 0;
	for (let i = 0; i < 9; i++) s += d[i] * (10 - i);
	const dv1 = ((s * 10) % 11) % 10;
	s = 0;
	for (let i = 0; i < 10; i++) s += d[i] * (11 - i);
	const dv2 = ((s * 10) % 11) % 10;
	return dv1 === d[9] && dv2 === d[10];
}

export function isValidCnpj(v) {
	if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(v) || /^(\d)\1{13}$/.test(v)) return false;
	const dv = (body) => {
		let s = 0;
		let w = 2;
		for (let i = body.length - 1; i >= 0; i--) {
			s += (body.charCodeAt(i) - 48) * w;
			w = w === 9 ? 2 : w + 1;
		}
		const r = s % 11;
		return r < 2 ? 0 : 11 - r;
	};
	const d1 = dv(v.slice(0, 12));
	const d2 = dv(v.slice(0, 12) + d1);
	return `${d1}${d2}` === v.slice(12);
}

const CURP_PATTERN =
	/^[A-Z][AEIOUX][A-Z]{2}\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[HMX](AS|B[CS]|C[CLMSH]|D[FG]|G[TR]|HG|JC|M[CNS]|N[ETL]|OC|PL|Q[TR]|S[PLR]|T[CSL]|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[A-Z\d]\d$/;
const CURP_ALPHABET = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';

export function isValidCurp(v) {
	if (!CURP_PATTERN.test(v)) return false;
	let s = 0;
	for (let i = 0; i < 17; i++) s += CURP_ALPHABET.indexOf(v[i]) * (18 - i);
	return (10 - (s % 10)) % 10 === Number(v[17]);
}

export function isValidRfc(v) {
	return /^[A-ZÑ&]{4}\d{6}[A-Z\d]{2}[A\d]$/.test(v);
}

export function isValidRut(v) {
	if (!/^\d{7,8}[0-9K]$/.test(v)) return false;
	const body = v.slice(0, -1);
	let s = 0;
	let w = 2;
	for (let i = body.length - 1; i >= 0; i--) {
		s += Number(body[i]) * w;
		w = w === 7 ? 2 : w + 1;
	}
	const r = 11 - (s % 11);
	const dv = r === 11 ? '0' : r === 10 ? 'K' : String(r);
	return dv === v.slice(-1);
}

/**
 * @param {string} type
 * @param {unknown} number
 * @returns {string|null} the error message, or null when valid
 */
export function documentNumberError(type, number) {
	if (isBlank(number)) return "can't be blank";
	if (typeof number !== 'string') return 'must be a string';
	if (/[.\-/\s]/.test(number)) return 'must contain only digits and letters, without dots, dashes, slashes or spaces';
	switch (type) {
		case 'cpf':
			return isValidCpf(number) ? null : 'is not a valid CPF';
		case 'cnpj':
			return isValidCnpj(number) ? null : 'is not a valid CNPJ';
		case 'curp':
			return isValidCurp(number) ? null : 'is not a valid CURP';
		case 'rfc':
			return isValidRfc(number) ? null : 'is not a valid RFC';
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

export function isMoney(v) {
	return typeof v === 'string' && MONEY_PATTERN.test(v);
}

/**
 * @param {Errors} errors @param {Record<string, any>} obj @param {string} field
 * @param {{prefix?: string, required?: boolean}} [o]
 */
export function requireMoney(errors, obj, field, o = {}) {
	const name = (o.prefix ?? '') + field;
	const v = obj[field];
	if (isBlank(v)) {
		if (o.required !== false) errors.add(name, "can't be blank");
		return;
	}
	if (!isMoney(v)) errors.add(name, 'must be a string with exactly two decimals, e.g. "10.50"');
	else if (/^0+\.00$/.test(v)) errors.add(name, 'must be greater than 0');
}

export function requireCurrency(errors, obj, field, allowed = CURRENCIES, prefix = '') {
	const v = obj[field];
	if (isBlank(v)) return errors.add(prefix + field, "can't be blank");
	if (!allowed.includes(v)) errors.add(prefix + field, `must be one of: ${allowed.join(', ')}`);
}

export function requirePresent(errors, obj, fields, prefix = '') {
	for (const f of fields) if (isBlank(obj?.[f])) errors.add(prefix + f, "can't be blank");
}

export function isDate(v) {
	if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
	const d = new Date(`${v}T00:00:00Z`);
	return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

export function isUuid(v) {
	return typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
}

export function isBrazil(country) {
	return typeof country === 'string' && ['br', 'bra', 'brazil', 'brasil'].includes(country.trim().toLowerCase());
}

/** Coerces booleans sent as strings ("true"/"false"). Returns undefined for anything else. */
export function toBool(v) {
	if (v === true || v === 'true') return true;
	if (v === false || v === 'false') return false;
	return undefined;
}
