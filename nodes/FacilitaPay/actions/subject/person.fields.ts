import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** The optional person fields, shared by Create (Additional Fields) and Update (Update Fields). */
export const personOptionalFields: INodeProperties[] = [
	{
		displayName: 'Address City',
		name: 'addressCity',
		type: 'string',
		default: '',
		description: 'Needed for card, PSE and boleto payments',
	},
	{
		displayName: 'Address Complement',
		name: 'addressComplement',
		type: 'string',
		default: '',
		placeholder: 'e.g. Apt 42, Block B',
	},
	{
		displayName: 'Address Country',
		name: 'addressCountry',
		type: 'string',
		default: '',
		placeholder: 'e.g. BR',
		description: 'Needed for card, PSE and boleto payments',
	},
	{
		displayName: 'Address Neighborhood',
		name: 'addressNeighborhood',
		type: 'string',
		default: '',
		description: 'Needed for card, PSE and boleto payments',
	},
	{
		displayName: 'Address Number',
		name: 'addressNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1000',
		description:
			'Needed for card, PSE and boleto payments. A whole number from an expression is sent as its digits.',
	},
	{
		displayName: 'Address Postal Code',
		name: 'addressPostalCode',
		type: 'string',
		default: '',
		placeholder: 'e.g. 01310-100',
		description:
			'Needed for card, PSE and boleto payments. In Brazil the 8-digit CEP, sent without the dash.',
	},
	{
		displayName: 'Address State',
		name: 'addressState',
		type: 'string',
		default: '',
		placeholder: 'e.g. SP',
		description:
			'Needed for card, PSE and boleto payments. In Brazil the two-letter code of one of the 27 states (SP, RJ, MG…), checked before sending; elsewhere the state or region as the country writes it.',
	},
	{
		displayName: 'Address Street',
		name: 'addressStreet',
		type: 'string',
		default: '',
		description: 'Needed for card, PSE and boleto payments',
	},
	{
		displayName: 'Birth Date',
		name: 'birthDate',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1990-05-17',
		description: 'Date of birth in YYYY-MM-DD form',
	},
	{
		displayName: 'Documents (JSON)',
		name: 'documents',
		type: 'json',
		default: '[]',
		description:
			'An array of {file_data (Base64), file_name} or {file_url, file_type}, labels optional; at most 15 MB each. Required above 20k USD a year. For a file from n8n, use Upload Document.',
		hint: 'With documents the request is sent once and never repeated automatically: each send adds the documents again',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Needed for card, PSE and boleto payments',
	},
	{
		displayName: 'Net Monthly Average Income',
		name: 'netMonthlyAverageIncome',
		type: 'string',
		default: '',
		placeholder: 'e.g. 5000.00',
		description:
			'Monthly average income, e.g. 5000 or 5000.00 (at most two decimals; sent with two)',
	},
	{
		displayName: 'Phone Area Code',
		name: 'phoneAreaCode',
		type: 'string',
		default: '',
		placeholder: 'e.g. 11',
		description: 'Internal area code. Needed for PSE.',
	},
	{
		displayName: 'Phone Country Code',
		name: 'phoneCountryCode',
		type: 'string',
		default: '',
		placeholder: 'e.g. 55',
		description: 'Country phone code. Needed for card payments in MXN and for PSE.',
	},
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 987654321',
		description:
			'Needed for card, PSE and boleto payments. The number without country and area code, 4 to 15 digits; spaces and dashes are removed.',
	},
	{
		displayName: 'RFC',
		name: 'rfcPf',
		type: 'string',
		default: '',
		placeholder: 'e.g. BOXW310820AB1',
		description:
			'Mexico: the person’s 13-character tax ID, if they have one. Its first 10 characters must equal the CURP’s.',
	},
	{
		displayName: 'Website',
		name: 'website',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com',
		description: 'Website or related profile page',
	},
];

const toSnake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Maps the collection's camelCase parameters to the API's snake_case fields. */
export function personFieldsToApi(fields: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) {
		result[toSnake(key)] = value;
	}
	return result;
}
