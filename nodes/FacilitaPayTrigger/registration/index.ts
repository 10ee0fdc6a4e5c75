import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { clock } from '../../FacilitaPay/clock';
import { apiRequest, CREDENTIAL_TYPE, credentialBaseUrl } from '../../FacilitaPay/transport';
import type { TriggerOptions } from '../log';
import { readLogState, writeLogState } from '../log';
import { ERRORS, LOG } from '../texts';
import { accountOf } from './account';
import {
	checkOwnership,
	forgetProduction,
	maskUrl,
	otherActiveOn,
	rememberProduction,
	testWouldTakeUrl,
} from './ownership';
import { keyCheck, recoverLegacySecret, secretHmac, secretKey } from './secret';
import {
	forgetRegistration,
	isUnreachableFromInternet,
	ownUrls,
	readLegacyDigest,
	readRegistration,
	saveRegistration,
} from './stored';

/*
 * Registration and ownership: the node's webhook methods (n8n runs them when the workflow is
 * published or unpublished and for a test listening; not again when n8n restarts). They point the
 * account's notifications at this workflow, set the log's cursor before that, and leave the URL
 * alone when it belongs to someone else.
 */
export { accountOf } from './account';
export { ownershipFrom } from './ownership';
export * from './secret';
export { isUnreachableFromInternet } from './stored';

function workflowIdOf(ctx: IHookFunctions): string {
	return String((ctx.getWorkflow() as { id?: string } | undefined)?.id ?? '');
}

/**
 * Sets the log's cursor at the newest record FacilitaPay lists now, before notifications are
 * pointed here: every record after it that is sent to this workflow's URL is one of its events.
 * Kept when set already (a re-publish catches up what was listed meanwhile).
 */
async function setCursor(
	ctx: IHookFunctions,
	staticData: IDataObject,
	newestId: string | null | undefined,
): Promise<void> {
	if (readLogState(staticData)) return;
	let cursor = newestId;
	if (cursor === undefined) {
		// The ownership read failed: this one must not (activation fails, nothing registered).
		const newest = (await apiRequest.call(ctx, {
			method: 'GET',
			path: '/notifications',
			qs: { order_by: 'desc', per_page: '1' },
			retry: 'safe',
		})) as unknown;
		const first = Array.isArray(newest) ? (newest[0] as IDataObject | undefined) : undefined;
		cursor = typeof first?.id === 'string' && first.id !== '' ? first.id : null;
	}
	writeLogState(staticData, {
		cursor,
		since: clock.now().toISOString(),
		started: [],
	});
}

export const webhookMethods = {
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
			const ownership = await checkOwnership(this, ownUrls(staticData, this.getInstanceId()));
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
				// The account the URL is registered with (kept by earlier versions: the one found now).
				if (typeof staticData.registeredAccount !== 'string') {
					staticData.registeredAccount = accountOf(credentials);
				}
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
				test ? [webhookUrl] : [...ownUrls(staticData, this.getInstanceId()), webhookUrl],
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
			if (!test) await setCursor(this, staticData, ownership.newestId);
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
				instanceId: this.getInstanceId(),
			});
			delete staticData.urlTakenBy;
			if (!test) {
				// The reader tells when the credentials reach another account later, or when records
				// written after this registration go to another URL (log/deaf.ts): FacilitaPay's time
				// of the newest record now (records before it went wherever the URL was then).
				staticData.registeredAccount = account;
				if (ownership.newestAt) staticData.registeredAfterAt = ownership.newestAt;
				else delete staticData.registeredAfterAt;
				rememberProduction(account, workflowIdOf(this), webhookUrl, credentialBaseUrl(credentials));
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
			const ours = [...ownUrls(staticData, this.getInstanceId())];
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
