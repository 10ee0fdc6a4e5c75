import { createHash, createHmac } from 'crypto';

import {
	canonicalSecret,
	legacyDigest,
	matchesStoredHmac,
	recoverLegacySecret,
	secretHmac,
	secretKey,
	secretsEqual,
} from '../../../nodes/FacilitaPayTrigger/registration';
import { credentials } from './triggerContext';

describe('secretsEqual: constant-time comparison that never throws', () => {
	it.each<[string, unknown, unknown, boolean]>([
		['equal strings', '3718', '3718', true],
		['different strings of the same length', '3718', '3719', false],
		['different lengths', '3718', '37180', false],
		['a prefix', '371', '3718', false],
		['missing received value', undefined, '3718', false],
		['missing expected value', '3718', undefined, false],
		['null', null, '3718', false],
		['a number', 3718, '3718', false],
		['an object', { secret: '3718' }, '3718', false],
		['an array', ['3718'], '3718', false],
		['both empty', '', '', false],
		['equal Buffers', Buffer.from('3718'), Buffer.from('3718'), true],
		['a Buffer and the same string', Buffer.from('3718'), '3718', true],
		['multi-byte characters of different byte length', 'é', 'ee', false],
	])('%s', (_name, received, expected, result) => {
		expect(() => secretsEqual(received, expected)).not.toThrow();
		expect(secretsEqual(received, expected)).toBe(result);
	});
});

describe('canonicalSecret: one rule for secrets sent as numbers or strings (issue 13)', () => {
	it.each<[string, unknown, string | undefined]>([
		['a 4-digit string', '3718', '3718'],
		['the same secret as a JSON number', 3718, '3718'],
		['leading zeros, as a string', '0042', '42'],
		['the same secret as a number (no leading zeros possible)', 42, '42'],
		['all zeros', '0000', '0'],
		['zero as a number', 0, '0'],
		['letters are kept as they are', 'aB3x', 'aB3x'],
		['spaces are not trimmed', ' 3718', ' 3718'],
		['an empty string', '', undefined],
		['a negative number', -3718, undefined],
		['a fractional number', 37.18, undefined],
		['an unsafe integer', 2 ** 60, undefined],
		['NaN', Number.NaN, undefined],
		['a boolean', true, undefined],
		['an object', { value: '3718' }, undefined],
		['null', null, undefined],
	])('%s', (_name, value, canonical) => {
		expect(canonicalSecret(value)).toBe(canonical);
	});

	it('a number and the string the service returned match the same stored HMAC', () => {
		const key = secretKey(credentials);
		const stored = secretHmac('0042', key);
		expect(matchesStoredHmac(42, key, [stored])).toBe(true);
		expect(matchesStoredHmac('0042', key, [stored])).toBe(true);
		expect(matchesStoredHmac('0043', key, [stored])).toBe(false);
	});
});

describe('secret at rest: a keyed HMAC whose key is not in the workflow', () => {
	const key = secretKey(credentials);

	it('is not the plain SHA-256 nor an HMAC under a key that could sit beside it', () => {
		const stored = secretHmac('3718', key)!;
		expect(stored).toMatch(/^[0-9a-f]{64}$/);
		expect(stored).not.toBe(createHash('sha256').update('3718').digest('hex'));
		expect(stored).not.toContain('3718');
	});

	it('cannot be brute-forced from the static data alone: trying all 10,000 secrets without the credential finds nothing', () => {
		const stored = secretHmac('3718', key)!;
		// What an attacker holding only the workflow could try: unkeyed hashes and HMACs under
		// everything the workflow shows (empty key, the label, the URL).
		const guessKeys = [
			'',
			'n8n-nodes-facilitapay/webhook-secret/v2',
			'https://n8n.example.com/webhook/3f1c/webhook',
		];
		let found = 0;
		for (let n = 0; n < 10_000; n++) {
			const candidate = String(n).padStart(4, '0');
			if (createHash('sha256').update(candidate).digest('hex') === stored) found += 1;
			for (const guess of guessKeys) {
				if (createHmac('sha256', guess).update(candidate).digest('hex') === stored) found += 1;
			}
		}
		expect(found).toBe(0);
	});

	it('the key comes from the credential secret: another token or password gives another key', () => {
		const token = secretKey({ ...credentials, accessToken: 'other-token' });
		const password = secretKey({
			authentication: 'usernamePassword',
			username: 'u',
			password: 'p1',
		});
		const password2 = secretKey({
			authentication: 'usernamePassword',
			username: 'u',
			password: 'p2',
		});
		expect(token.equals(key)).toBe(false);
		expect(password.equals(password2)).toBe(false);
	});

	it('the key ignores the session token renewed every 24 h and the base URL', () => {
		const renewed = secretKey({
			...credentials,
			sessionToken: 'jwt-2',
			baseUrl: 'https://x/api/v1/',
		});
		expect(renewed.equals(key)).toBe(true);
	});
});

describe('matchesStoredHmac', () => {
	const key = secretKey(credentials);
	const current = secretHmac('3718', key);
	const previous = secretHmac('5555', key);

	it.each<[string, unknown, boolean]>([
		['the current secret', '3718', true],
		['the previous secret', '5555', true],
		['a wrong secret', '1234', false],
		['no secret', undefined, false],
		['an empty secret', '', false],
		['the stored HMAC itself sent as the secret', current, false],
	])('%s', (_name, received, result) => {
		expect(() => matchesStoredHmac(received, key, [current, previous])).not.toThrow();
		expect(matchesStoredHmac(received, key, [current, previous])).toBe(result);
	});

	it('nothing stored matches nothing', () => {
		expect(matchesStoredHmac('3718', key, [undefined, ''])).toBe(false);
	});
});

describe('recoverLegacySecret: migrating the unkeyed SHA-256 of earlier versions', () => {
	it.each(['3718', '0042', '7', '9999'])('finds %s behind its SHA-256', (secret) => {
		expect(recoverLegacySecret(legacyDigest(secret))).toBe(secret);
	});

	it('gives up on longer secrets', () => {
		expect(recoverLegacySecret(legacyDigest('long-secret-1'))).toBeUndefined();
	});
});
