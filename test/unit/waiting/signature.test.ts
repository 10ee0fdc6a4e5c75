import { sign, signedBody, signingKey, verify } from '../../../nodes/FacilitaPay/waiting';

const token = { authentication: 'accessToken', accessToken: 'sandbox-token' };
const user = { authentication: 'usernamePassword', username: 'sandbox', password: 'secret' };

describe('the signature of a resume call', () => {
	const key = signingKey(token, 'instance-a');

	test('the waiter’s body verifies; the same payload for another execution does not', () => {
		const body = signedBody(key, { executionId: '41', records: [], final: false });
		expect(verify(key, '41', body.payload, body.signature)).toBe(true);
		expect(verify(key, '42', body.payload, body.signature)).toBe(false);
	});

	test('a changed payload (a forged record, final set) does not verify', () => {
		const body = signedBody(key, { executionId: '41', records: [], final: false });
		const forged = body.payload.replace('"final":false', '"final":true');
		expect(verify(key, '41', forged, body.signature)).toBe(false);
	});

	test('the key depends on the instance and on the credential’s secret, not on the webhook secret', () => {
		const other = [
			signingKey(token, 'instance-b'),
			signingKey({ ...token, accessToken: 'other-token' }, 'instance-a'),
			signingKey(user, 'instance-a'),
			signingKey({ ...user, password: 'secret2' }, 'instance-a'),
		];
		const s = sign(key, '41', 'x');
		for (const k of other) expect(sign(k, '41', 'x')).not.toBe(s);
	});

	test.each([
		[undefined, 'sig'],
		['payload', undefined],
		['payload', ''],
		['payload', 'zz'],
		[{ a: 1 }, 'x'.repeat(64)],
		['payload', 'a'.repeat(64)],
	])('payload %j, signature %j: refused, never throws', (payload, signature) => {
		expect(verify(key, '41', payload, signature)).toBe(false);
	});
});
