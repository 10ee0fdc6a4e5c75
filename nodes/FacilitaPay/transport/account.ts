import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { credentialBaseUrl } from './tokenTarget';

/**
 * The FacilitaPay account the credentials reach, as one value: the service (base URL) and a
 * digest of who signs in. Every cache, memory and identity that speaks for an account is keyed by
 * it (the trigger's registrations, the log feed, the waiting payments, the money rule), so a
 * credential edited from Sandbox to Production, or to another user, is another account.
 */
export function accountOf(credentials: ICredentialDataDecryptedObject): string {
	const who =
		credentials.authentication === 'usernamePassword'
			? String(credentials.username ?? '')
			: String(credentials.accessToken ?? '');
	const digest = createHash('sha256').update(who).digest('hex').slice(0, 16);
	return `${credentialBaseUrl(credentials)}|${digest}`;
}
