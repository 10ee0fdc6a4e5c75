import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	ACTIVITY_TYPES_SEEN,
	COMPANY_DOCUMENT_TYPES,
	COMPANY_LABELS,
	companySchemaIn,
	PARTNER_DOCUMENT_TYPES,
} from '../../schemas/company';
import { ADDITIONAL_FIELDS, documentTypeOptions } from '../common/fields';
import { compact, validateBody } from '../common/input';
import type { ItemWork } from '../node.type';
import { personFieldsToApi, personOptionalFields } from './person.fields';
import { readDocuments, subjectWork } from './subject.request';

/** The person fields a company has too (no birth date, RFC or documents: those differ below). */
const SHARED_FIELDS = new Set([
	'addressCity',
	'addressComplement',
	'addressCountry',
	'addressNeighborhood',
	'addressNumber',
	'addressPostalCode',
	'addressState',
	'addressStreet',
	'email',
	'netMonthlyAverageIncome',
	'phoneAreaCode',
	'phoneCountryCode',
	'phoneNumber',
	'website',
]);

const companyOptionalFields: INodeProperties[] = (
	[
		...personOptionalFields.filter((field) => SHARED_FIELDS.has(field.name)),
		{
			displayName: 'Activity Type',
			name: 'activityType',
			type: 'string',
			default: '',
			placeholder: 'e.g. other',
			description: `Kind of activity. Values seen in FacilitaPay's documentation: ${ACTIVITY_TYPES_SEEN.join(', ')}; its full list is not published, so the value is sent as typed.`,
		},
		{
			displayName: 'Company Type',
			name: 'companyType',
			type: 'string',
			default: '',
			placeholder: 'e.g. ltda',
			description: 'Legal form of the company, as FacilitaPay writes it (e.g. ltda)',
		},
		{
			displayName: 'Creation Date',
			name: 'creationDate',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2015-03-01',
			description: 'Date the company was founded, YYYY-MM-DD, today or earlier',
		},
		{
			displayName: 'Documents (JSON)',
			name: 'documents',
			type: 'json',
			default: '[]',
			description:
				'An array of {file_data (Base64), file_name} or {file_url, file_type}, with labels such as social-contract. Checked as Upload Document checks a file.',
			hint: 'Marketplace: at least 3 (4 without a website) plus one per partner holding 25% or more. Sent once, never repeated automatically',
		},
		{
			displayName: 'Main Activity',
			name: 'mainActivity',
			type: 'string',
			default: '',
			placeholder: 'e.g. 6201-5/01 Desenvolvimento de programas de computador sob encomenda',
			description:
				'The CNAE code and label of the main activity. The documentation shows it but not its exact form: it is sent as typed.',
		},
		{
			displayName: 'Net Value',
			name: 'netValue',
			type: 'string',
			default: '',
			placeholder: 'e.g. 10000',
			description: 'Net worth of the company, e.g. 10000 or 10000.00 (sent with two decimals)',
		},
	] as INodeProperties[]
).sort((a, b) => a.displayName.localeCompare(b.displayName));

const properties: INodeProperties[] = [
	{
		displayName:
			'Companies come from FacilitaPay’s public documentation, not the interface spec: its table of required company fields could not be read, so only the document and the legal name are required here and FacilitaPay names anything else it needs.',
		name: 'companyNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Document Type',
		name: 'documentType',
		type: 'options',
		required: true,
		options: documentTypeOptions(COMPANY_DOCUMENT_TYPES),
		default: 'cnpj',
		description: 'Type of the company’s document. It cannot be changed later.',
	},
	{
		displayName: 'Document Number',
		name: 'documentNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 16727230000197',
		description:
			'Dots, dashes, slashes and spaces are removed. CNPJ: 14 characters (alphanumeric included), check digits verified. A company with this number already registered is updated.',
		hint: 'NIT: 6 to 11 digits with its verification digit (900123456-7). RFC: 12 characters (13 for a sole trader)',
	},
	{
		displayName: 'Social Name',
		name: 'socialName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Exemplo Comércio Ltda',
		description: 'Legal name of the company (razão social)',
	},
	{
		displayName: 'Company Name',
		name: 'companyName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Exemplo',
		description: 'Trade name of the company (nome fantasia). Marketplace collection needs it.',
	},
	{
		displayName: 'Fiscal Country',
		name: 'fiscalCountry',
		type: 'string',
		default: 'BR',
		placeholder: 'e.g. BR',
		description:
			'Country where the company pays taxes, sent as typed the way FacilitaPay writes it (BR, BRA, Brasil, Colombia, Mexico); BR, BRA, Brazil or Brasil apply the Brazilian address rules',
	},
	{
		displayName: 'Partners',
		name: 'partners',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Partner',
		default: {},
		description:
			'The company’s partners. Marketplace collection needs one more document for each partner holding 25% or more.',
		options: [
			{
				displayName: 'Partner',
				name: 'partner',
				values: [
					{
						displayName: 'Address Country',
						name: 'addressCountry',
						type: 'string',
						default: '',
						placeholder: 'e.g. BR',
						description: 'Country of the partner’s address (optional)',
					},
					{
						displayName: 'Document Number',
						name: 'documentNumber',
						type: 'string',
						default: '',
						placeholder: 'e.g. 39053344705',
						description: 'Checked by its type; punctuation is removed',
					},
					{
						displayName: 'Document Type',
						name: 'documentType',
						type: 'options',
						options: documentTypeOptions(PARTNER_DOCUMENT_TYPES),
						default: 'cpf',
					},
					{
						displayName: 'Kind',
						name: 'kind',
						type: 'string',
						default: 'person',
						description:
							'What the partner is. The documentation shows "person" only; for a company partner enter the value FacilitaPay gives you.',
					},
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. Maria da Silva',
						description: 'Full name of the partner',
					},
					{
						displayName: 'Percentage Share',
						name: 'percentageShare',
						type: 'string',
						default: '',
						placeholder: 'e.g. 50',
						description:
							'The partner’s share in percent, more than 0 and at most 100 (sent as text, e.g. "50"); all partners together hold at most 100%',
					},
				],
			},
		],
	},
	{
		...ADDITIONAL_FIELDS,
		options: companyOptionalFields,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['createCompany'] } },
	properties,
);

/** The partners of the fixed collection, under the API's names. */
function partnersOf(raw: unknown): IDataObject[] {
	const list = ((raw as IDataObject | undefined)?.partner ?? []) as IDataObject[];
	return list.map((partner) =>
		compact({
			document_type: partner.documentType,
			document_number: partner.documentNumber,
			name: partner.name,
			percentage_share: partner.percentageShare,
			kind: partner.kind,
			address_country: partner.addressCountry,
		}),
	);
}

/**
 * `POST /subject/companies` with `{"company": {…}}` (public documentation). Idempotent by document
 * number (an existing company is updated), so retried like Subject > Create or Update; with
 * documents it is sent once, as they would be appended again.
 */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const additional = compact(this.getNodeParameter('additionalFields', i, {}) as IDataObject);
	const raw: IDataObject = compact({
		document_type: this.getNodeParameter('documentType', i) as string,
		document_number: this.getNodeParameter('documentNumber', i) as string,
		social_name: this.getNodeParameter('socialName', i) as string,
		company_name: this.getNodeParameter('companyName', i, '') as string,
		fiscal_country: this.getNodeParameter('fiscalCountry', i, '') as string,
		...personFieldsToApi(additional),
	});
	const partners = partnersOf(this.getNodeParameter('partners', i, {}));
	if (partners.length > 0) raw.partners = partners;
	readDocuments(this, i, raw);
	const company = validateBody(this, i, companySchemaIn(this.getTimezone()), raw, COMPANY_LABELS);
	return subjectWork(
		i,
		{ method: 'POST', path: '/subject/companies' },
		'company',
		company as IDataObject,
	);
}
