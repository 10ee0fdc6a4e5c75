import type { INodeProperties } from 'n8n-workflow';

import { CURRENCIES } from '../../validation/money';
import { locatorField } from './locator';

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
