/**
 * POST /subject/companies (live docs): the company's own rules (document, legal name, partners
 * and their shares), then the person rules for the fields a company shares with a person.
 */
import {
	ALL_DOCUMENT_TYPES,
	Errors,
	documentNumberError,
	isBlank,
	percentageError,
} from '../../validation.mjs';
import { validatePersonFields } from './personFields.mjs';
import { STRING_FIELDS } from './records.mjs';

/**
 * Document types of a company: the live docs name cnpj and tax_id (foreign companies); the public
 * connector adds nit (Colombian companies) and rfc (Mexican companies).
 */
export const COMPANY_DOCUMENT_TYPES = ['cnpj', 'nit', 'rfc', 'tax_id'];
/** Document types of a company's partner: a person's or a company's (the connector's list: all of them). */
export const PARTNER_DOCUMENT_TYPES = ALL_DOCUMENT_TYPES;

/**
 * Only the document and the legal name are required here: the documentation's table of
 * required fields could not be read.
 * @param {Errors} errors @param {any} input an object @param {number} now epoch ms
 */
export function validateCompanyFields(errors, input, now) {
	for (const field of STRING_FIELDS) {
		if (input[field] !== undefined && input[field] !== null && typeof input[field] !== 'string')
			errors.add(field, 'must be a string');
	}
	if (isBlank(input.document_type)) errors.add('document_type', "can't be blank");
	else if (!COMPANY_DOCUMENT_TYPES.includes(input.document_type))
		errors.add('document_type', `must be one of: ${COMPANY_DOCUMENT_TYPES.join(', ')}`);
	else {
		const message = documentNumberError(input.document_type, input.document_number);
		if (message) errors.add('document_number', message);
	}
	if (isBlank(input.social_name)) errors.add('social_name', "can't be blank");
	// The person rules for the fields a company shares (e-mail, phone, address, incomes…), with
	// a CNPJ counting as Brazilian when no country says otherwise.
	const shared = new Errors();
	validatePersonFields(
		shared,
		{
			...input,
			document_type: 'passport',
			document_number: 'X',
			social_name: input.social_name || 'X',
			fiscal_country: input.fiscal_country || (input.document_type === 'cnpj' ? 'BR' : 'XX'),
		},
		{ ...input, document_type: undefined, document_number: undefined },
		{ now },
	);
	for (const [field, messages] of Object.entries(shared.map))
		if (!['document_type', 'document_number', 'social_name', 'fiscal_country'].includes(field))
			for (const message of messages) errors.add(field, message);
	validatePartners(errors, input.partners);
}

/** @param {Errors} errors @param {any} partners */
export function validatePartners(errors, partners) {
	if (partners === undefined || partners === null) return;
	if (!Array.isArray(partners)) {
		errors.add('partners', 'must be a list');
		return;
	}
	let total = 0;
	partners.forEach((partner, index) => {
		const prefix = `partners[${index}].`;
		if (!partner || typeof partner !== 'object' || Array.isArray(partner)) {
			errors.add(`partners[${index}]`, 'must be an object');
			return;
		}
		if (isBlank(partner.name)) errors.add(`${prefix}name`, "can't be blank");
		if (!PARTNER_DOCUMENT_TYPES.includes(partner.document_type))
			errors.add(`${prefix}document_type`, `must be one of: ${PARTNER_DOCUMENT_TYPES.join(', ')}`);
		else {
			const message = documentNumberError(partner.document_type, partner.document_number);
			if (message) errors.add(`${prefix}document_number`, message);
		}
		const share = percentageError(partner.percentage_share);
		if (share) errors.add(`${prefix}percentage_share`, share);
		else {
			const [whole, fraction = ''] = partner.percentage_share.split('.');
			total += Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
		}
	});
	if (total > 10000) errors.add('partners', 'percentage shares add up to more than 100');
}
