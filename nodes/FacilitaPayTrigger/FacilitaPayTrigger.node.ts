import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { credentialBaseUrl } from '../../credentials/FacilitaPayApi.credentials';
import { apiRequest, CREDENTIAL_TYPE, defaultRetryOptions } from '../FacilitaPay/transport';
import { ALL_EVENTS, eventOptions, isEventSelected } from './events';
import {
	classifyPayload,
	eventFields,
	kycStatusFields,
	parseBody,
	safeHeaders,
	transactionIdOf,
} from './notification';
import {
	forgetRegistration,
	isUnreachableFromInternet,
	readRegistration,
	saveRegistration,
} from './registration';
import { digestSecret, matchesStoredDigest } from './secret';

interface TriggerOptions {
	acceptUnsignedKycStatus?: boolean;
	disableOnDeactivation?: boolean;
	fetchTransaction?: boolean;
	includeHeaders?: boolean;
}

/** Fetch Transaction delays FacilitaPay's answer, so it gets one quick retry at most. */
const FETCH_TRANSACTION_ATTEMPTS = 2;
const FETCH_TRANSACTION_MAX_DELAY_MS = 1_000;

export class FacilitaPayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'FacilitaPay Trigger',
		name: 'facilitaPayTrigger',
		icon: { light: 'file:facilitaPay.svg', dark: 'file:facilitaPay.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ ($parameter["events"] || []).includes("*") ? "All Events" : ($parameter["events"] || []).join(", ") }}',
		description:
			'Starts the workflow when FacilitaPay (Attrus) sends a notification: payments, wires, subscriptions, KYC',
		defaults: { name: 'FacilitaPay Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'facilitaPayApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'FacilitaPay sends all notifications of an account to one URL. Activating this workflow points that URL here, so only one active FacilitaPay Trigger per account receives events: use one trigger and route with a Switch node, or call other workflows with Execute Workflow. "Listen for test event" takes the URL over from an active workflow until that workflow is deactivated and activated again; notifications missed meanwhile are listed by the FacilitaPay node (Notification → Get Many, Delivery Status: Only Failed) and can be replayed.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [ALL_EVENTS],
				options: eventOptions,
				description:
					'The notifications that start the workflow. Others are answered with 200 and start nothing.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Accept Unsigned KYC Status Payloads',
						name: 'acceptUnsignedKycStatus',
						type: 'boolean',
						default: false,
						description:
							'Whether to start the workflow for the KYC status payload (a subject in a "data" object). It carries no secret, so anyone who knows this URL can send one: treat it as a hint and re-read the subject before acting on it. Accepted payloads start the workflow whatever the Events choice.',
					},
					{
						displayName: 'Disable Notifications on Deactivation',
						name: 'disableOnDeactivation',
						type: 'boolean',
						default: false,
						description:
							'Whether deactivating this workflow also turns off every notification of the FacilitaPay account. That stops notifications for all workflows and systems using the account, not only this one. When off, deactivating leaves the account as it is.',
					},
					{
						displayName: 'Fetch Transaction',
						name: 'fetchTransaction',
						type: 'boolean',
						default: false,
						description:
							'Whether to re-read the transaction from FacilitaPay for events that carry a transaction ID and add it under "transaction", as FacilitaPay advises before acting on money. The answer to FacilitaPay waits for this read; if it fails, FacilitaPay gets an error and sends the notification again later.',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers under "headers" (authorization, cookie and token headers are left out)',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			/** Registered when this node's static data holds a secret for the URL n8n gives it now. */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const registration = readRegistration(this.getWorkflowStaticData('node'));
				if (!registration) return false;
				return registration.webhookUrl === this.getNodeWebhookUrl('default');
			},

			/** Points the account's notifications at this node and keeps the digest of the secret. */
			async create(this: IHookFunctions): Promise<boolean> {
				const webhookUrl = this.getNodeWebhookUrl('default');
				if (!webhookUrl) {
					throw new NodeOperationError(this.getNode(), 'n8n gave this trigger no webhook URL', {
						description: 'Save the workflow and activate it again.',
					});
				}
				// A service on the internet cannot call a local URL; a local sandbox can, so stay quiet then.
				const credentials = await this.getCredentials(CREDENTIAL_TYPE);
				if (
					isUnreachableFromInternet(webhookUrl) &&
					!isUnreachableFromInternet(credentialBaseUrl(credentials))
				) {
					this.logger.warn(
						`FacilitaPay Trigger: the webhook URL ${webhookUrl} is not reachable from the internet, so FacilitaPay cannot deliver to it. Set WEBHOOK_URL to n8n's public address (or a tunnel).`,
					);
				}
				const data = (await apiRequest.call(this, {
					method: 'POST',
					path: '/enable_webhooks',
					body: { url: webhookUrl },
					retry: 'safe',
				})) as IDataObject | undefined;
				const secret = data?.secret;
				if ((typeof secret !== 'string' && typeof secret !== 'number') || String(secret) === '') {
					throw new NodeOperationError(
						this.getNode(),
						'FacilitaPay enabled notifications but returned no secret',
						{
							description:
								'Without the secret, notifications cannot be told apart from forged ones, so the trigger was not activated. Activate the workflow again; if this persists, contact FacilitaPay.',
						},
					);
				}
				const staticData = this.getWorkflowStaticData('node');
				saveRegistration(staticData, {
					secretDigest: digestSecret(String(secret)),
					webhookUrl,
					test: this.getMode() === 'manual',
					registeredAt: new Date().toISOString(),
				});
				return true;
			},

			/**
			 * Forgets the secret. FacilitaPay has no way to remove one URL, only to turn off every
			 * notification of the account, so that happens only when the user asked for it, and
			 * never when a test listening ends (the production workflow may still need the account).
			 */
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				const registration = readRegistration(staticData);
				forgetRegistration(staticData);
				const options = this.getNodeParameter('options', {}) as TriggerOptions;
				if (registration && !registration.test && options.disableOnDeactivation === true) {
					await apiRequest.call(this, { method: 'GET', path: '/disable_webhooks', retry: 'safe' });
					this.logger.info(
						'FacilitaPay Trigger: notifications of the FacilitaPay account were disabled on deactivation',
					);
				}
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const response = this.getResponseObject();
		const refuse = (status: number, message: string): IWebhookResponseData => {
			response.status(status).json({ message });
			return { noWebhookResponse: true };
		};

		const rawBody = (this.getRequestObject() as unknown as { rawBody?: unknown }).rawBody;
		const parsed = parseBody(this.getBodyData(), rawBody);
		if (!parsed.ok) return refuse(400, parsed.reason);

		const classified = classifyPayload(parsed.payload);
		let fields: IDataObject;
		if (classified.kind === 'malformed') return refuse(400, classified.reason);
		if (classified.kind === 'unknown') return refuse(401, 'Not a FacilitaPay notification');
		if (classified.kind === 'kycStatus') {
			if (options.acceptUnsignedKycStatus !== true) {
				return refuse(401, 'Unsigned payloads are not accepted');
			}
			fields = kycStatusFields(classified.subject);
		} else {
			const registration = readRegistration(this.getWorkflowStaticData('node'));
			if (!registration) {
				this.logger.warn(
					'FacilitaPay Trigger: a notification arrived but no secret is stored for this trigger. Deactivate and activate the workflow to register it again.',
				);
			}
			if (!matchesStoredDigest(classified.secret, registration?.secretDigest)) {
				return refuse(401, 'Missing or wrong secret');
			}
			fields = eventFields(classified.notification);
			if (typeof fields.type !== 'string' || fields.type === '') {
				return refuse(400, 'The notification has no type');
			}
			const events = this.getNodeParameter('events', []) as string[];
			// Not chosen: n8n answers 200 and no execution starts.
			if (!isEventSelected(fields.type, events)) return {};

			const transactionId = options.fetchTransaction === true ? transactionIdOf(fields) : undefined;
			if (transactionId !== undefined) {
				try {
					fields.transaction = (await apiRequest.call(
						this,
						{
							method: 'GET',
							path: `/transactions/${encodeURIComponent(transactionId)}`,
							retry: 'safe',
						},
						{
							...defaultRetryOptions,
							maxAttempts: FETCH_TRANSACTION_ATTEMPTS,
							maxDelayMs: FETCH_TRANSACTION_MAX_DELAY_MS,
						},
					)) as IDataObject;
				} catch (error) {
					this.logger.error(
						`FacilitaPay Trigger: could not re-read transaction ${transactionId} for a ${fields.type} notification: ${(error as Error).message}. FacilitaPay will send it again.`,
					);
					return refuse(
						503,
						'Could not read the transaction from FacilitaPay; send the notification again later',
					);
				}
			}
		}

		if (options.includeHeaders === true) fields.headers = safeHeaders(this.getHeaderData());
		fields.receivedAt = new Date().toISOString();
		return { workflowData: [[{ json: fields }]] };
	}
}
