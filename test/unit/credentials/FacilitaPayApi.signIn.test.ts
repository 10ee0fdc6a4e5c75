import { FacilitaPayApi } from '../../../credentials/FacilitaPayApi.credentials';
import {
	resetTransport,
	noteRefusedToken,
	sessionFingerprint,
	sharedSignIn,
	signInRetry,
	TOKEN_REUSE_MS,
} from '../../../nodes/FacilitaPay/transport';
import {
	helperAnswering,
	helperReturning,
	httpError,
	scriptedService,
	signInCalls,
} from './scriptedService';

describe('FacilitaPay API credentials: one shared sign-in', () => {
	const credentials = new FacilitaPayApi();
	const account = {
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:4010/api/v1',
		authentication: 'usernamePassword',
		username: 'sandbox',
		password: 'secret',
	};
	beforeEach(() => resetTransport());

	describe('one sign-in for many refused requests', () => {
		it('concurrent refused requests of one account share one sign-in and get the same token', async () => {
			let release: (value: unknown) => void = () => {};
			const { helper, calls } = helperAnswering(async (_options, sent) => {
				await new Promise((resolve) => (release = resolve));
				return { jwt: `jwt-${sent.length}` };
			});
			const pending = Array.from(
				{ length: 50 },
				async () =>
					await credentials.preAuthentication.call(helper, { ...account, sessionToken: 'expired' }),
			);
			for (let k = 0; k < 50; k++) await Promise.resolve();
			release(undefined);
			const results = await Promise.all(pending);
			expect(calls).toHaveLength(1);
			expect(new Set(results.map((r) => r.sessionToken))).toEqual(new Set(['jwt-1']));
		});

		it('a request refused with the old token just after a sign-in gets the new token without another sign-in', async () => {
			const { helper, calls } = helperReturning({ jwt: 'fresh' });
			await credentials.preAuthentication.call(helper, { ...account, sessionToken: 'expired' });
			const again = await credentials.preAuthentication.call(helper, {
				...account,
				sessionToken: 'expired',
			});
			expect(again.sessionToken).toBe('fresh');
			expect(calls).toHaveLength(1);
		});

		it('signs in again when the new token itself is refused, even right after it was issued', async () => {
			const { helper, lines } = scriptedService({ 'jwt-1': 401 });
			await credentials.preAuthentication.call(helper, { ...account, sessionToken: 'expired' });
			const refusedWithNew = {
				...account,
				sessionToken: 'jwt-1',
				sessionFingerprint: sessionFingerprint(account),
			};
			const result = await credentials.preAuthentication.call(helper, refusedWithNew);
			expect(result.sessionToken).toBe('jwt-2');
			expect(lines()).toEqual(['POST /sign_in', 'GET /notifications', 'POST /sign_in']);
		});

		it('another password is another sign-in (a mistyped password is never answered with the old token)', async () => {
			const { helper, calls } = helperReturning({ jwt: 'fresh' });
			await credentials.preAuthentication.call(helper, { ...account, sessionToken: 'expired' });
			await credentials.preAuthentication.call(helper, {
				...account,
				password: 'typo',
				sessionToken: 'fresh',
			});
			expect(calls).toHaveLength(2);
			expect(calls[1].body).toEqual({ user: { username: 'sandbox', password: 'typo' } });
		});

		it('waits and signs in again when the service limits sign-ins (429), honouring Retry-After', async () => {
			const waits: number[] = [];
			jest.spyOn(signInRetry, 'wait').mockImplementation(async (ms: number) => {
				waits.push(ms);
			});
			const { helper, calls } = helperAnswering(async (_options, sent) => {
				if (sent.length < 3) {
					throw Object.assign(new Error('Request failed with status code 429'), {
						response: {
							status: 429,
							headers: { 'retry-after': '7' },
							data: { error: 'too_many_requests' },
						},
					});
				}
				return { jwt: 'after-wait' };
			});
			const result = await credentials.preAuthentication.call(helper, {
				...account,
				sessionToken: '',
			});
			expect(result.sessionToken).toBe('after-wait');
			expect(calls).toHaveLength(3);
			expect(waits).toHaveLength(2);
			for (const ms of waits) {
				expect(ms).toBeGreaterThanOrEqual(7000);
				expect(ms).toBeLessThanOrEqual(8000);
			}
		});
	});

	describe("a new token only for a request whose token the service refused (n8n's HTTP Request node sends the request again on a new token)", () => {
		const carrying = (sessionToken: string) => ({
			...account,
			sessionToken,
			sessionFingerprint: sessionFingerprint(account),
		});

		it('a request that failed for another reason (a 500 on a payment) just after a sign-in gets no new token: the older token it carried still works', async () => {
			const { helper, lines, calls } = scriptedService();
			await credentials.preAuthentication.call(helper, { ...account, sessionToken: '' });
			const result = await credentials.preAuthentication.call(helper, carrying('older'));
			expect(result).toEqual({});
			expect(lines()).toEqual(['POST /sign_in', 'GET /notifications']);
			expect(calls[1].headers?.Authorization).toBe('Bearer older');
		});

		it('a request that failed for another reason with the token just issued gets no new token', async () => {
			const { helper, lines } = scriptedService();
			await credentials.preAuthentication.call(helper, { ...account, sessionToken: '' });
			expect(await credentials.preAuthentication.call(helper, carrying('jwt-1'))).toEqual({});
			expect(lines()).toEqual(['POST /sign_in', 'GET /notifications']);
		});

		it('a check read that fails for another reason (503) just after a sign-in hands out nothing either', async () => {
			const { helper, lines } = scriptedService({ older: 503 });
			await credentials.preAuthentication.call(helper, { ...account, sessionToken: '' });
			expect(await credentials.preAuthentication.call(helper, carrying('older'))).toEqual({});
			expect(lines()).toEqual(['POST /sign_in', 'GET /notifications']);
		});

		it('a request refused with an older token just after a sign-in gets the new token once the service refuses the older one, without another sign-in', async () => {
			const { helper, lines } = scriptedService({ older: 401 });
			await credentials.preAuthentication.call(helper, { ...account, sessionToken: '' });
			const result = await credentials.preAuthentication.call(helper, carrying('older'));
			expect(result.sessionToken).toBe('jwt-1');
			expect(lines()).toEqual(['POST /sign_in', 'GET /notifications']);
		});

		it('a 403 on the check read counts as a refusal too', async () => {
			const { helper, lines } = scriptedService({ revoked: 403 });
			const result = await credentials.preAuthentication.call(helper, carrying('revoked'));
			expect(result.sessionToken).toBe('jwt-1');
			expect(lines()).toEqual(['GET /notifications', 'POST /sign_in']);
		});

		it('20 requests refused together with the same token share one check read and one sign-in, and all get the new token', async () => {
			const { helper, lines } = scriptedService({ expired: 401 });
			const results = await Promise.all(
				Array.from(
					{ length: 20 },
					async () => await credentials.preAuthentication.call(helper, carrying('expired')),
				),
			);
			expect(lines()).toEqual(['GET /notifications', 'POST /sign_in']);
			expect(results.map((r) => r.sessionToken)).toEqual(Array(20).fill('jwt-1'));
		});

		it('a token refused once is not read again: a later refusal with it gets the new token at once', async () => {
			const { helper, lines } = scriptedService({ expired: 401 });
			await credentials.preAuthentication.call(helper, carrying('expired'));
			const later = await credentials.preAuthentication.call(helper, carrying('expired'));
			expect(later.sessionToken).toBe('jwt-1');
			expect(lines()).toEqual(['GET /notifications', 'POST /sign_in']);
		});

		it('a request that carried no usable token gets a token issued within TOKEN_REUSE_MS without a sign-in, and a new sign-in after', async () => {
			let clock = 1_000_000;
			const now = () => clock;
			const calls = signInCalls(true);
			const noToken = { ...account, sessionToken: '' };
			expect(await sharedSignIn(noToken, calls, now)).toBe('jwt-1');
			clock += TOKEN_REUSE_MS - 1;
			expect(await sharedSignIn(noToken, calls, now)).toBe('jwt-1');
			clock += 1;
			expect(await sharedSignIn(noToken, calls, now)).toBe('jwt-2');
			expect(calls.signIn).toHaveBeenCalledTimes(2);
			expect(calls.refuses).not.toHaveBeenCalled();
		});

		it('a token the node saw refused (401) is not handed to the next request without a token, even within TOKEN_REUSE_MS: one sign-in follows', async () => {
			const clock = 1_000_000;
			const calls = signInCalls(true);
			const noToken = { ...account, sessionToken: '' };
			expect(await sharedSignIn(noToken, calls, () => clock)).toBe('jwt-1');
			noteRefusedToken(account, 'jwt-1');
			const [a, b] = await Promise.all([
				sharedSignIn(noToken, calls, () => clock),
				sharedSignIn(noToken, calls, () => clock),
			]);
			expect([a, b]).toEqual(['jwt-2', 'jwt-2']);
			expect(calls.signIn).toHaveBeenCalledTimes(2);
			expect(calls.refuses).not.toHaveBeenCalled();
		});

		it('a request that carried a usable token never gets the just-issued token without its own token being refused, inside TOKEN_REUSE_MS too', async () => {
			const clock = 1_000_000;
			const calls = signInCalls(false);
			expect(await sharedSignIn({ ...account, sessionToken: '' }, calls, () => clock)).toBe(
				'jwt-1',
			);
			expect(await sharedSignIn(carrying('older'), calls, () => clock)).toBeUndefined();
			expect(calls.refuses).toHaveBeenCalledWith('older');
			expect(calls.signIn).toHaveBeenCalledTimes(1);
		});
	});

	describe('a failure that is not about the token (n8n asks for a new one after any error in its HTTP Request node)', () => {
		const signedIn = {
			...account,
			sessionToken: 'still-good',
			sessionFingerprint: sessionFingerprint(account),
		};

		it('keeps a token the service still takes: one cheap read, no sign-in, nothing new for n8n (so nothing is sent again)', async () => {
			const { helper, calls } = helperReturning({ data: [] });
			const result = await credentials.preAuthentication.call(helper, signedIn);
			expect(result).toEqual({});
			expect(calls).toHaveLength(1);
			expect(calls[0]).toMatchObject({
				method: 'GET',
				url: 'http://127.0.0.1:4010/api/v1/notifications',
				headers: { Authorization: 'Bearer still-good' },
			});
		});

		it('signs in when that read is refused too (the token expired)', async () => {
			const { helper, lines } = helperAnswering(async (options) => {
				if (String(options.url).endsWith('/notifications')) {
					throw Object.assign(new Error('Request failed with status code 401'), {
						response: { status: 401, data: { error: 'invalid_token' } },
					});
				}
				return { jwt: 'renewed' };
			});
			const result = await credentials.preAuthentication.call(helper, signedIn);
			expect(result).toEqual({
				sessionToken: 'renewed',
				sessionFingerprint: sessionFingerprint(account),
			});
			expect(lines()).toEqual(['GET /notifications', 'POST /sign_in']);
		});

		it('keeps the token when that read fails for another reason (service down): no sign-in, so n8n sends nothing again', async () => {
			const { helper, lines } = helperAnswering(async () => {
				throw httpError(503);
			});
			const result = await credentials.preAuthentication.call(helper, signedIn);
			expect(result).toEqual({});
			expect(lines()).toEqual(['GET /notifications']);
		});
	});
});
