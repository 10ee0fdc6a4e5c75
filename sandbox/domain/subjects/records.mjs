/**
 * The subject record: the fields every subject has, the fields a request may set, lookups by
 * kind and document number, and the API's view.
 */
import { randomUUID } from 'node:crypto';
import { storedDocument } from './documents.mjs';

/** The fields of a subject a request sets (as strings). */
export const STRING_FIELDS = [
	'document_number',
	'document_type',
	'social_name',
	'fiscal_country',
	'email',
	'website',
	'phone_country_code',
	'phone_area_code',
	'phone_number',
	'birth_date',
	'net_monthly_average_income',
	'address_street',
	'address_number',
	'address_complement',
	'address_neighborhood',
	'address_postal_code',
	'address_city',
	'address_state',
	'address_country',
	'rfc_pf',
	'company_name',
	'creation_date',
	'net_value',
	'main_activity',
	'activity_type',
	'company_type',
];

export const ADDRESS_FIELDS = [
	'address_street',
	'address_number',
	'address_neighborhood',
	'address_postal_code',
	'address_city',
	'address_state',
	'address_country',
];

/** Fields of a person beyond those every subject has. */
export const personOwnFields = () => ({ birth_date: null, rfc_pf: null });
/** Fields of a company beyond those every subject has (a list of partners of its own). */
export const companyOwnFields = () => ({
	creation_date: null,
	net_value: null,
	main_activity: null,
	activity_type: null,
	company_type: null,
	partners: [],
	_kind: 'company',
});

export const isCompany = (subject) => subject._kind === 'company';

/**
 * The subject with this document number, of the kind asked for (`person` or `company`), or of
 * either kind (a payer is recognised by document number whatever it is).
 * @param {Iterable<any>} subjects @param {string} number @param {'person'|'company'} [kind]
 */
export function findByDocument(subjects, number, kind) {
	for (const subject of subjects) {
		if (subject.document_number !== number) continue;
		if (kind === undefined || (kind === 'company') === isCompany(subject)) return subject;
	}
	return null;
}

/**
 * A new subject, approved at clearance level 1 (spec: all new subjects start so): the fields
 * every subject has (null until given), then those of its kind (`own`), filled from `input`.
 * @param {{id: string, now: string}} made id and ISO time of creation
 */
export function newSubject(input, own, { id, now }) {
	const subject = {
		id,
		status: 'approved',
		document_type: input.document_type,
		document_number: input.document_number,
		social_name: null,
		company_name: null,
		fiscal_country: null,
		email: null,
		website: null,
		phone_country_code: null,
		phone_area_code: null,
		phone_number: null,
		net_monthly_average_income: null,
		...own,
		address_street: null,
		address_number: null,
		address_complement: null,
		address_neighborhood: null,
		address_postal_code: null,
		address_city: null,
		address_state: null,
		address_country: null,
		clearance_level: 1,
		required_clearance_level: 1,
		references: [],
		documents: [],
		inserted_at: now,
		updated_at: now,
	};
	applyFields(subject, input, now);
	return subject;
}

/**
 * Copies the fields sent onto the subject (never its document) and stores the documents sent.
 * @param {string} now ISO time
 */
export function applyFields(subject, input, now) {
	for (const field of STRING_FIELDS)
		if (input[field] !== undefined && field !== 'document_number' && field !== 'document_type')
			subject[field] = input[field];
	if (input.partners !== undefined) subject.partners = input.partners;
	if (Array.isArray(input.documents)) {
		for (const document of input.documents)
			subject.documents.push(
				storedDocument(
					document,
					document.file_data ? Buffer.byteLength(document.file_data, 'base64') : null,
					{ id: randomUUID(), now },
				),
			);
	}
	subject.updated_at = now;
}

/** The subject as the API shows it (without the sandbox's `_` fields). */
export function subjectView(subject) {
	const out = {};
	for (const [key, value] of Object.entries(subject)) if (!key.startsWith('_')) out[key] = value;
	return out;
}
