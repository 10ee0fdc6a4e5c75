import type { INodeProperties } from 'n8n-workflow';

import { ACCOUNT_TYPES } from '../../validation/bankAccount';
import type { DocumentType } from '../../validation/documents';
import { CURRENCIES } from '../../validation/amount';
import { locatorField } from './locator';

/** The head of an operation's "Options" collection: settings a person adds one by one. */
export const OPTIONS_COLLECTION = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
} as const;

/** The head of an "Additional Fields" collection: optional fields of the request. */
export const ADDITIONAL_FIELDS = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
} as const;

/** Return All + Limit, as every n8n "Get Many" has them. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export const subjectIdField = (description = 'The subject (customer)'): INodeProperties =>
	locatorField({
		name: 'subjectId',
		displayName: 'Subject',
		description,
		searchListMethod: 'searchSubjects',
		searchHint: 'Search by name or document number…',
		placeholder: 'e.g. 4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c',
		uuid: true,
		kind: 'subject',
	});

export const transactionIdField: INodeProperties = locatorField({
	name: 'transactionId',
	displayName: 'Transaction',
	description:
		'The transaction. From List shows the transactions of the customers whose name or document matches the search.',
	searchListMethod: 'searchTransactions',
	searchHint: 'Search by customer name or document number…',
	placeholder: 'e.g. 9a1c8e7f-3b2d-4c5e-8f6a-1b2c3d4e5f60',
	uuid: false,
	kind: 'transaction',
});

export const valueField = (description: string): INodeProperties => ({
	displayName: 'Value',
	name: 'value',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 150.00',
	description,
	hint: 'Money is written with a dot and exactly two decimals, e.g. 150.00',
});

/** How each document type reads in a Document Type parameter. */
const DOCUMENT_TYPE_NAMES: Record<DocumentType, string> = {
	cc: 'CC (Colombia, Citizens)',
	ce: 'CE (Colombia, Foreigners)',
	cnpj: 'CNPJ (Brazilian Company)',
	cpf: 'CPF (Brazil)',
	curp: 'CURP (Mexico)',
	nit: 'NIT (Colombian Company)',
	passport: 'Passport',
	rfc: 'RFC (Mexico)',
	rut: 'RUT (Chile)',
	tax_id: 'Tax ID (Foreign Company)',
};

/** The options of a Document Type parameter: the types its request accepts, in their order. */
export const documentTypeOptions = (types: readonly DocumentType[]) =>
	types.map((value) => ({ name: DOCUMENT_TYPE_NAMES[value], value }));

const ACCOUNT_TYPE_NAMES: Record<(typeof ACCOUNT_TYPES)[number], string> = {
	'conta-corrente': 'Checking (Conta Corrente)',
	poupanca: 'Savings (Poupança)',
};

/** The options of a Brazilian Account Type parameter. */
export const accountTypeOptions = ACCOUNT_TYPES.map((value) => ({
	name: ACCOUNT_TYPE_NAMES[value],
	value,
}));

/** The full name of a bank account's owner. */
export const ownerNameField: INodeProperties = {
	displayName: 'Owner Name',
	name: 'ownerName',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Maria da Silva',
	description: 'Full name of the account owner',
};

/** The document (CPF, CNPJ or another country's) of a bank account's owner. */
export const ownerDocumentNumberField = (description: string): INodeProperties => ({
	displayName: 'Owner Document Number',
	name: 'ownerDocumentNumber',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 39053344705',
	description,
});

export const currencyOptions = (allowed: readonly string[] = CURRENCIES) =>
	[...allowed].sort().map((code) => ({ name: code, value: code }));

export const currencyField = (
	name: string,
	displayName: string,
	description: string,
	allowed: readonly string[] = CURRENCIES,
	defaultValue = 'BRL',
): INodeProperties => ({
	displayName,
	name,
	type: 'options',
	required: true,
	options: currencyOptions(allowed),
	default: defaultValue,
	description,
});

/** A required text parameter. */
export const requiredText = (
	name: string,
	displayName: string,
	description: string,
	placeholder: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	required: true,
	default: '',
	placeholder,
	description,
});

export const bankAccountIdField = (
	name: string,
	displayName: string,
	description: string,
): INodeProperties =>
	requiredText(name, displayName, description, 'e.g. 0b5e7c2a-1f3d-4a8e-9c61-000000000001');

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a simplified version of the response instead of the raw data (nested accounts and subject details are left out)',
};

export const binaryPropertyOutputField = (defaultName = 'data'): INodeProperties => ({
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: defaultName,
	hint: 'The name of the output binary field to put the file in',
});

/** Your own data on a new transaction (`meta`), read by `withMetadata`. */
export const metadataField: INodeProperties = {
	displayName: 'Metadata (JSON)',
	name: 'metadata',
	type: 'json',
	default: '{}',
	description:
		'Your own data kept on FacilitaPay’s record of the transaction and returned with it, as a JSON object (e.g. an order number to reconcile by); at most 8 kB',
	hint: 'Sent as the transaction’s meta, beside the key n8n_facilitapay_ref the node keeps there to find the payment again',
};
