import { z } from 'zod';

import { checkBrazilianState, checkCep, checkPhoneCountryCode } from '../validation/address';
import { checkBirthDate, type TimeZoneOption } from '../validation/dates';
import {
	checkDocumentNumber,
	checkRfcPerson,
	PERSON_DOCUMENT_TYPES,
} from '../validation/documents';
import { checkBase64, checkHttpUrl, checkLabels } from '../validation/files';
import { checkNonNegativeMoney } from '../validation/money';
import { checkEmail } from '../validation/misc';
import type { Check } from '../validation/result';
import { checked, oneOf, optionalText, text } from './checked';

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
};

const optionalChecked = (check: (raw: string) => Check, options?: { keepNumbers: true }) =>
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
 * Where "today" is for the birth date: `now` (default: the time of parsing) and `timeZone` (the
 * workflow's time zone, `this.getTimezone()`; UTC when not given).
 */
export interface PersonSchemaOptions extends TimeZoneOption {
	now?: Date;
}

const personFieldsFor = (options: PersonSchemaOptions) => ({
	social_name: text('the full social name'),
	fiscal_country: text('the fiscal country, e.g. BR'),
	email: optionalChecked(checkEmail),
	website: optionalText(),
	phone_country_code: optionalChecked(checkPhoneCountryCode),
	phone_area_code: optionalChecked((raw) =>
		/^\d{1,4}$/.test(raw.trim())
			? { ok: true, value: raw.trim() }
			: { ok: false, reason: 'must be 1 to 4 digits, e.g. 11' },
	),
	phone_number: optionalText(),
	birth_date: optionalChecked((raw) => checkBirthDate(raw, options.now ?? new Date(), options)),
	net_monthly_average_income: optionalChecked(checkNonNegativeMoney, { keepNumbers: true }),
	address_street: optionalText(),
	address_number: optionalText(),
	address_complement: optionalText(),
	address_neighborhood: optionalText(),
	address_postal_code: optionalText(),
	address_city: optionalText(),
	address_state: optionalText(),
	address_country: optionalText(),
	rfc_pf: optionalText(),
	documents: z.array(documentSchema).optional(),
});

/**
 * Whether the data of the request says the address is in Brazil (the spec: "In Brazil exactly two
 * letters from: AC, AL…"). The address country decides when it is given; without it, a Brazilian
 * fiscal country or a CPF (a Brazilian document) says so. A passport holder with fiscal country
 * BR and no address country is therefore held to the Brazilian rules too.
 */
export function isBrazilianAddress(
	person: { address_country?: string; fiscal_country?: string },
	documentType?: string,
): boolean {
	const addressCountry = String(person.address_country ?? '').trim();
	if (addressCountry !== '') return isBrazil(addressCountry);
	return isBrazil(person.fiscal_country) || documentType === 'cpf';
}

/** Brazilian addresses: state among the 27 codes and an 8-digit CEP. */
function refineAddress(
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
			const doc = checkDocumentNumber(person.document_type, person.document_number);
			if (!doc.ok) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['document_number'],
					message: doc.reason,
				});
			} else {
				person.document_number = doc.value;
			}
			if (person.rfc_pf) {
				const curp = person.document_type === 'curp' && doc.ok ? doc.value : undefined;
				const rfc = checkRfcPerson(person.rfc_pf, curp);
				if (!rfc.ok)
					ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['rfc_pf'], message: rfc.reason });
				else person.rfc_pf = rfc.value;
			}
			refineAddress(person, ctx, person.document_type);
		});

export const personCreateSchema = personCreateSchemaFor();

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
		});

export const personUpdateSchema = personUpdateSchemaFor();
