import type { IDataObject } from 'n8n-workflow';

import { isLocalHost } from '../FacilitaPay/transport/tokenTarget';

/** How long the secret of the previous registration is still accepted after a new one. */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;
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

/**
 * The HMAC of the previous registration's secret while it is still accepted (24 h after it was
 * replaced); forgets it once that time has passed.
 */
export function readPreviousHmac(staticData: IDataObject, now: number): string | undefined {
	const { previousSecretHmac, previousSecretUntil } = staticData;
	if (typeof previousSecretHmac !== 'string' || previousSecretHmac === '') return undefined;
	const until = typeof previousSecretUntil === 'string' ? Date.parse(previousSecretUntil) : NaN;
	if (!Number.isFinite(until) || now >= until) {
		delete staticData.previousSecretHmac;
		delete staticData.previousSecretUntil;
		return undefined;
	}
	return previousSecretHmac;
}

/** Keeps the current secret's HMAC as the previous one, accepted for 24 h from `now`. */
function keepAsPrevious(staticData: IDataObject, hmac: string, now: number): void {
	staticData.previousSecretHmac = hmac;
	staticData.previousSecretUntil = new Date(now + PREVIOUS_SECRET_MS).toISOString();
}

/** Stores a new registration; the one it replaces stays accepted for 24 h. */
export function saveRegistration(
	staticData: IDataObject,
	registration: Registration,
	now: number,
): void {
	const current = readRegistration(staticData);
	if (current && current.secretHmac !== registration.secretHmac) {
		keepAsPrevious(staticData, current.secretHmac, now);
	}
	delete staticData.secretDigest;
	staticData.secretHmac = registration.secretHmac;
	staticData.webhookUrl = registration.webhookUrl;
	staticData.testRegistration = registration.test;
	staticData.registeredAt = registration.registeredAt;
	const own = ownUrls(staticData).filter((url) => url !== registration.webhookUrl);
	staticData.ownUrls = [registration.webhookUrl, ...own].slice(0, OWN_URLS_KEPT);
}

/**
 * Forgets the registration on deactivation. Its secret stays accepted for 24 h (as the previous
 * one), so notifications FacilitaPay is still redelivering with it are not lost when the workflow
 * is activated again and gets a new secret.
 */
export function forgetRegistration(staticData: IDataObject, now: number): void {
	const current = readRegistration(staticData);
	if (current) keepAsPrevious(staticData, current.secretHmac, now);
	delete staticData.secretHmac;
	delete staticData.secretDigest;
	delete staticData.webhookUrl;
	delete staticData.testRegistration;
	delete staticData.registeredAt;
}

/** The webhook URLs this node registered (newest first). */
export function ownUrls(staticData: IDataObject): string[] {
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
