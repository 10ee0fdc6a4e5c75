import { z } from 'zod';

import { clock } from '../clock';
import { perTimeZone } from './perTimeZone';
import {
	checkBrazilianState,
	checkCep,
	checkPhoneAreaCode,
	checkPhoneCountryCode,
	checkPhoneNumber,
	checkTextOrWholeNumber,
	isWrittenCep,
} from '../validation/address';
import { checkBirthDate, type TimeZoneOption } from '../validation/dates';
import {
	checkRfcPerson,
	PERSON_DOCUMENT_TYPES,
	stripDocumentPunctuation,
} from '../validation/documents';
import { checkBase64, checkDocumentFile, checkHttpUrl, checkLabels } from '../validation/files';
import { checkIncome } from '../validation/amount';
import { checkEmail } from '../validation/email';
import type { Check } from '../validation/result';
import { asciiUpperCase } from '../validation/text';
import { checked, oneOf, optionalText, refineDocumentNumber, text } from './checked';

const BRAZIL = new Set(['BR', 'BRA', 'BRAZIL', 'BRASIL']);

export const isBrazil = (country?: string) =>
	country !== undefined && BRAZIL.has(country.trim().toUpperCase());

/** Labels the user sees for the API fields of a person (the node's parameter names). */
export const PERSON_LABELS: Record<string, string> = {
	document_number: 'Document Number',
	document_type: 'Document Type',
	social_name: 'Social Name',
	fiscal_country: 'Fiscal Country',
	rfc_pf: 'RFC',
	net_monthly_average_income: 'Net Monthly Average Income',
	address_postal_code: 'Address Postal Code',
	address_state: 'Address State',
	address_number: 'Address Number',
	phone_number: 'Phone Number',
};

export const optionalChecked = (check: (raw: string) => Check, options?: { keepNumbers: true }) =>
	z
		.union([z.string(), z.number()])
		.optional()
		.transform((value) => (value === undefined || String(value).trim() === '' ? undefined : value))
		.pipe(
			(options
				? checked(check as (raw: string | number) => Check, options)
				: checked(check)
			).optional(),
		);

export const documentSchema = z
	.object({
		labels: z
			.union([z.array(z.string()), z.string()])
			.optional()
			.transform((value, ctx) => {
				const result = checkLabels(value ?? []);
				if (!result.ok) {
					ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.reason });
					return z.NEVER;
				}
				return result.value;
			}),
		file_type: text('the MIME type, e.g. application/pdf'),
		file_data: optionalChecked(checkBase64),
		file_name: optionalText(),
		file_url: optionalChecked(checkHttpUrl),
	})
	.superRefine((doc, ctx) => {
		if (!doc.file_data && !doc.file_url) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['file_data'],
				message: 'give either the file (Base64) or a public file URL',
			});
		}
		if (doc.file_data && doc.file_url) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['file_url'],
				message: 'give either the file or a URL, not both',
			});
		}
		if (doc.file_data && !doc.file_name) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['file_name'],
				message: 'is required with the file: give a name with an extension, e.g. proof.pdf',
			});
		}
		if (doc.file_name && !/\.[A-Za-z0-9]{1,8}$/.test(doc.file_name)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['file_name'],
				message: 'must end with an extension, e.g. proof.pdf',
			});
		}
	});

/**
 * A document given inline with a person (`person.documents[]` of Create or Update), checked as
 * Upload Document checks its file: the content decides the type (a recognised format is sent with
 * its own MIME type whatever `file_type` says; another keeps the declared type, which must then be
 * a MIME type), at most 15 MB, a file name with an extension; or a public URL with its
 * `file_type`. Labels are optional here: the spec requires them on the upload endpoint only; when
 * given they follow the label rules.
 */
export const personDocumentSchema = z
	.object({
		labels: z
			.union([z.array(z.string()), z.string()])
			.optional()
			.transform((value, ctx) => {
				const empty =
					value === undefined ||
					(Array.isArray(value)
						? value.every((label) => String(label).trim() === '')
						: value.trim() === '');
				if (empty) return undefined;
				const result = checkLabels(value);
				if (!result.ok) {
					ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.reason });
					return z.NEVER;
				}
				return result.value;
			}),
		file_type: optionalText(),
		file_data: optionalChecked(checkBase64),
		file_name: optionalText(),
		file_url: optionalChecked(checkHttpUrl),
	})
	.superRefine((doc, ctx) => {
		const issue = (field: string, message: string) =>
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
		if (!doc.file_data && !doc.file_url) {
			issue('file_data', 'give either the file (Base64) with its file_name, or a public file_url');
			return;
		}
		if (doc.file_data && doc.file_url) {
			issue('file_url', 'give either the file or a URL, not both');
			return;
		}
		if (doc.file_url) {
			if (!doc.file_type)
				issue(
					'file_type',
					'is required with a file URL: enter the MIME type, e.g. application/pdf',
				);
			return;
		}
		const file = checkDocumentFile({
			bytes: Buffer.from(doc.file_data as string, 'base64'),
			fileName: doc.file_name ?? '',
			declaredType: doc.file_type,
		});
		if (!file.ok) {
			issue(file.field, file.reason);
			return;
		}
		doc.file_type = file.fileType;
		doc.file_name = file.fileName;
	})
	.transform((doc) => {
		const out: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(doc)) if (value !== undefined) out[key] = value;
		return out as typeof doc;
	});

/**
 * Where "today" is for the birth date: `now` (default: the time of parsing) and `timeZone` (the
 * workflow's time zone, `this.getTimezone()`; UTC when not given).
 */
export interface PersonSchemaOptions extends TimeZoneOption {
	now?: Date;
}

/**
 * The address fields a person and a company share; refineAddress applies the Brazilian rules to
 * them where the request says the address is in Brazil.
 */
export const addressFields = {
	address_street: optionalText(),
	address_number: optionalChecked(checkTextOrWholeNumber, { keepNumbers: true }),
	address_complement: optionalText(),
	address_neighborhood: optionalText(),
	address_postal_code: optionalText(),
	address_city: optionalText(),
	address_state: optionalText(),
	address_country: optionalText(),
};

const personFieldsFor = (options: PersonSchemaOptions) => ({
	social_name: text('the full social name'),
	fiscal_country: text('the fiscal country, e.g. BR'),
	email: optionalChecked(checkEmail),
	website: optionalText(),
	phone_country_code: optionalChecked(checkPhoneCountryCode),
	phone_area_code: optionalChecked(checkPhoneAreaCode),
	phone_number: optionalChecked(checkPhoneNumber, { keepNumbers: true }),
	birth_date: optionalChecked((raw) => checkBirthDate(raw, options.now ?? clock.now(), options)),
	net_monthly_average_income: optionalChecked(checkIncome, { keepNumbers: true }),
	...addressFields,
	rfc_pf: optionalText(),
	documents: z.array(personDocumentSchema).optional(),
});

/**
 * Whether the data of the request says the address is in Brazil (the spec: "In Brazil exactly two
 * letters from: AC, AL…"). The address country decides when it is given; without it, a Brazilian
 * fiscal country or a CPF or CNPJ (Brazilian documents) says so. A passport holder with fiscal country
 * BR and no address country is therefore held to the Brazilian rules too.
 */
export function isBrazilianAddress(
	person: { address_country?: string; fiscal_country?: string },
	documentType?: string,
): boolean {
	const addressCountry = String(person.address_country ?? '').trim();
	if (addressCountry !== '') return isBrazil(addressCountry);
	return isBrazil(person.fiscal_country) || documentType === 'cpf' || documentType === 'cnpj';
}

/** Brazilian addresses: state among the 27 codes and an 8-digit CEP. */
export function refineAddress(
	person: {
		address_state?: string;
		address_postal_code?: string;
		address_country?: string;
		fiscal_country?: string;
	},
	ctx: z.RefinementCtx,
	documentType?: string,
) {
	const brazilian = isBrazilianAddress(person, documentType);
	if (!brazilian) return;
	if (person.address_state) {
		const state = checkBrazilianState(person.address_state);
		if (!state.ok)
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['address_state'], message: state.reason });
		else person.address_state = state.value;
	}
	if (person.address_postal_code) {
		const cep = checkCep(person.address_postal_code);
		if (!cep.ok)
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['address_postal_code'],
				message: cep.reason,
			});
		else person.address_postal_code = cep.value;
	}
}

/**
 * An update that names no country (neither Address Country nor Fiscal Country) cannot tell whether
 * the stored address is in Brazil. What is Brazilian by its very form still follows the Brazilian
 * rules: a postal code written as a CEP (`01310-100`) is sent as its 8 digits, and a two-letter
 * state is upper-cased (harmless in any country). Anything else is sent as typed; the service
 * checks it against the stored country.
 */
function refineAddressOfUnknownCountry(person: {
	address_state?: string;
	address_postal_code?: string;
	address_country?: string;
	fiscal_country?: string;
}) {
	if (person.address_country || person.fiscal_country) return;
	if (person.address_postal_code && isWrittenCep(person.address_postal_code))
		person.address_postal_code = stripDocumentPunctuation(person.address_postal_code).value;
	if (person.address_state && /^[A-Za-z]{2}$/.test(person.address_state))
		person.address_state = asciiUpperCase(person.address_state);
}

/**
 * `POST /subject/people` body (`person`): the document is checked by its type's own rules.
 * `options` say where "today" is for the birth date (personCreateSchema: now, in UTC).
 */
export const personCreateSchemaFor = (options: PersonSchemaOptions = {}) =>
	z
		.object({
			document_type: oneOf(
				PERSON_DOCUMENT_TYPES as unknown as [string, ...string[]],
				'the document type',
			),
			document_number: text('the document number'),
			...personFieldsFor(options),
		})
		.superRefine((person, ctx) => {
			const documentOk = refineDocumentNumber(person, ctx);
			if (person.rfc_pf) {
				const curp =
					person.document_type === 'curp' && documentOk ? person.document_number : undefined;
				const rfc = checkRfcPerson(person.rfc_pf, curp);
				if (!rfc.ok)
					ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['rfc_pf'], message: rfc.reason });
				else person.rfc_pf = rfc.value;
			}
			refineAddress(person, ctx, person.document_type);
		});

export const personCreateSchema = personCreateSchemaFor();

/** personCreateSchemaFor in the workflow's time zone, built once per time zone. */
export const personCreateSchemaIn = perTimeZone(personCreateSchemaFor);

/**
 * `PUT /subject/people/:id` body (`person`): only the fields to change; the document cannot change.
 * `options` as for personCreateSchemaFor (personUpdateSchema: now, in UTC).
 */
export const personUpdateSchemaFor = (options: PersonSchemaOptions = {}) =>
	z
		.object(personFieldsFor(options))
		.partial()
		.strict()
		.superRefine((person, ctx) => {
			if (Object.values(person).every((value) => value === undefined)) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: [],
					message: 'no field to change: add at least one field under Update Fields',
				});
			}
			if (person.rfc_pf) {
				const rfc = checkRfcPerson(person.rfc_pf);
				if (!rfc.ok)
					ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['rfc_pf'], message: rfc.reason });
				else person.rfc_pf = rfc.value;
			}
			refineAddress(person, ctx);
			refineAddressOfUnknownCountry(person);
		});

export const personUpdateSchema = personUpdateSchemaFor();

/** personUpdateSchemaFor in the workflow's time zone, built once per time zone. */
export const personUpdateSchemaIn = perTimeZone(personUpdateSchemaFor);
