import type { INodeProperties } from 'n8n-workflow';

import { OPTIONS_COLLECTION } from '../common/fields';

/** The Options collection with "Subject Is Account Owner": absent means "not set", so nothing is sent. */
export const accountOwnerOptions = (description: string): INodeProperties => ({
	...OPTIONS_COLLECTION,
	options: [
		{
			displayName: 'Subject Is Account Owner',
			name: 'isSubjectAccountOwner',
			type: 'boolean',
			default: false,
			description,
			hint: 'Yes is allowed only for a subject with a CPF or a CNPJ (not a passport or tax ID); FacilitaPay rejects it otherwise. Leave the option out to use the service default (No).',
		},
	],
});
