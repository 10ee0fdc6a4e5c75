import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { NOTIFICATION_LABELS, notificationQuerySchema } from '../../schemas/notification';
import { apiRequestAllItems } from '../../transport';
import { returnAllOrLimit } from '../common/fields';
import { compact, validateBody } from '../common/input';

/**
 * Page size asked for (`per_page`) when the user does not set one. The service states no maximum;
 * 100 is the page size of its other lists. Because it might still return fewer than asked, a
 * short page does not end the list: only an empty page (or the limit) does.
 */
export const NOTIFICATIONS_PAGE_SIZE = 100;

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
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
				default: NOTIFICATIONS_PAGE_SIZE,
				description:
					'How many notifications to ask for per request (FacilitaPay states no maximum). Without it, 100 per request.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
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
			order_by: options.orderBy,
			failed: options.failed,
		}),
		NOTIFICATION_LABELS,
	);
	const { per_page: perPage, ...query } = qs;
	const notifications = await apiRequestAllItems.call(
		this,
		{
			method: 'GET',
			path: '/notifications',
			qs: query as IDataObject,
			retry: 'safe',
			itemIndex: i,
		},
		{
			limit,
			pageSize: perPage === undefined ? NOTIFICATIONS_PAGE_SIZE : Number(perPage),
			pageSizeParam: 'per_page',
			shortPageEnds: false,
		},
	);
	return notifications.map((notification: IDataObject) => ({ json: notification }));
}
