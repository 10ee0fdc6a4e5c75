import { z } from 'zod';

import { clock } from '../clock';
import { perTimeZone } from './perTimeZone';
import { checkPhoneAreaCode, checkPhoneCountryCode, checkPhoneNumber } from '../validation/address';
import { checkCreationDate, type TimeZoneOption } from '../validation/dates';
import { checkIncome } from '../validation/amount';
import { checkEmail } from '../validation/email';
import { DOCUMENT_TYPES } from '../validation/documents';
import { invalid, valid, type Check } from '../validation/result';
import { checked, oneOf, optionalText, refineDocumentNumber, text } from './checked';
import { addressFields, optionalChecked, personDocumentSchema, refineAddress } from './subject';

/**
 * Companies (KYB), `POST /subject/companies`: not in the spec (it names the company fields used for
 * marketplace authorisation but shows no endpoint); the endpoint and the example's fields come from
 * FacilitaPay's public documentation (company page), whose table of required fields could not be
 * read. So only what is certain is required: the document (registering a number that exists updates
 * that company) and the legal name. Every other field of the documented example is optional.
 */

/**
 * Document types of a company: a Brazilian CNPJ, a Colombian NIT, a Mexican RFC (12 characters for
 * a company; 13 are taken too, a person's, as a sole trader registers with it), or the tax ID of a
 * company elsewhere. The live docs named cnpj and tax_id; FacilitaPay's public connector adds nit
 * (Colombian companies) and rfc (Mexican companies).
 */
export const COMPANY_DOCUMENT_TYPES = ['cnpj', 'nit', 'rfc', 'tax_id'] as const;

/**
 * Document types of a partner: people (CPF, CURP, passport…) and companies (CNPJ, NIT, RFC, tax ID),
 * i.e. every document type the API accepts.
 */
export const PARTNER_DOCUMENT_TYPES = DOCUMENT_TYPES;

/** `activity_type` values seen in the documentation (others may exist). */
export const ACTIVITY_TYPES_SEEN = ['non-profit', 'open-capital', 'other'] as const;

export const COMPANY_LABELS: Record<string, string> = {
	document_type: 'Document Type',
	document_number: 'Document Number',
	social_name: 'Social Name',
	company_name: 'Company Name',
	fiscal_country: 'Fiscal Country',
	creation_date: 'Creation Date',
	net_monthly_average_income: 'Net Monthly Average Income',
	net_value: 'Net Value',
	address_postal_code: 'Address Postal Code',
	address_state: 'Address State',
	address_number: 'Address Number',
	phone_number: 'Phone Number',
};

/**
 * A partner's share of the company, as the documentation writes it: a percentage as text (`"50"`),
 * more than 0 and at most 100, with at most two decimals. A number from an expression is taken.
 */
export function checkPercentageShare(raw: string | number): Check {
	const text = typeof raw === 'number' ? String(raw) : String(raw ?? '').trim();
	if (text === '') return invalid('is empty; enter the partner’s share in percent, e.g. 50');
	const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.replace(/%$/, '').trim());
	if (!match) {
		return invalid(
			`is "${text}"; enter the share in percent with a dot for decimals, e.g. 50 or 33.33`,
		);
	}
	const hundredths = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
	if (hundredths === 0 || hundredths > 10000) {
		return invalid(`is ${text}%; a share is more than 0 and at most 100`);
	}
	return valid(
		match[2] === undefined ? match[1].replace(/^0+(?=\d)/, '') : `${Number(match[1])}.${match[2]}`,
	);
}

/** One partner (`company.partners[]`). */
export const partnerSchema = z
	.object({
		document_type: oneOf(PARTNER_DOCUMENT_TYPES, 'the partner’s document type'),
		document_number: text('the partner’s document number'),
		name: text('the partner’s full name'),
		percentage_share: checked(checkPercentageShare),
		kind: optionalText(),
		address_country: optionalText(),
	})
	.superRefine((partner, ctx) => {
		refineDocumentNumber(partner, ctx);
	});

/** Hundredths of a percent, to add shares without floating-point error. */
const hundredthsOf = (share: unknown) => {
	if (typeof share !== 'string') return 0; // refused already
	const [whole, fraction = ''] = share.split('.');
	return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};

/**
 * `company` of `POST /subject/companies`. `options` say where "today" is for the creation date
 * (the workflow's time zone; UTC when not given).
 */
export const companySchemaFor = (options: TimeZoneOption & { now?: Date } = {}) =>
	z
		.object({
			document_type: oneOf(
				COMPANY_DOCUMENT_TYPES,
				'cnpj for a Brazilian company, nit for a Colombian one, rfc for a Mexican one, tax_id for another',
			),
			document_number: text('the company’s document number'),
			social_name: text('the company’s legal name'),
			company_name: optionalText(),
			fiscal_country: optionalText(),
			email: optionalChecked(checkEmail),
			website: optionalText(),
			phone_country_code: optionalChecked(checkPhoneCountryCode),
			phone_area_code: optionalChecked(checkPhoneAreaCode),
			phone_number: optionalChecked(checkPhoneNumber, { keepNumbers: true }),
			creation_date: optionalChecked((raw) =>
				checkCreationDate(raw, options.now ?? clock.now(), options),
			),
			...addressFields,
			net_monthly_average_income: optionalChecked(checkIncome, { keepNumbers: true }),
			net_value: optionalChecked(checkIncome, { keepNumbers: true }),
			main_activity: optionalText(),
			activity_type: optionalText(),
			company_type: optionalText(),
			documents: z.array(personDocumentSchema).optional(),
			partners: z.array(partnerSchema).optional(),
		})
		.superRefine((company, ctx) => {
			refineDocumentNumber(company, ctx);
			refineAddress(company, ctx, company.document_type);
			const partners = company.partners ?? [];
			const total = partners.reduce(
				(sum, partner) => sum + hundredthsOf(partner.percentage_share),
				0,
			);
			if (total > 10000) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['partners'],
					message: `have shares adding up to ${total / 100}%; together they hold at most 100%`,
				});
			}
		});

/** companySchemaFor in the workflow's time zone, built once per time zone. */
export const companySchemaIn = perTimeZone(companySchemaFor);
