import { createHash } from 'crypto';

import {
	digestSecret,
	matchesStoredDigest,
	secretsEqual,
} from '../../../nodes/FacilitaPayTrigger/secret';

describe('secretsEqual: constant-time comparison that never throws', () => {
	it.each<[string, unknown, unknown, boolean]>([
		['equal strings', '3718', '3718', true],
		['different strings of the same length', '3718', '3719', false],
		['different lengths', '3718', '37180', false],
		['a prefix', '371', '3718', false],
		['missing received value', undefined, '3718', false],
		['missing expected value', '3718', undefined, false],
		['null', null, '3718', false],
		['a number instead of a string', 3718, '3718', false],
		['an object', { secret: '3718' }, '3718', false],
		['an array', ['3718'], '3718', false],
		['both empty', '', '', false],
		['equal Buffers', Buffer.from('3718'), Buffer.from('3718'), true],
		['a Buffer and the same string', Buffer.from('3718'), '3718', true],
		['different Buffers', Buffer.from('3718'), Buffer.from('9999'), false],
		['multi-byte characters of different byte length', 'é', 'ee', false],
	])('%s', (_name, received, expected, result) => {
		expect(() => secretsEqual(received, expected)).not.toThrow();
		expect(secretsEqual(received, expected)).toBe(result);
	});
});

describe('digestSecret', () => {
	it('is the SHA-256 hex digest, never the secret itself', () => {
		const digest = digestSecret('3718');
		expect(digest).toBe(createHash('sha256').update('3718').digest('hex'));
		expect(digest).toMatch(/^[0-9a-f]{64}$/);
		expect(digest).not.toContain('3718');
	});
});

describe('matchesStoredDigest', () => {
	const stored = digestSecret('3718');

	it.each<[string, unknown, unknown, boolean]>([
		['the right secret', '3718', stored, true],
		['a wrong secret', '1234', stored, false],
		['a secret of another length', '37181', stored, false],
		['no secret', undefined, stored, false],
		['an empty secret', '', stored, false],
		['a numeric secret', 3718, stored, false],
		['the digest itself sent as the secret', stored, stored, false],
		['nothing stored', '3718', undefined, false],
		['an empty stored digest', '3718', '', false],
	])('%s', (_name, received, digest, result) => {
		expect(() => matchesStoredDigest(received, digest)).not.toThrow();
		expect(matchesStoredDigest(received, digest)).toBe(result);
	});
});
