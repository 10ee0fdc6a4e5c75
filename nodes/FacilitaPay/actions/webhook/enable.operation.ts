import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { enableWebhooksSchema, WEBHOOK_LABELS, WEBHOOK_URL_EXAMPLE } from '../../schemas/webhook';
import { errorFromFacts } from '../../transport';
import { validateBody } from '../common/input';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [
	{
		displayName:
			'FacilitaPay keeps ONE webhook URL per account. Enabling replaces the URL used by any other workflow or system on this account, which stops receiving notifications. The FacilitaPay Trigger node does this by itself when its workflow is activated, so you only need this operation to point notifications somewhere else.',
		name: 'oneUrlNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: `e.g. ${WEBHOOK_URL_EXAMPLE}`,
		description:
			'Public address (http:// or https://) that FacilitaPay will POST every notification to. It replaces the account’s current webhook URL.',
		hint: 'Must be reachable from the internet; a localhost or test URL will not receive anything',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['enable'] } },
	properties,
);

/**
 * Sent with retry `safe`: it moves no money and repeating it converges to the same state (this URL
 * registered). If the service picks a new secret per call, the secret returned is the one of the
 * last call that reached it, which is the one in force.
 */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const body = validateBody(
		this,
		i,
		enableWebhooksSchema,
		{ url: this.getNodeParameter('url', i) },
		WEBHOOK_LABELS,
	);
	return {
		request: { method: 'POST', path: '/enable_webhooks', body, retry: 'safe', itemIndex: i },
		output(answer) {
			const data = answer as IDataObject | undefined;
			const secret = data && typeof data === 'object' ? data.secret : undefined;
			if (secret === undefined || secret === null || secret === '') {
				throw errorFromFacts(this.getNode(), {
					itemIndex: i,
					outcome: 'failed',
					head: 'FacilitaPay enabled the webhook but its answer has no secret',
					detail: JSON.stringify(data ?? null),
					fix: 'The URL is probably registered, but without the secret notifications cannot be checked. Run the operation again to receive a secret.',
				});
			}
			return [{ json: { secret: String(secret), url: body.url } }];
		},
	};
}
