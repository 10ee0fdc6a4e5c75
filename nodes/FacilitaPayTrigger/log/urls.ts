import type { IDataObject } from 'n8n-workflow';

/** n8n's path for test URLs (N8N_ENDPOINT_WEBHOOK_TEST's default). */
const TEST_PATH = '/webhook-test/';

/**
 * The production URLs this trigger registered on this n8n instance, newest first: the records sent
 * to one of them are this workflow's events. A test URL never counts (a test listening is not production).
 */
export function productionUrls(staticData: IDataObject, instanceId: string): string[] {
	// Static data travels with an exported workflow: what another n8n instance registered is its
	// own (registration/stored.ts, ownUrls), until this instance registers its URL.
	const registeredBy = staticData.ownUrlsInstance;
	if (typeof registeredBy === 'string' && registeredBy !== instanceId) return [];
	const urls: string[] = [];
	const current = staticData.webhookUrl;
	if (typeof current === 'string' && current !== '' && staticData.testRegistration !== true) {
		urls.push(current);
	}
	const own = Array.isArray(staticData.ownUrls) ? staticData.ownUrls : [];
	for (const url of own) {
		if (typeof url === 'string' && url !== '' && !urls.includes(url) && !url.includes(TEST_PATH)) {
			urls.push(url);
		}
	}
	return urls;
}
