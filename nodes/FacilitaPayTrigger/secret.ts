import { createHash, timingSafeEqual } from 'crypto';

/**
 * The SHA-256 digest (hex) of the secret FacilitaPay returns when webhooks are enabled. Only the
 * digest is kept in the workflow's static data, so reading the database does not reveal the secret
 * itself. FacilitaPay's secrets are short (four digits in its documentation), so the digest stops
 * casual reading, not a brute-force search: that is why the service advises re-reading the
 * transaction before acting on money.
 */
export function digestSecret(secret: string): string {
	return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function toBuffer(value: unknown): Buffer | undefined {
	if (Buffer.isBuffer(value)) return value;
	if (typeof value === 'string') return Buffer.from(value, 'utf8');
	return undefined;
}

/**
 * Compares two secrets (strings or Buffers) in constant time. Never throws: anything else, an
 * empty value or a different length answers false.
 */
export function secretsEqual(received: unknown, expected: unknown): boolean {
	const a = toBuffer(received);
	const b = toBuffer(expected);
	if (!a || !b || a.length === 0 || b.length === 0) return false;
	if (a.length !== b.length) return false;
	return timingSafeEqual(a, b);
}

/**
 * Whether the secret of a notification matches the digest stored when webhooks were enabled.
 * The received secret must be a non-empty string; it is digested and the two digests are compared
 * in constant time. Never throws.
 */
export function matchesStoredDigest(receivedSecret: unknown, storedDigest: unknown): boolean {
	if (typeof receivedSecret !== 'string' || receivedSecret === '') return false;
	if (typeof storedDigest !== 'string' || storedDigest === '') return false;
	return secretsEqual(digestSecret(receivedSecret), storedDigest);
}
