import { keyOf, newWaitSecret, sign, signedBody, verify } from '../../../nodes/FacilitaPay/waiting';

const payload = (overrides = {}) => ({
	executionId: '41',
	generation: 3,
	kind: 'records' as const,
	records: [],
	cursor: 'r-9',
	...overrides,
});

describe('the signature of a resume call', () => {
	const secret = newWaitSecret();
	const key = keyOf(secret);

	test('the waiter’s body verifies; the same payload for another execution does not', () => {
		const body = signedBody(key, payload());
		expect(verify(key, '41', body.payload, body.signature)).toBe(true);
		expect(verify(key, '42', body.payload, body.signature)).toBe(false);
	});

	test('a changed payload (a forged record, another wait, a renewal made a decision) does not verify', () => {
		const body = signedBody(key, payload());
		for (const forged of [
			body.payload.replace('"records":[]', '"records":[{"id":"x"}]'),
			body.payload.replace('"generation":3', '"generation":4'),
			body.payload.replace('"kind":"records"', '"kind":"renew"'),
		])
			expect(verify(key, '41', forged, body.signature)).toBe(false);
	});

	test('each wait has its own key: a call signed for an earlier wait (or another instance) is refused', () => {
		const body = signedBody(key, payload());
		const other = keyOf(newWaitSecret());
		expect(verify(other, '41', body.payload, body.signature)).toBe(false);
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(newWaitSecret()).not.toBe(secret);
		expect(sign(other, '41', 'x')).not.toBe(sign(key, '41', 'x'));
	});

	test.each([
		[undefined, 'sig'],
		['payload', undefined],
		['payload', ''],
		['payload', 'zz'],
		[{ a: 1 }, 'x'.repeat(64)],
		['payload', 'a'.repeat(64)],
	])('payload %j, signature %j: refused, never throws', (p, signature) => {
		expect(verify(key, '41', p, signature)).toBe(false);
	});
});
