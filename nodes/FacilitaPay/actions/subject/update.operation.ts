import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PERSON_LABELS, personUpdateSchemaIn } from '../../schemas/subject';
import { checkUuid } from '../../validation/uuid';
import { subjectIdField } from '../common/fields';
import { compact, requireValid, validateBody } from '../common/input';
import { personFieldsToApi, personOptionalFields } from './person.fields';
import { readDocuments, subjectWork } from './subject.request';
import type { ItemWork } from '../node.type';
import { locatorValue } from '../common/locator';

const properties: INodeProperties[] = [
	subjectIdField('ID of the person to update, a UUID'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'Only the fields to change. Document type and number cannot be changed: register a new subject instead.',
		options: (
			[
				{
					displayName: 'Social Name',
					name: 'socialName',
					type: 'string',
					default: '',
					description: 'Full social name',
				},
				{
					displayName: 'Fiscal Country',
					name: 'fiscalCountry',
					type: 'string',
					default: '',
					placeholder: 'e.g. BR',
					description:
						'Sent as typed the way FacilitaPay writes it (BR, BRA, Brasil, Colombia, Mexico); BR, BRA, Brazil or Brasil apply the Brazilian address rules',
				},
				...personOptionalFields,
			] as INodeProperties[]
		).sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['update'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(locatorValue(this, 'subjectId', i)));
	const fields = personFieldsToApi(
		compact(this.getNodeParameter('updateFields', i, {}) as IDataObject),
	);
	readDocuments(this, i, fields);
	const person = validateBody(
		this,
		i,
		personUpdateSchemaIn(this.getTimezone()),
		fields,
		PERSON_LABELS,
	);
	return subjectWork(
		i,
		{ method: 'PUT', path: `/subject/people/${encodeURIComponent(id)}` },
		'person',
		person as IDataObject,
		{ id },
	);
}
