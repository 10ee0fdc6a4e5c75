import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { NOTIFICATION_LABELS, notificationQuerySchema } from '../../schemas/notification';
import { OPTIONS_COLLECTION, returnAllOrLimit } from '../common/fields';
import { compact, validateBody } from '../common/input';
import { SERVICE_PAGE_SIZE } from '../../transport';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		...OPTIONS_COLLECTION,
		options: [
			{
				displayName: 'Delivery Status',
				name: 'failed',
				type: 'options',
				options: [
					{ name: 'Any', value: 'any', description: 'Failed and successful deliveries' },
					{
						name: 'Only Failed',
						value: 'onlyFailed',
						description: 'Notifications still failing after the 5 redeliveries',
					},
					{
						name: 'Only Successful',
						value: 'onlySuccessful',
						description: 'Delivered notifications',
					},
				],
				default: 'any',
				description: 'Which notifications to list, by the outcome of their delivery',
			},
			{
				displayName: 'Last ID',
				name: 'lastId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b',
				description:
					'Start after this notification (it is excluded): the ID of the last one you already have',
			},
			{
				displayName: 'Order',
				name: 'orderBy',
				type: 'options',
				options: [
					{ name: 'Newest First', value: 'desc' },
					{ name: 'Oldest First', value: 'asc' },
				],
				default: 'asc',
				description: 'Order of the notifications; FacilitaPay lists the oldest first by default',
			},
			{
				displayName: 'Per Page',
				name: 'perPage',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: SERVICE_PAGE_SIZE,
				description: `How many notifications to ask for per request (FacilitaPay states no maximum). Without it, ${SERVICE_PAGE_SIZE} per request.`,
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['getMany'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', i) as number);
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const qs = validateBody(
		this,
		i,
		notificationQuerySchema,
		compact({
			last_id: options.lastId,
			per_page: options.perPage,
			// Oldest first is the service's default: only the other order is sent.
			order_by: options.orderBy === 'asc' ? undefined : options.orderBy,
			failed: options.failed,
		}),
		NOTIFICATION_LABELS,
	);
	const { per_page: perPage, ...query } = qs;
	return {
		request: {
			method: 'GET',
			path: '/notifications',
			qs: query as IDataObject,
			retry: 'safe',
			itemIndex: i,
		},
		send: 'allPages',
		// Without Per Page, the page size of the service's other lists is asked for. The service states
		// no maximum and might return fewer than asked, so a short page does not end the list: only
		// an empty page (or the limit) does.
		page: {
			limit,
			pageSize: perPage === undefined ? SERVICE_PAGE_SIZE : Number(perPage),
			pageSizeParam: 'per_page',
			shortPageEnds: false,
		},
		output: (notifications) =>
			(notifications as IDataObject[]).map((notification) => ({
				json: withoutSecret(notification),
			})),
	};
}

/**
 * A notification record without the webhook secret its payload carries: whoever can read a
 * workflow's execution data must not learn the secret that authenticates notifications.
 */
export function withoutSecret(notification: IDataObject): IDataObject {
	const strip = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(strip);
		if (value && typeof value === 'object') {
			const copy: IDataObject = {};
			for (const [key, inner] of Object.entries(value as IDataObject)) {
				if (key === 'secret') continue;
				copy[key] = strip(inner) as IDataObject[keyof IDataObject];
			}
			return copy;
		}
		if (typeof value === 'string' && /"secret"\s*:/.test(value)) {
			try {
				return JSON.stringify(strip(JSON.parse(value)));
			} catch {
				return value.replace(/("secret"\s*:\s*)("[^"]*"|\d+)/g, '$1"[hidden]"');
			}
		}
		return value;
	};
	return strip(notification) as IDataObject;
}
