import { createHash, createHmac, timingSafeEqual } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * Our signature on a resume call (pure). n8n 1.123's resume URL is the execution ID alone
 * (guessable); 2.41's carries a token, but the resume address also sits in the `meta` of the
 * charges (for the path after a restart), which is not a secret place. So `webhook()` first
 * checks this HMAC, which only an n8n instance with this instance ID and this credential can
 * make: a call without it is refused before anything is read from FacilitaPay.
 * The signed text travels as a string (`payload`) so that n8n's body parsing cannot change it.
 */

/**
 * The key: the credential's secret material (password or access token) and n8n's instance ID,
 * through SHA-256. A stranger who knows the account's 4-digit webhook secret, or the resume URL,
 * cannot make it.
 */
export function signingKey(
	credentials: ICredentialDataDecryptedObject,
	instanceId: string,
): Buffer {
	const secret =
		credentials.authentication === 'usernamePassword'
			? `${String(credentials.username ?? '')}\n${String(credentials.password ?? '')}`
			: String(credentials.accessToken ?? '');
	return createHash('sha256')
		.update('facilitapay-wait-v1\n')
		.update(instanceId)
		.update('\n')
		.update(secret)
		.digest();
}

/**
 * The signature of `payload` for the execution `executionId` (one node of an execution waits at a
 * time; the caller after a restart knows the execution from the charge's meta, not the node).
 */
export function sign(key: Buffer, executionId: string, payload: string): string {
	return createHmac('sha256', key).update(`${executionId}\n`).update(payload).digest('hex');
}

/** Whether `given` is the signature (constant time; never throws). */
export function verify(
	key: Buffer,
	executionId: string,
	payload: unknown,
	given: unknown,
): boolean {
	if (typeof given !== 'string' || typeof payload !== 'string') return false;
	const expected = Buffer.from(sign(key, executionId, payload), 'utf8');
	const actual = Buffer.from(given, 'utf8');
	if (actual.length !== expected.length) return false;
	return timingSafeEqual(expected, actual);
}

/** What a resume call carries, signed. */
export interface ResumePayload {
	executionId: string;
	/** Records of FacilitaPay's log that name the waited charges, as the caller read them. */
	records: unknown[];
	/** The limit is reached: what is still open goes out on Timed Out. */
	final: boolean;
}

/** The body of a signed resume call. */
export function signedBody(
	key: Buffer,
	payload: ResumePayload,
): { payload: string; signature: string } {
	const text = JSON.stringify(payload);
	return { payload: text, signature: sign(key, payload.executionId, text) };
}
