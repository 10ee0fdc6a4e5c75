import type { IDataObject } from 'n8n-workflow';

import { isLocalHost } from '../../FacilitaPay/transport';

/** URLs this node registered, remembered to tell them from another system's URL. */
const OWN_URLS_KEPT = 5;

/**
 * What this trigger registered with FacilitaPay, kept in the workflow's static data for the node.
 * Never the secret itself: only its keyed HMAC (see secret.ts).
 */
export interface Registration {
	secretHmac: string;
	/** The URL sent to `POST /enable_webhooks`: the test URL or the production URL. */
	webhookUrl: string;
	/** Registered by "Listen for test event" rather than by activating the workflow. */
	test: boolean;
	registeredAt: string;
	/** A check of the credentials' key the HMAC was made with (secret.ts, keyCheck). */
	keyCheck?: string;
	/** The n8n instance that registered it (`getInstanceId()`): its URLs are its own alone. */
	instanceId?: string;
}

export function readRegistration(staticData: IDataObject): Registration | undefined {
	const { secretHmac, webhookUrl, testRegistration, registeredAt } = staticData;
	if (typeof secretHmac !== 'string' || secretHmac === '') return undefined;
	if (typeof webhookUrl !== 'string' || webhookUrl === '') return undefined;
	return {
		secretHmac,
		webhookUrl,
		test: testRegistration === true,
		registeredAt: typeof registeredAt === 'string' ? registeredAt : '',
	};
}

/** The unkeyed SHA-256 an earlier version kept, when no keyed HMAC replaced it yet. */
export function readLegacyDigest(staticData: IDataObject): string | undefined {
	const { secretDigest } = staticData;
	return typeof secretDigest === 'string' && /^[0-9a-f]{64}$/.test(secretDigest)
		? secretDigest
		: undefined;
}

/** Drops what earlier versions kept: the previous secret, accepted for 24 h after a new one. */
function dropPrevious(staticData: IDataObject): void {
	delete staticData.previousSecretHmac;
	delete staticData.previousSecretUntil;
}

/**
 * Stores a new registration. The secret it replaces is not kept: a notification FacilitaPay still
 * redelivers under it is settled by the notification records, and a leaked one stops at once.
 */
export function saveRegistration(staticData: IDataObject, registration: Registration): void {
	dropPrevious(staticData);
	delete staticData.secretDigest;
	if (registration.keyCheck) staticData.keyCheck = registration.keyCheck;
	staticData.secretHmac = registration.secretHmac;
	staticData.webhookUrl = registration.webhookUrl;
	staticData.testRegistration = registration.test;
	staticData.registeredAt = registration.registeredAt;
	// A test URL is never this workflow's production URL: its records never start production.
	if (registration.test) return;
	const instanceId = registration.instanceId ?? '';
	const own = ownUrls(staticData, instanceId).filter((url) => url !== registration.webhookUrl);
	staticData.ownUrls = [registration.webhookUrl, ...own].slice(0, OWN_URLS_KEPT);
	staticData.ownUrlsInstance = instanceId;
}

/**
 * Forgets the registration on deactivation. Notifications FacilitaPay still redelivers under its
 * secret are settled by the notification records when the workflow is activated again.
 */
export function forgetRegistration(staticData: IDataObject): void {
	dropPrevious(staticData);
	delete staticData.secretHmac;
	delete staticData.secretDigest;
	delete staticData.webhookUrl;
	delete staticData.testRegistration;
	delete staticData.registeredAt;
	delete staticData.keyCheck;
	delete staticData.registeredAccount;
	delete staticData.registeredAfterAt;
}

/**
 * The webhook URLs this node registered on this n8n instance (newest first). Static data travels
 * with an exported workflow: URLs another instance registered (its host, its events) are never
 * this one's, so a copy of the workflow on staging never starts production's records. Lists kept
 * before the instance was recorded count as this instance's.
 */
export function ownUrls(staticData: IDataObject, instanceId: string): string[] {
	const registeredBy = staticData.ownUrlsInstance;
	if (typeof registeredBy === 'string' && registeredBy !== instanceId) return [];
	const list = staticData.ownUrls;
	return Array.isArray(list) ? list.filter((url): url is string => typeof url === 'string') : [];
}

/**
 * Whether FacilitaPay, on the internet, could not reach this URL: the same local and private hosts
 * the credential lets plain http go to (`isLocalHost`), `0.0.0.0`, or no URL at all.
 */
export function isUnreachableFromInternet(url: string): boolean {
	let host: string;
	try {
		host = new URL(url).hostname;
	} catch {
		// Not a URL at all: nothing can reach it.
		return true;
	}
	return isLocalHost(host) || host === '0.0.0.0';
}
