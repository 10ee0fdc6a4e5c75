import type { INodeProperties } from 'n8n-workflow';

export const subscriptionIdField = (
	description = 'ID of the subscription, as returned when it was created',
): INodeProperties => ({
	displayName: 'Subscription ID',
	name: 'subscriptionId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 6d2f1a3b-8c4e-4b7a-9f10-3e5d7c9b1a20',
	description,
});
