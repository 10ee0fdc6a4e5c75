import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PATH_ID_FIELD_REGEX } from '../../validation/pathId';
import { UUID_FIELD_REGEX } from '../../validation/uuid';

interface LocatorOptions {
	name: string;
	displayName: string;
	description: string;
	/** The `methods.listSearch` function behind "From List"; none: By ID only. */
	searchListMethod?: string;
	/** Hint above the list's search box. */
	searchHint?: string;
	placeholder: string;
	uuid: boolean;
	kind: string;
	/** Whether the parameter must be set (default true). */
	required?: boolean;
	hint?: string;
}

/**
 * A Resource Locator: "From List" (searchable, paged) where the service lists this kind of record,
 * and "By ID" checked by a regex, so the editor flags a malformed ID before the run.
 */
export function locatorField(options: LocatorOptions): INodeProperties {
	const byId = {
		displayName: 'By ID',
		name: 'id',
		type: 'string' as const,
		placeholder: options.placeholder,
		validation: [
			{
				type: 'regex' as const,
				properties: {
					regex: options.uuid ? UUID_FIELD_REGEX : PATH_ID_FIELD_REGEX,
					errorMessage: options.uuid
						? `Not a valid ${options.kind} ID: it is a UUID, e.g. ${options.placeholder.replace(/^e\.g\. /, '')}`
						: `Not a valid ${options.kind} ID: letters, digits, _ and - only`,
				},
			},
		],
	};
	const modes = options.searchListMethod
		? [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list' as const,
					placeholder: options.searchHint ?? `Select a ${options.kind}…`,
					typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
				},
				byId,
			]
		: [byId];
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: options.searchListMethod ? 'list' : 'id', value: '' },
		required: options.required ?? true,
		description: options.description,
		...(options.hint ? { hint: options.hint } : {}),
		modes,
	};
}

/**
 * The ID a locator parameter holds: the value of either mode, and also a plain string, as
 * workflows saved before the locator (and expressions) give it.
 */
export function locatorValue(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	return String(raw ?? '').trim();
}
