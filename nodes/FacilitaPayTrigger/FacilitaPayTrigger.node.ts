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
import { apiRequest, CREDENTIAL_TYPE } from '../FacilitaPay/transport';
import { rememberEmitted, duplicateKey, wasEmitted } from './duplicates';
import { ALL_EVENTS, eventOptions, isEventSelected } from './events';
import { lockedUntil, recordWrongSecret } from './guessing';
import {
	classifyPayload,
	eventFields,
	kycStatusFields,
	parseBody,
	safeHeaders,
} from './notification';
import { checkOwnership, maskUrl } from './ownership';
import {
	forgetRegistration,
	isUnreachableFromInternet,
	ownUrls,
	readLegacyDigest,
	readPreviousHmac,
	readRegistration,
	saveRegistration,
} from './registration';
import {
	legacyDigest,
	matchesStoredHmac,
	recoverLegacySecret,
	secretHmac,
	secretKey,
	secretsEqual,
} from './secret';
import { planVerification, verify } from './verification';

interface TriggerOptions {
	acceptUnsignedKycStatus?: boolean;
	disableOnDeactivation?: boolean;
	dropDuplicates?: boolean;
	/** The old name of verifyWithApi (version 1), read for workflows saved with it. */
	fetchTransaction?: boolean;
	includeHeaders?: boolean;
	verifyWithApi?: boolean;
}

/** Verify With API, on unless turned off (or turned off under its old name, Fetch Transaction). */
export function verifyWithApiOption(options: TriggerOptions): boolean {
	if (typeof options.verifyWithApi === 'boolean') return options.verifyWithApi;
	if (typeof options.fetchTransaction === 'boolean') return options.fetchTransaction;
	return true;
}

const LOG = 'FacilitaPay Trigger';

/** The message of every answer that asks FacilitaPay to send the notification again later. */
const SEND_LATER = 'Not accepted now; send the notification again later';

/** Where this process remembers wrong secrets for this trigger (see guessing.ts). */
function memoryKey(ctx: IWebhookFunctions): string {
	const workflow = ctx.getWorkflow?.() as { id?: string } | undefined;
	return `${workflow?.id ?? ''}:${ctx.getNode().id}`;
}

export class FacilitaPayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'FacilitaPay Trigger',
		name: 'facilitaPayTrigger',
		icon: {
			light: 'file:../../icons/facilitaPay.svg',
			dark: 'file:../../icons/facilitaPay.dark.svg',
		},
		group: ['trigger'],
		version: [1, 1.1],
		defaultVersion: 1.1,
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
					'FacilitaPay sends all notifications of an account to one URL. Activating this workflow points that URL here, so only one active FacilitaPay Trigger per account receives events: use one trigger and route with a Switch node, or call other workflows with Execute Workflow. If another system or workflow has taken the URL since, this trigger does not take it back by itself: the n8n log says so when the workflow is activated or n8n starts; deactivate and activate the workflow to take it back. "Listen for test event" takes the URL over from an active workflow until that workflow is deactivated and activated again; notifications missed meanwhile are listed by the FacilitaPay node (Notification → Get Many, Delivery Status: Only Failed) and can be replayed.',
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
						displayName: 'Drop Duplicates',
						name: 'dropDuplicates',
						type: 'boolean',
						default: false,
						description:
							'Whether to start no second execution for a notification identical in type, object ID and status to one that started the workflow in the last 24 hours. FacilitaPay delivers at least once: it sends a notification again when it got no answer in time, so the same event can arrive twice.',
					},
					{
						displayName: 'Fetch Transaction',
						name: 'fetchTransaction',
						type: 'boolean',
						default: true,
						displayOptions: { show: { '@version': [1] } },
						description:
							'Whether to re-read from FacilitaPay what the event names. Old name of Verify With API, kept for workflows saved with it: it decides only when Verify With API is not set.',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers under "headers" (authorization, cookie and token headers are left out)',
					},
					{
						displayName: 'Verify With API',
						name: 'verifyWithApi',
						type: 'boolean',
						default: true,
						description:
							'Whether to read every transaction, subscription, invoice, subject or bank account request the event names from FacilitaPay before the workflow starts, and start it only when FacilitaPay confirms the event. The item then carries FacilitaPay\'s objects and "verified": true. Events with nothing to read (Non-Identified Bank Transaction, the KYC status payload) come with "verified": false. When FacilitaPay cannot be reached, the notification is answered with an error so FacilitaPay sends it again later.',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			/**
			 * Registered when this node's static data holds a secret for the URL n8n gives it now. It
			 * does not fight over the account's single URL: when the newest notification went to a URL
			 * this trigger never registered, it says so in the log and leaves the URL where it is.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				const webhookUrl = this.getNodeWebhookUrl('default');
				if (staticData.webhookUrl !== webhookUrl) return false;
				if (!readRegistration(staticData)) {
					// Kept by an earlier version as an unkeyed SHA-256: keep the same secret, keyed.
					const legacy = readLegacyDigest(staticData);
					const secret = legacy === undefined ? undefined : recoverLegacySecret(legacy);
					if (secret === undefined) return false;
					const key = secretKey(await this.getCredentials(CREDENTIAL_TYPE));
					staticData.secretHmac = secretHmac(secret, key);
					delete staticData.secretDigest;
					if (!Array.isArray(staticData.ownUrls)) staticData.ownUrls = [webhookUrl];
				}
				const ownership = await checkOwnership(this, ownUrls(staticData));
				if (ownership.kind === 'foreign') {
					const other = maskUrl(ownership.url);
					staticData.urlTakenBy = other;
					this.logger.warn(
						`${LOG}: FacilitaPay now sends this account's notifications to ${other}${ownership.at ? ` (newest notification: ${ownership.at})` : ''}, not to this workflow's URL, so this workflow receives none. Another workflow or system enabled webhooks with its own URL; FacilitaPay keeps one URL per account. The trigger leaves it so. To take the URL back, deactivate and activate this workflow (the other system then stops receiving).`,
					);
				} else {
					delete staticData.urlTakenBy;
				}
				return true;
			},

			/** Points the account's notifications at this node and keeps the keyed HMAC of the secret. */
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
						`${LOG}: the webhook URL ${webhookUrl} is not reachable from the internet, so FacilitaPay cannot deliver to it. Set WEBHOOK_URL to n8n's public address (or a tunnel).`,
					);
				}
				const staticData = this.getWorkflowStaticData('node');
				const ownership = await checkOwnership(this, [...ownUrls(staticData), webhookUrl]);
				if (ownership.kind === 'foreign') {
					this.logger.warn(
						`${LOG}: FacilitaPay sent this account's notifications to ${maskUrl(ownership.url)} until now; activating this workflow points them here, so that workflow or system stops receiving them. FacilitaPay keeps one URL per account.`,
					);
				}
				const data = (await apiRequest.call(this, {
					method: 'POST',
					path: '/enable_webhooks',
					body: { url: webhookUrl },
					retry: 'safe',
				})) as IDataObject | undefined;
				const hmac = secretHmac(data?.secret, secretKey(credentials));
				if (hmac === undefined) {
					throw new NodeOperationError(
						this.getNode(),
						'FacilitaPay enabled notifications but returned no secret',
						{
							description:
								'Without the secret, notifications cannot be told apart from forged ones, so the trigger was not activated. Activate the workflow again; if this persists, contact FacilitaPay.',
						},
					);
				}
				const now = Date.now();
				saveRegistration(
					staticData,
					{
						secretHmac: hmac,
						webhookUrl,
						test: this.getMode() === 'manual',
						registeredAt: new Date(now).toISOString(),
					},
					now,
				);
				delete staticData.urlTakenBy;
				return true;
			},

			/**
			 * Forgets the secret (still accepted for 24 h, for redeliveries). FacilitaPay has no way to
			 * remove one URL, only to turn off every notification of the account, so that happens only
			 * when the user asked for it, never when a test listening ends (the production workflow may
			 * still need the account), and never when the newest notification went to another URL (or
			 * that cannot be checked): those notifications belong to someone else.
			 */
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				const registration = readRegistration(staticData) ?? readLegacyDigest(staticData);
				const ours = [...ownUrls(staticData)];
				if (typeof staticData.webhookUrl === 'string' && !ours.includes(staticData.webhookUrl)) {
					ours.push(staticData.webhookUrl);
				}
				const test = staticData.testRegistration === true;
				forgetRegistration(staticData, Date.now());
				const options = this.getNodeParameter('options', {}) as TriggerOptions;
				if (!registration || test || options.disableOnDeactivation !== true) return true;
				const ownership = await checkOwnership(this, ours);
				if (ownership.kind === 'foreign') {
					this.logger.warn(
						`${LOG}: notifications of the FacilitaPay account were NOT disabled on deactivation: they now go to ${maskUrl(ownership.url)}, another workflow or system, which would stop receiving them.`,
					);
					return true;
				}
				if (ownership.kind === 'unknown' && !/no notification yet/.test(ownership.reason)) {
					this.logger.warn(
						`${LOG}: notifications of the FacilitaPay account were NOT disabled on deactivation, because ${ownership.reason}, so it is unknown whether they still go to this workflow. Disable them with the FacilitaPay node (Webhook → Disable) if you want them off.`,
					);
					return true;
				}
				await apiRequest.call(this, {
					method: 'GET',
					path: '/disable_webhooks',
					retry: 'safe',
				});
				this.logger.info(
					`${LOG}: notifications of the FacilitaPay account were disabled on deactivation`,
				);
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
		const now = Date.now();
		const staticData = this.getWorkflowStaticData('node');
		const guessKey = memoryKey(this);
		const locked = lockedUntil(staticData, guessKey, now);
		/** A wrong secret or a forged event: counted toward the limit, logged once when it locks. */
		const countForgery = () => {
			const counted = recordWrongSecret(staticData, guessKey, now);
			if (counted.lockStarted && counted.lockedUntil !== undefined) {
				this.logger.warn(
					`${LOG}: too many notifications with a wrong secret or a false content (20 within 10 minutes). Until ${new Date(counted.lockedUntil).toISOString()}, events FacilitaPay's API cannot confirm are refused (FacilitaPay sends them again later); verified events still start the workflow. If you changed the FacilitaPay credentials, deactivate and activate the workflow.`,
				);
			}
			return counted.lockedUntil !== undefined;
		};

		const rawBody = (this.getRequestObject() as unknown as { rawBody?: unknown }).rawBody;
		const parsed = parseBody(this.getBodyData(), rawBody);
		if (!parsed.ok) return refuse(parsed.status, parsed.reason);

		const classified = classifyPayload(parsed.payload);
		let fields: IDataObject;
		if (classified.kind === 'malformed') return refuse(400, classified.reason);
		if (classified.kind === 'unknown') return refuse(401, 'Not a FacilitaPay notification');
		if (classified.kind === 'kycStatus') {
			if (options.acceptUnsignedKycStatus !== true) {
				return refuse(401, 'Unsigned payloads are not accepted');
			}
			if (locked !== undefined) return refuse(503, SEND_LATER);
			fields = kycStatusFields(classified.subject);
		} else {
			const plan = verifyWithApiOption(options)
				? planVerification(classified.notification)
				: ({ kind: 'unverifiable' } as const);
			// While locked, unverified events are refused before the secret is even compared, so the
			// answer tells a guesser nothing.
			if (locked !== undefined && plan.kind !== 'reads') return refuse(503, SEND_LATER);

			const registration = readRegistration(staticData);
			const legacy = readLegacyDigest(staticData);
			if (!registration && !legacy) {
				this.logger.warn(
					`${LOG}: a notification arrived but no secret is stored for this trigger. Deactivate and activate the workflow to register it again.`,
				);
				return refuse(401, 'Missing or wrong secret');
			}
			const key = secretKey(await this.getCredentials(CREDENTIAL_TYPE));
			const stored = [registration?.secretHmac, readPreviousHmac(staticData, now)];
			let genuine = matchesStoredHmac(classified.secret, key, stored);
			if (!genuine && legacy && typeof classified.secret === 'string') {
				genuine = secretsEqual(legacyDigest(classified.secret), legacy);
				if (genuine) {
					// Kept by an earlier version as an unkeyed SHA-256: replaced by the keyed HMAC.
					staticData.secretHmac = secretHmac(classified.secret, key);
					delete staticData.secretDigest;
				}
			}
			if (!genuine) {
				const nowLocked = countForgery();
				return nowLocked ? refuse(503, SEND_LATER) : refuse(401, 'Missing or wrong secret');
			}

			fields = eventFields(classified.notification);
			if (typeof fields.type !== 'string' || fields.type === '') {
				return locked !== undefined
					? refuse(503, SEND_LATER)
					: refuse(400, 'The notification has no type');
			}
			// While locked, every answer that starts nothing is the same 503 (FacilitaPay sends the
			// notification again later), so a right secret cannot be told from a wrong one.
			const events = this.getNodeParameter('events', []) as string[];
			// Not chosen: n8n answers 200 and no execution starts.
			if (!isEventSelected(fields.type, events)) {
				return locked !== undefined ? refuse(503, SEND_LATER) : {};
			}

			const duplicate = duplicateKey(fields);
			if (options.dropDuplicates === true && wasEmitted(staticData, duplicate, now, guessKey)) {
				this.logger.info(
					`${LOG}: a notification of type ${fields.type} identical to one received in the last 24 hours started nothing (Drop Duplicates)`,
				);
				if (locked !== undefined) return refuse(503, SEND_LATER);
				response.status(200).json({ message: 'Duplicate: already received' });
				return { noWebhookResponse: true };
			}

			if (plan.kind === 'invalid') {
				this.logger.warn(`${LOG}: ${plan.reason} started nothing.`);
				return countForgery()
					? refuse(503, SEND_LATER)
					: refuse(200, 'Not started: the notification names no valid object');
			}
			if (plan.kind === 'reads') {
				const verification = await verify(this, plan.reads);
				if (verification.kind === 'unreachable') {
					this.logger.error(
						`${LOG}: a notification of type ${fields.type} could not be checked with FacilitaPay (${verification.reason}); nothing started. FacilitaPay sends it again later.`,
					);
					return refuse(
						503,
						'Could not check the notification with FacilitaPay; send it again later',
					);
				}
				if (verification.kind === 'contradicted') {
					this.logger.warn(
						`${LOG}: a notification of type ${fields.type} with the right secret started nothing: ${verification.reason}. If this repeats, someone else may know the secret: deactivate and activate the workflow to get a new one.`,
					);
					if (countForgery() || locked !== undefined) return refuse(503, SEND_LATER);
					return refuse(200, 'Not started: FacilitaPay does not confirm this event');
				}
				Object.assign(fields, verification.objects);
				fields.verified = true;
			} else {
				if (locked !== undefined) return refuse(503, SEND_LATER);
				fields.verified = false;
			}
			if (options.dropDuplicates === true) rememberEmitted(staticData, duplicate, now, guessKey);
		}

		if (options.includeHeaders === true) fields.headers = safeHeaders(this.getHeaderData());
		fields.receivedAt = new Date(now).toISOString();
		// Answered here, before n8n prepares the execution: n8n saves what this request changed in the
		// static data (Drop Duplicates, the guessing count) only when the answer comes first; when n8n
		// answers itself after preparing the execution, those changes are lost (seen in n8n 2.41.1).
		response.status(200).json({ message: 'Workflow was started' });
		return { noWebhookResponse: true, workflowData: [[{ json: fields }]] };
	}
}
