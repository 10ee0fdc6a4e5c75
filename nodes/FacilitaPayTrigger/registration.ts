import type { IDataObject } from 'n8n-workflow';

/**
 * What this trigger registered with FacilitaPay, kept in the workflow's static data for the node.
 * Never the secret itself: only its SHA-256 digest.
 */
export interface Registration {
	secretDigest: string;
	/** The URL sent to `POST /enable_webhooks`: the test URL or the production URL. */
	webhookUrl: string;
	/** Registered by "Listen for test event" rather than by activating the workflow. */
	test: boolean;
	registeredAt: string;
}

export function readRegistration(staticData: IDataObject): Registration | undefined {
	const { secretDigest, webhookUrl, testRegistration, registeredAt } = staticData;
	if (typeof secretDigest !== 'string' || secretDigest === '') return undefined;
	if (typeof webhookUrl !== 'string' || webhookUrl === '') return undefined;
	return {
		secretDigest,
		webhookUrl,
		test: testRegistration === true,
		registeredAt: typeof registeredAt === 'string' ? registeredAt : '',
	};
}

export function saveRegistration(staticData: IDataObject, registration: Registration): void {
	staticData.secretDigest = registration.secretDigest;
	staticData.webhookUrl = registration.webhookUrl;
	staticData.testRegistration = registration.test;
	staticData.registeredAt = registration.registeredAt;
}

export function forgetRegistration(staticData: IDataObject): void {
	delete staticData.secretDigest;
	delete staticData.webhookUrl;
	delete staticData.testRegistration;
	delete staticData.registeredAt;
}

/** Whether FacilitaPay, on the internet, could not reach this URL (localhost, private addresses). */
export function isUnreachableFromInternet(url: string): boolean {
	let host: string;
	try {
		host = new URL(url).hostname.toLowerCase();
	} catch {
		// Not a URL at all: nothing can reach it.
		return true;
	}
	return (
		host === 'localhost' ||
		host.endsWith('.localhost') ||
		host === '[::1]' ||
		/^127\./.test(host) ||
		/^10\./.test(host) ||
		/^192\.168\./.test(host) ||
		/^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
		host === '0.0.0.0'
	);
}
