import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** A UUID, as the service's subject, subscription, transaction and invoice IDs are. */
export const UUID_PATTERN =
	'^\\s*[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\s*$';
/** Any other ID placed in a URL path: letters, digits, `_` and `-` only. */
export const PATH_ID_PATTERN = '^\\s*[A-Za-z0-9_-]{1,128}\\s*$';

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
					regex: options.uuid ? UUID_PATTERN : PATH_ID_PATTERN,
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
	if (raw && typeof raw === 'object' && 'value' in raw) {
		return String((raw as { value: unknown }).value ?? '').trim();
	}
	return String(raw ?? '').trim();
}
