/**
 * The fields of a person (and those a company shares with one): document, names, contact,
 * dates, incomes, Brazilian address rules, Mexican RFC, attached documents.
 */
import {
	BRAZIL_STATES,
	PERSON_DOCUMENT_TYPES,
	ALL_DOCUMENT_TYPES,
	documentNumberError,
	isBlank,
	isDate,
	isIncome,
	isValidRfc,
	isBrazil,
	PHONE_NUMBER_PATTERN,
} from '../../validation.mjs';
import { validateDocument } from './documents.mjs';

/**
 * @param {import('../../validation.mjs').Errors} errors @param {any} person merged person
 * @param {any} input fields sent
 * @param {{allTypes?: boolean, now: number}} options `allTypes`: any document type (updates);
 *   `now` (epoch ms) for dates that cannot be in the future
 */
export function validatePersonFields(errors, person, input, { allTypes = false, now }) {
	const types = allTypes ? ALL_DOCUMENT_TYPES : PERSON_DOCUMENT_TYPES;
	if (isBlank(person.document_type)) errors.add('document_type', "can't be blank");
	else if (!types.includes(person.document_type))
		errors.add('document_type', `must be one of: ${types.join(', ')}`);
	else if (typeof person.document_number === 'string' || isBlank(person.document_number)) {
		const msg = documentNumberError(person.document_type, person.document_number);
		if (msg) errors.add('document_number', msg);
	}
	if (isBlank(person.social_name)) errors.add('social_name', "can't be blank");
	if (isBlank(person.fiscal_country)) errors.add('fiscal_country', "can't be blank");
	if (!isBlank(person.email) && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(String(person.email)))
		errors.add('email', 'is not a valid e-mail address');
	if (!isBlank(person.phone_country_code) && !/^\d{2}$/.test(String(person.phone_country_code)))
		errors.add('phone_country_code', 'must be 2 digits (spec), e.g. "55"');
	if (!isBlank(person.phone_area_code) && !/^\d{1,4}$/.test(String(person.phone_area_code)))
		errors.add('phone_area_code', 'must be digits only');
	if (!isBlank(person.phone_number) && !PHONE_NUMBER_PATTERN.test(String(person.phone_number)))
		errors.add('phone_number', 'must be 4 to 15 digits, without spaces or dashes');
	validatePastDate(errors, person, 'birth_date', now);
	for (const field of ['net_monthly_average_income', 'net_value']) {
		if (!isBlank(person[field]) && !isIncome(person[field]))
			errors.add(
				field,
				'must be an amount as a string with at most two decimals, e.g. "5000" or "5000.00"',
			);
	}
	const brazilian = isBrazil(person.address_country ?? person.fiscal_country);
	validatePastDate(errors, person, 'creation_date', now);
	if (
		!isBlank(person.address_state) &&
		brazilian &&
		!BRAZIL_STATES.includes(person.address_state)
	) {
		errors.add(
			'address_state',
			`must be one of the 27 Brazilian states: ${BRAZIL_STATES.join(', ')}`,
		);
	}
	if (
		!isBlank(person.address_postal_code) &&
		brazilian &&
		!/^\d{8}$/.test(String(person.address_postal_code))
	) {
		errors.add('address_postal_code', 'must be 8 digits (Brazilian CEP), without dash');
	}
	if (!isBlank(person.rfc_pf)) {
		if (!isValidRfc(person.rfc_pf)) errors.add('rfc_pf', 'is not a valid RFC (13 characters)');
		else if (
			person.document_type === 'curp' &&
			typeof person.document_number === 'string' &&
			person.rfc_pf.slice(0, 10) !== person.document_number.slice(0, 10)
		) {
			errors.add(
				'rfc_pf',
				'its first 10 characters must equal the first 10 characters of the CURP',
			);
		}
	}
	if (input.documents !== undefined && input.documents !== null) {
		if (!Array.isArray(input.documents)) errors.add('documents', 'must be a list');
		else
			input.documents.forEach((document, index) =>
				validateDocument(errors, document, `documents[${index}].`),
			);
	}
}

/** An optional YYYY-MM-DD date that cannot be after `now`. */
function validatePastDate(errors, person, field, now) {
	if (isBlank(person[field])) return;
	if (!isDate(person[field])) errors.add(field, 'must be a date in the form YYYY-MM-DD');
	else if (Date.parse(`${person[field]}T00:00:00Z`) > now)
		errors.add(field, 'cannot be in the future');
}
