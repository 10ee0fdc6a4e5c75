import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PERSON_DOCUMENT_TYPES } from '../../validation/documents';
import { ADDITIONAL_FIELDS, documentTypeOptions } from '../common/fields';
import { compact, validateBody } from '../common/input';
import { PERSON_LABELS, personCreateSchemaIn } from '../../schemas/subject';
import { personFieldsToApi, personOptionalFields } from './person.fields';
import { readDocuments, subjectWork } from './subject.request';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [
	{
		displayName: 'Document Type',
		name: 'documentType',
		type: 'options',
		required: true,
		options: documentTypeOptions(PERSON_DOCUMENT_TYPES),
		default: 'cpf',
		description: 'Type of the national document. It cannot be changed later.',
	},
	{
		displayName: 'Document Number',
		name: 'documentNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 39053344705',
		description:
			'The document number. Dots, dashes, slashes and spaces are removed before sending. If a person with this number exists, their details are updated. It cannot be changed later.',
	},
	{
		displayName: 'Social Name',
		name: 'socialName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Maria da Silva',
		description: 'Full social name',
	},
	{
		displayName: 'Fiscal Country',
		name: 'fiscalCountry',
		type: 'string',
		required: true,
		default: 'BR',
		placeholder: 'e.g. BR',
		description:
			'Country where the person pays taxes, sent as typed the way FacilitaPay writes it (BR, BRA, Brasil, Colombia, Mexico); BR, BRA, Brazil or Brasil apply the Brazilian address rules',
	},
	{
		...ADDITIONAL_FIELDS,
		options: personOptionalFields,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['create'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const additional = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const raw: IDataObject = compact({
		document_type: this.getNodeParameter('documentType', i) as string,
		document_number: this.getNodeParameter('documentNumber', i) as string,
		social_name: this.getNodeParameter('socialName', i) as string,
		fiscal_country: this.getNodeParameter('fiscalCountry', i) as string,
		...personFieldsToApi(compact(additional)),
	});
	readDocuments(this, i, raw);
	const person = validateBody(
		this,
		i,
		personCreateSchemaIn(this.getTimezone()),
		raw,
		PERSON_LABELS,
	);
	return subjectWork(
		i,
		{ method: 'POST', path: '/subject/people' },
		'person',
		person as IDataObject,
	);
}
