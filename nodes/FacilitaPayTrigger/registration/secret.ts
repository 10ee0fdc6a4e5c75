import { createHash, createHmac, timingSafeEqual } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/*
 * How the webhook secret is kept, and why.
 *
 * FacilitaPay chooses the secret (four digits in its documentation) and sends it in every
 * notification body, unsigned. Whatever the trigger keeps in the workflow's static data can be read
 * by anyone who can open or export the workflow (or read n8n's database). A plain value, an unkeyed
 * hash (the SHA-256 earlier versions kept) or an HMAC whose key sits beside it all give the secret
 * back after at most 10,000 tries, in milliseconds.
 *
 * What a node can reach that is NOT in the workflow: the decrypted data of its credential
 * (`this.getCredentials`), which n8n stores encrypted with the instance's encryption key and never
 * exports with a workflow. So the static data keeps only HMAC-SHA256(key, secret), where the key is
 * derived from the credential's own secret material (the access token, or the username and
 * password). Without the credential, the 10,000 candidates cannot be tested offline: the attacker
 * would have to guess the token or password as well. n8n's instance encryption key itself is not
 * available to nodes, and a node cannot write into its credential, so this is the strongest place
 * a community node can keep it.
 *
 * After the token or password in the credential is changed, the stored HMAC no longer matches:
 * notifications are then settled by FacilitaPay's notification records (records.ts), never refused
 * for that, and the next activation notices the change (`keyCheck`) and registers again.
 *
 * The rule for the secret's form (numbers and strings): see `canonicalSecret`.
 */

const DERIVATION_LABEL = 'n8n-nodes-facilitapay/webhook-secret/v2';

/**
 * The HMAC key: derived from the credential's long-lived secret material, never stored. The
 * session token (renewed every 24 h) and the base URL are left out, so neither a new sign-in nor a
 * trailing slash changes it.
 */
export function secretKey(credentials: ICredentialDataDecryptedObject): Buffer {
	const material =
		credentials.authentication === 'usernamePassword'
			? ['usernamePassword', String(credentials.username ?? ''), String(credentials.password ?? '')]
			: ['accessToken', String(credentials.accessToken ?? '')];
	return createHmac('sha256', DERIVATION_LABEL).update(JSON.stringify(material), 'utf8').digest();
}

/**
 * A short check of the key, kept beside the HMAC so that activation notices credentials changed
 * since the registration (and registers again). It tells an offline guesser of the token or
 * password no more than the HMAC beside it already does (each key guess can be tested against the
 * HMAC with at most 10,000 secrets): it saves that factor, not the guess.
 */
export function keyCheck(key: Buffer): string {
	return createHmac('sha256', key).update('key-check', 'utf8').digest('hex').slice(0, 16);
}

/**
 * The one rule for the secret's form (issue 13): the secret is a string of characters; a JSON
 * number is accepted too, because the 4-digit secret sometimes arrives as one, and stands for its
 * decimal digits. A number cannot keep leading zeros (`0042` arrives as `42`), so an all-digit
 * secret is compared without its leading zeros: `"0042"`, `"042"` and `42` are the same secret.
 * Anything else (an empty string, a negative, fractional or unsafe number, booleans, objects) is no
 * secret at all. Strings are not trimmed: `" 3718"` is not `"3718"`.
 */
export function canonicalSecret(value: unknown): string | undefined {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isSafeInteger(value) || value < 0) return undefined;
		text = String(value);
	} else if (typeof value === 'string') {
		text = value;
	} else {
		return undefined;
	}
	if (text === '' || text.length > 256) return undefined;
	if (/^[0-9]+$/.test(text)) return text.replace(/^0+(?=[0-9])/, '');
	return text;
}

/** HMAC-SHA256 (hex) of the canonical secret under `key`; undefined when the value is no secret. */
export function secretHmac(secret: unknown, key: Buffer): string | undefined {
	const canonical = canonicalSecret(secret);
	if (canonical === undefined) return undefined;
	return createHmac('sha256', key).update(canonical, 'utf8').digest('hex');
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
 * Whether a received secret matches one of the stored HMACs (the current one, and the previous one
 * while it is still accepted). Every candidate is compared, in constant time. Never throws.
 */
export function matchesStoredHmac(
	receivedSecret: unknown,
	key: Buffer,
	storedHmacs: Array<string | undefined>,
): boolean {
	const received = secretHmac(receivedSecret, key);
	if (received === undefined) return false;
	let matched = false;
	for (const stored of storedHmacs) {
		if (typeof stored !== 'string' || stored === '') continue;
		if (secretsEqual(received, stored)) matched = true;
	}
	return matched;
}

/** The unkeyed SHA-256 (hex) that versions before the keyed HMAC kept. Only read, for migration. */
export function legacyDigest(secret: string): string {
	return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * Finds the short all-digit secret (1 to 4 digits, the form FacilitaPay documents) behind an unkeyed
 * SHA-256 left by an earlier version, so it can be re-kept as a keyed HMAC without registering again
 * (which would change the secret while FacilitaPay still redelivers with the old one). This is the
 * very weakness the HMAC removes: it takes milliseconds. Undefined when the secret is longer.
 */
export function recoverLegacySecret(digest: string): string | undefined {
	for (let length = 1; length <= 4; length++) {
		const end = 10 ** length;
		for (let n = 0; n < end; n++) {
			const candidate = String(n).padStart(length, '0');
			if (legacyDigest(candidate) === digest) return candidate;
		}
	}
	return undefined;
}
