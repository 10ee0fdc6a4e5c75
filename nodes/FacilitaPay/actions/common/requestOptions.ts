import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RunSettings } from '../../transport';
import type { ResourceModule } from '../node.type';
import { DEFAULT_RUN_SETTINGS } from '../../transport';

/** The most requests in flight that Max Parallel Requests accepts. */
export const MAX_CONCURRENCY = 100;

/** "Request Options", under every operation: how many requests run at once and how long to wait. */
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Max Parallel Requests',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
			default: 20,
			description:
				'The most requests to FacilitaPay in flight at once when the node runs on many items. Output order is kept. When FacilitaPay limits the rate (HTTP 429), fewer are sent until it allows more.',
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1000 },
			default: 30000,
			description:
				'How long to wait for FacilitaPay to answer one request, in milliseconds. A payment request that times out is not sent again: its item fails with an unknown outcome.',
		},
	],
};

/**
 * The operations that declare they create or move money (`export const money` in their module),
 * by resource: they take an Idempotency Key and offer Preview Only.
 */
export function moneyOperations(
	resources: Record<string, ResourceModule>,
): Record<string, string[]> {
	const byResource: Record<string, string[]> = {};
	for (const [resource, module] of Object.entries(resources)) {
		const operations = Object.entries(module)
			.filter(([, operation]) => !Array.isArray(operation) && operation.money !== undefined)
			.map(([name]) => name)
			.sort();
		if (operations.length > 0) byResource[resource] = operations;
	}
	return byResource;
}

/** What the Idempotency Key does, for the field's description. */
const KEY_DESCRIPTION =
	'A reference naming this payment, e.g. an order number: a key FacilitaPay already holds is not sent again, on any day; the item comes out with alreadyDone and the record';

/** How the AI model fills the key when the node is a tool. */
export const TOOL_KEY_DEFAULT =
	"={{ $fromAI('idempotency_key', 'A short reference naming this one payment, such as the order or invoice number it pays. Give the same reference again when you repeat a request for the same payment (it is then not paid twice); give a new reference for every different payment.', 'string') }}";

/**
 * "Idempotency Key", one per resource with money-moving operations (shown only for those). As an
 * AI tool the model gives it (`$fromAI`), so that the same payment asked twice is paid once.
 */
export const idempotencyKeyFields = (money: Record<string, string[]>): INodeProperties[] =>
	Object.entries(money).flatMap(([resource, operations]) => [
		{
			displayName: 'Idempotency Key',
			name: 'idempotencyKey',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.orderId }}',
			description: KEY_DESCRIPTION,
			hint: "Kept in the payment's meta (n8n_facilitapay_ref). Empty: sent every time, yet a retry of a failed execution never pays twice",
			displayOptions: { show: { resource: [resource], operation: operations, '@tool': [false] } },
		},
		{
			displayName: 'Idempotency Key',
			name: 'idempotencyKey',
			type: 'string',
			default: TOOL_KEY_DEFAULT,
			description: `${KEY_DESCRIPTION}. As a tool, the model gives it.`,
			hint: 'The same reference is paid once; a different reference is another payment',
			displayOptions: { show: { resource: [resource], operation: operations, '@tool': [true] } },
		},
	]);

/** "Preview Only", one per resource with money-moving operations (shown only for those). */
export const previewFields = (money: Record<string, string[]>): INodeProperties[] =>
	Object.entries(money).map(([resource, operations]) => ({
		displayName: 'Preview Only (Send Nothing)',
		name: 'previewOnly',
		type: 'boolean',
		noDataExpression: true,
		default: false,
		description:
			'Whether to check every item and output exactly the request each would send (card data masked), sending nothing. The output pane shows how many and the total per currency.',
		displayOptions: { show: { resource: [resource], operation: operations } },
	}));

/** Whether the run only previews its money-moving requests. */
export function readPreviewOnly(ctx: IExecuteFunctions): boolean {
	return ctx.getNodeParameter('previewOnly', 0, false) === true;
}

/** The item's Idempotency Key, or undefined when the operation has none or it is empty. */
export function readIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const value = ctx.getNodeParameter('idempotencyKey', itemIndex, '') as unknown;
	if (value === undefined || value === null) return undefined;
	const key = String(value).trim();
	return key === '' ? undefined : key;
}

/** The run's settings, read once (from the first item: they apply to the whole run). */
export function readRunSettings(ctx: IExecuteFunctions): RunSettings {
	const options = ctx.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	const concurrency = Number(options.concurrency ?? DEFAULT_RUN_SETTINGS.concurrency);
	const timeoutMs = Number(options.timeout ?? DEFAULT_RUN_SETTINGS.timeoutMs);
	if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Max Parallel Requests must be a whole number from 1 to ${MAX_CONCURRENCY}`,
			{
				description: `It is ${String(options.concurrency)}. Change it under Request Options.`,
			},
		);
	}
	if (!Number.isFinite(timeoutMs) || timeoutMs < 1000) {
		throw new NodeOperationError(ctx.getNode(), 'Timeout must be at least 1000 ms', {
			description: `It is ${String(options.timeout)}. Change it under Request Options.`,
		});
	}
	return { concurrency, timeoutMs };
}
