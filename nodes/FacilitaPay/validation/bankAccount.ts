import { checkCnpj, checkCpf, stripDocumentPunctuation } from './documents';
import { invalid, plural, valid, type Check } from './result';
import { asciiUpperCase } from './text';

/**
 * Rules for the fields of a bank account sent to the service (the wire correction,
 * `PUT /wires/:id/update_bank_account`). The digit rules are Brazilian: they apply when the
 * account's branch country is BR. Elsewhere bank codes, branches and account numbers have other
 * shapes, so only "not empty" is checked and the service decides.
 */

/** `account_type` values: checking (`conta-corrente`) and savings (`poupanca`). */
export const ACCOUNT_TYPES = ['conta-corrente', 'poupanca'] as const;

/** A Brazilian bank code (COMPE): exactly 3 digits, e.g. 001 (Banco do Brasil), 341 (Itaú). */
export function checkBrazilianBankCode(raw: string): Check {
	const text = String(raw ?? '').trim();
	if (text === '')
		return invalid('is empty; enter the 3-digit bank code, e.g. 001 for Banco do Brasil');
	if (!/^\d+$/.test(text)) {
		return invalid('must contain digits only; a Brazilian bank code has 3 digits, e.g. 001 or 341');
	}
	if (text.length !== 3) {
		return invalid(
			`has ${plural(text.length, 'digit')}; a Brazilian bank code has exactly 3 digits (write 1 as 001)`,
		);
	}
	return valid(text);
}

/**
 * A Brazilian branch (agência): 1 to 5 digits, digits only (4 digits, or 5 where the bank counts
 * the check digit as part of it). A dash is refused rather than removed, so nothing the user did
 * not write is sent.
 */
export function checkBrazilianBranchNumber(raw: string): Check {
	const text = String(raw ?? '').trim();
	if (text === '') return invalid('is empty; enter the branch number, e.g. 0001');
	if (!/^\d+$/.test(text)) {
		return invalid('must contain digits only (no dashes, dots or spaces), e.g. 0001');
	}
	if (text.length > 5) {
		return invalid(
			`has ${plural(text.length, 'digit')}; a Brazilian branch number has at most 5 digits`,
		);
	}
	return valid(text);
}

/**
 * A Brazilian account number: 1 to 20 digits, optionally followed by a dash and one check
 * character (a digit, or X as some banks write it), e.g. 12345-6. Sent as written (trimmed, X
 * upper-cased).
 */
export function checkBrazilianAccountNumber(raw: string): Check {
	const text = asciiUpperCase(String(raw ?? '').trim());
	if (text === '') return invalid('is empty; enter the account number, e.g. 12345-6');
	const match = /^(\d+)(-[\dX])?$/.exec(text);
	if (!match) {
		return invalid(
			'must contain digits only, optionally with a dash before the check digit (e.g. 12345-6); remove dots and spaces',
		);
	}
	if (match[1].length > 20) {
		return invalid(
			`has ${plural(match[1].length, 'digit')}; an account number has at most 20 digits`,
		);
	}
	return valid(text);
}

/**
 * The document of a Brazilian account's owner: a CPF (11 digits) or a CNPJ (14 characters), with
 * their check digits. Dots, dashes, slashes and spaces are removed.
 */
export function checkBrazilianOwnerDocument(raw: string): Check {
	const { value } = stripDocumentPunctuation(raw);
	if (value === '')
		return invalid('is empty; enter the owner’s CPF (11 digits) or CNPJ (14 characters)');
	if (value.length === 11) return checkCpf(value);
	if (value.length === 14) return checkCnpj(value);
	return invalid(
		`has ${plural(value.length, 'character')}; the owner of a Brazilian account has a CPF (11 digits) or a CNPJ (14 characters)`,
	);
}
