import { createHmac, randomBytes, timingSafeEqual } from 'crypto';

/**
 * Our signature on a resume call (pure). n8n 1.x's resume URL is the execution ID alone
 * (guessable); 2.x's carries a token. Either way `webhook()` first checks this HMAC, keyed by a
 * secret made for each wait (newWaitSecret) and kept only in n8n: in the waiting execution's data
 * (n8n's database) and in the memory of the process that waits. Nothing of it is written to
 * FacilitaPay, and it does not come from the credential, so an edited credential does not orphan
 * a wait. A call without it is refused before anything else is done.
 * The signed text travels as a string (`payload`) so that n8n's body parsing cannot change it.
 */

/** A new secret for one wait (hex). */
export function newWaitSecret(): string {
	return randomBytes(32).toString('hex');
}

/** The key of a wait's secret. */
export function keyOf(secret: string): Buffer {
	return Buffer.from(secret, 'hex');
}

/** The signature of `payload` for the execution `executionId` (its wait's key). */
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
	/** The wait it is for: a call for an earlier wait of the execution is refused. */
	generation: number;
	/** `records`: the waited charges have deciding records; `renew`: nothing new, wait again. */
	kind: 'records' | 'renew';
	/** Records of FacilitaPay's log that name the waited charges, as the caller read them. */
	records: unknown[];
	/** The log record the caller had read up to (its records are complete up to there). */
	cursor: string;
}

/** The body of a signed resume call. */
export function signedBody(
	key: Buffer,
	payload: ResumePayload,
): { payload: string; signature: string } {
	const text = JSON.stringify(payload);
	return { payload: text, signature: sign(key, payload.executionId, text) };
}
