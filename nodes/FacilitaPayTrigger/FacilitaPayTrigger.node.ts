import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { credentialBaseUrl } from '../FacilitaPay/transport/tokenTarget';
import { clock } from '../FacilitaPay/clock';
import { apiRequest, CREDENTIAL_TYPE } from '../FacilitaPay/transport';
import { decide } from './decision';
import { ALL_EVENTS, eventOptions } from './events';
import {
	checkOwnership,
	forgetProduction,
	maskUrl,
	otherActiveOn,
	rememberProduction,
	testWouldTakeUrl,
} from './ownership';
import type { ReadOptions } from './reads';
import { accountOf, readAll, readForNotification, READS_WITHIN_MS } from './reads';
import { listingOf, recordsAfterNow } from './records';
import {
	forgetRegistration,
	isUnreachableFromInternet,
	ownUrls,
	readLegacyDigest,
	readRegistration,
	saveRegistration,
} from './registration';
import { keyCheck, recoverLegacySecret, secretHmac, secretKey } from './secret';
import { ERRORS, LOG } from './texts';
import type { TriggerOptions } from './webhookRequest';
import {
	asksAgain,
	gather,
	keepPace,
	keptKey,
	respond,
	senderGone,
	withListing,
} from './webhookRequest';

export { verifyWithApiOption } from './webhookRequest';

function workflowIdOf(ctx: IHookFunctions): string {
	return String((ctx.getWorkflow() as { id?: string } | undefined)?.id ?? '');
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
		// FacilitaPay sends an account's notifications to ONE URL: listening for a test event here
		// would take them from the published workflow, so the panel says how to test instead.
		triggerPanel: {
			header: '',
			executionsHelp: {
				inactive:
					"FacilitaPay sends each account's notifications to one URL. <br /><br /><b>To try it</b>, use credentials of the local sandbox (<code>npm start</code> in this package's repository) or of a second FacilitaPay account, click 'listen', then make a payment there: the event shows up here.<br /><br /><b>To run it</b>, publish the workflow (activate it in n8n 1.x): the trigger registers the production URL and the executions show up in the executions list.",
				active:
					"This workflow is published: it receives this FacilitaPay account's notifications, and 'listen' is refused so that production keeps receiving every event. To try changes, use the local sandbox or a second account's credentials in a copy of the workflow. The executions show up in the <a data-key=\"executions\">executions list</a>.",
			},
			activationHint:
				'Once the workflow works, publish it: the trigger registers its production URL with FacilitaPay and every event starts it.',
		},
		// Redacted wherever n8n shows or keeps execution data.
		sensitiveOutputFields: ['secret', 'notification.secret'],
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
					'FacilitaPay sends all events of an account to one published trigger, so use one per account and route its events with a Switch node. Publishing points the events here; testing, taking them back and more are in the <a href="https://github.com/n8n-nodes-facilitapay/n8n-nodes-facilitapay/blob/main/docs/trigger.md#one-url-per-facilitapay-account" target="_blank">trigger docs</a>.',
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
							"Whether to start the workflow for the KYC status payload when Verify With API is off. The payload carries no secret, so anyone who knows this URL can send one: with Verify With API on, it starts the workflow only when FacilitaPay's API shows the same subject and status, and this option is not needed.",
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
							'Whether to start no second execution for a notification identical to one that started the workflow in the last 24 hours (every field but the secret counts: the same wire corrected twice is two events). FacilitaPay delivers at least once: it sends a notification again when it got no answer in time, so the same event can arrive twice.',
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
							'Whether to read every transaction, subscription, invoice, subject or bank account request the event names from FacilitaPay before the workflow starts. Confirmed events come with FacilitaPay\'s objects and "verified": true; an event FacilitaPay proves false starts nothing; when FacilitaPay cannot settle it (a status it has not caught up with, a company subject it cannot read), the event starts the workflow with "verified": false and a "verification" that says what was not confirmed, or is answered with an error so FacilitaPay sends it again later.',
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
				const credentials = await this.getCredentials(CREDENTIAL_TYPE);
				const key = secretKey(credentials);
				if (!readRegistration(staticData)) {
					// Kept by an earlier version as an unkeyed SHA-256: keep the same secret, keyed.
					const legacy = readLegacyDigest(staticData);
					const secret = legacy === undefined ? undefined : recoverLegacySecret(legacy);
					if (secret === undefined) return false;
					staticData.secretHmac = secretHmac(secret, key);
					delete staticData.secretDigest;
					if (!Array.isArray(staticData.ownUrls)) staticData.ownUrls = [webhookUrl];
				}
				// The credentials changed since the registration (a new token, another password): the
				// stored HMAC no longer matches any secret, so register again. Notifications meanwhile
				// are settled by FacilitaPay's notification records.
				const check = keyCheck(key);
				if (typeof staticData.keyCheck === 'string' && staticData.keyCheck !== check) {
					this.logger.info(
						`${LOG}: the FacilitaPay credentials changed since the trigger registered its URL; registering again`,
					);
					return false;
				}
				staticData.keyCheck = check;
				const ownership = await checkOwnership(this, ownUrls(staticData));
				if (ownership.kind === 'foreign') {
					const other = maskUrl(ownership.url);
					staticData.urlTakenBy = other;
					this.logger.warn(
						`${LOG}: FacilitaPay now sends this account's notifications to ${other}${ownership.at ? ` (newest notification: ${ownership.at})` : ''}, not to this workflow's URL, so this workflow receives none. Another workflow or system enabled webhooks with its own URL; FacilitaPay keeps one URL per account. The trigger leaves it so. To take the URL back, deactivate and activate this workflow (unpublish and publish in n8n 2.x; the other system then stops receiving).`,
					);
				} else {
					delete staticData.urlTakenBy;
				}
				if (this.getMode() !== 'manual' && webhookUrl) {
					rememberProduction(
						accountOf(credentials),
						workflowIdOf(this),
						webhookUrl,
						credentialBaseUrl(credentials),
					);
				}
				return true;
			},

			/** Points the account's notifications at this node and keeps the keyed HMAC of the secret. */
			async create(this: IHookFunctions): Promise<boolean> {
				const webhookUrl = this.getNodeWebhookUrl('default');
				if (!webhookUrl) {
					throw new NodeOperationError(this.getNode(), ERRORS.noUrl.message, {
						description: ERRORS.noUrl.description,
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
				const test = this.getMode() === 'manual';
				const ownership = await checkOwnership(
					this,
					test ? [webhookUrl] : [...ownUrls(staticData), webhookUrl],
				);
				// n8n starts a test listening without what the production registration stored, and never
				// gives the URL back: refused whenever the account's notifications go somewhere already.
				const account = accountOf(credentials);
				const holder = test ? testWouldTakeUrl(this, ownership, account) : undefined;
				if (holder !== undefined) {
					const { message, description } = ERRORS.testWouldTakeUrl(holder);
					throw new NodeOperationError(this.getNode(), message, { description });
				}
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
					throw new NodeOperationError(this.getNode(), ERRORS.noSecret.message, {
						description: ERRORS.noSecret.description,
					});
				}
				saveRegistration(staticData, {
					secretHmac: hmac,
					webhookUrl,
					test,
					registeredAt: clock.now().toISOString(),
					keyCheck: keyCheck(secretKey(credentials)),
				});
				delete staticData.urlTakenBy;
				if (!test) {
					rememberProduction(
						account,
						workflowIdOf(this),
						webhookUrl,
						credentialBaseUrl(credentials),
					);
				}
				return true;
			},

			/**
			 * Forgets the secret (redeliveries under it are settled by the notification records).
			 * FacilitaPay has no way to remove one URL, only to turn off every notification of the
			 * account, so that happens only when the user asked for it, never when a test listening
			 * ends (the production workflow may still need the account), never while another active
			 * workflow of this n8n uses the same service (it may be the same account, and registered
			 * its URL since), and never when the newest notification went to another URL (or that
			 * cannot be checked): those notifications belong to someone else.
			 */
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				const registration = readRegistration(staticData) ?? readLegacyDigest(staticData);
				const ours = [...ownUrls(staticData)];
				if (typeof staticData.webhookUrl === 'string' && !ours.includes(staticData.webhookUrl)) {
					ours.push(staticData.webhookUrl);
				}
				const test = staticData.testRegistration === true || this.getMode() === 'manual';
				forgetRegistration(staticData);
				const credentials = await this.getCredentials(CREDENTIAL_TYPE).catch(() => undefined);
				const service = credentials ? credentialBaseUrl(credentials) : '';
				if (!test && credentials) {
					forgetProduction(accountOf(credentials), workflowIdOf(this), service);
				}
				const options = this.getNodeParameter('options', {}) as TriggerOptions;
				if (!registration || test || options.disableOnDeactivation !== true) return true;
				const other = otherActiveOn(service, workflowIdOf(this));
				if (other !== undefined) {
					this.logger.warn(
						`${LOG}: notifications of the FacilitaPay account were NOT disabled on deactivation: the active workflow ${other} has a FacilitaPay Trigger on the same service, which may be the same account and would stop receiving them.`,
					);
					return true;
				}
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

	/** A thin handler over the pure decision (decision.ts): gather, decide, read if asked, decide, do. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// The 8 s bound starts here, before the credentials are read. A transport deadline: real
		// time, as the transport's waits (see clock.ts).
		const arrived = Date.now();
		const deadline = arrived + READS_WITHIN_MS;
		const call = await gather(this, clock.now().getTime());
		let decision = decide(call.facts);
		if (decision.kind === 'records' && call.facts.received.kind === 'notification') {
			const snapshot = await recordsAfterNow(this, call.account, deadline, call.credentials);
			const listing = snapshot ? listingOf(snapshot, call.facts.received.notification) : 'unread';
			withListing(call, listing);
			decision = decide(call.facts);
		}
		if (decision.kind === 'read') {
			const { reads: planned, stopAtAbsent } = decision;
			const options: ReadOptions = {
				deadline,
				account: call.account,
				credentials: call.credentials,
				stranger: decision.stranger,
				stopAt: (result) => stopAtAbsent && result.kind === 'absent',
			};
			// A notification that came from FacilitaPay keeps its reads for its next delivery;
			// anything else reads for this delivery alone.
			const keep = keptKey(call);
			const read = keep
				? await readForNotification(this, planned, { ...options, keep })
				: { results: await readAll(this, planned, options), earlier: false };
			decision = decide({ ...call.facts, reads: read.results, senderGone: senderGone(this) });
			if (read.earlier && asksAgain(decision) && !senderGone(this) && Date.now() < deadline) {
				// What was read for an earlier delivery did not settle it (still pending then, say):
				// read again now.
				const reads = await readAll(this, planned, options);
				decision = decide({ ...call.facts, reads, senderGone: senderGone(this) });
			}
		}
		await keepPace(call, decision, arrived);
		return respond(this, call, decision);
	}
}
