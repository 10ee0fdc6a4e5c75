import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';

import {
	baseUrlProblem,
	credentialBaseUrl,
	FacilitaPayApi,
	forgetSignIns,
	sessionFingerprint,
	signInRetry,
} from '../../../credentials/FacilitaPayApi.credentials';

/** The Authorization header the credential's authenticate() puts on a request, as n8n calls it. */
async function authorizationHeader(credentials: IDataObject): Promise<unknown> {
	const options = await new FacilitaPayApi().authenticate(
		credentials as ICredentialDataDecryptedObject,
		{ url: 'https://x.test/', headers: { Accept: 'application/json' } },
	);
	expect(options.headers?.Accept).toBe('application/json');
	return options.headers?.Authorization;
}

function helperReturning(answer: unknown) {
	const calls: IHttpRequestOptions[] = [];
	const helper = {
		helpers: {
			httpRequest: jest.fn(async (options: IHttpRequestOptions) => {
				calls.push(options);
				return answer;
			}),
		},
	} as unknown as IHttpRequestHelper;
	return { helper, calls };
}

describe('FacilitaPay API credentials', () => {
	const credentials = new FacilitaPayApi();
	beforeEach(() => forgetSignIns());

	it.each([
		[{ environment: 'production' }, 'https://api.facilitapay.com/api/v1'],
		[{ environment: 'sandbox' }, 'https://sandbox-api.facilitapay.com/api/v1'],
		[
			{ environment: 'custom', baseUrl: 'http://127.0.0.1:4010/api/v1///' },
			'http://127.0.0.1:4010/api/v1',
		],
		[
			{ environment: 'custom', baseUrl: '  https://proxy.example.com/fp/api/v1 ' },
			'https://proxy.example.com/fp/api/v1',
		],
	])('points %j at %s', (data, url) => {
		expect(credentialBaseUrl(data)).toBe(url);
	});

	it('signs in once with username and password and keeps the JWT with the fingerprint of that password', async () => {
		const { helper, calls } = helperReturning({
			jwt: 'eyJ.jwt',
			name: 'Partner',
			username: 'sandbox',
		});
		const data = {
			environment: 'custom',
			baseUrl: 'http://127.0.0.1:4010/api/v1/',
			authentication: 'usernamePassword',
			username: 'sandbox',
			password: 'secret',
		};
		const result = await credentials.preAuthentication.call(helper, data);
		expect(result).toEqual({
			sessionToken: 'eyJ.jwt',
			sessionFingerprint: sessionFingerprint(data),
		});
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({
			method: 'POST',
			url: 'http://127.0.0.1:4010/api/v1/sign_in',
			body: { user: { username: 'sandbox', password: 'secret' } },
		});
	});

	describe('the Authorization header n8n sends', () => {
		const signedIn = {
			authentication: 'usernamePassword',
			username: 'sandbox',
			password: 'secret',
			sessionToken: 'eyJ.jwt',
		};
		const fingerprint = sessionFingerprint(signedIn);

		it('carries the session token while the username and password are the ones it was obtained with', async () => {
			expect(await authorizationHeader({ ...signedIn, sessionFingerprint: fingerprint })).toBe(
				'Bearer eyJ.jwt',
			);
		});

		it.each([
			['the password changed (or was mistyped)', { password: 'Secret' }],
			['the username changed', { username: 'other' }],
			['no sign-in happened yet', { sessionFingerprint: '' }],
		])('does not carry the session token when %s, so n8n signs in again', async (_name, change) => {
			expect(
				await authorizationHeader({ ...signedIn, sessionFingerprint: fingerprint, ...change }),
			).toBe('Bearer token-of-other-credentials');
		});

		it('carries the access token in Access Token mode', async () => {
			expect(await authorizationHeader({ authentication: 'accessToken', accessToken: 'tok' })).toBe(
				'Bearer tok',
			);
		});
	});

	it('does not sign in when an access token is used', async () => {
		const { helper, calls } = helperReturning({});
		const result = await credentials.preAuthentication.call(helper, {
			authentication: 'accessToken',
			accessToken: 'tok',
		});
		expect(calls).toHaveLength(0);
		// No session token in the answer: n8n then has nothing new, and sends no failed request again.
		expect(result).toEqual({});
	});

	it('says what to check when sign-in answers without a token', async () => {
		const { helper } = helperReturning({ error: 'invalid_credentials' });
		await expect(
			credentials.preAuthentication.call(helper, {
				authentication: 'usernamePassword',
				username: 'u',
				password: 'p',
			}),
		).rejects.toThrow(/Check the username and password/);
	});

	it('keeps the session token in an expirable hidden field, so n8n signs in again after a 401', () => {
		const field = credentials.properties.find((p) => p.name === 'sessionToken');
		expect(field?.type).toBe('hidden');
		expect(field?.typeOptions?.expirable).toBe(true);
	});

	it('tests the credentials with one cheap request', () => {
		expect(credentials.test.request).toMatchObject({
			url: '/notifications',
			qs: { per_page: '1' },
		});
		expect(credentials.test.rules).toEqual([
			expect.objectContaining({
				properties: expect.objectContaining({
					value: 401,
					message: expect.stringMatching(/refused these credentials/),
				}),
			}),
			expect.objectContaining({
				properties: expect.objectContaining({
					value: 429,
					message: expect.stringMatching(/Wait 30 seconds/),
				}),
			}),
		]);
	});

	describe('a custom base URL', () => {
		it.each([
			'http://127.0.0.1:4010/api/v1',
			'http://localhost:4010/api/v1',
			'http://192.168.1.20/api/v1',
			'http://10.0.0.5/api/v1',
			'http://172.20.0.2/api/v1',
			'http://[::1]:4010/api/v1',
			'https://proxy.example.com/api/v1',
		])('accepts %s', (url) => {
			expect(baseUrlProblem(url)).toBeUndefined();
		});

		it.each([
			'http://api.facilitapay.com/api/v1',
			'http://proxy.example.com/api/v1',
			'http://172.32.0.1/api/v1',
			'ftp://127.0.0.1/api/v1',
			'api.facilitapay.com/api/v1',
		])('refuses %s, so the token never travels unencrypted over the internet', (url) => {
			expect(baseUrlProblem(url)).toMatch(/https:\/\//);
			expect(() => credentialBaseUrl({ environment: 'custom', baseUrl: url })).toThrow(/Base URL/);
		});

		it('the credential test goes nowhere for plain http to a public host', () => {
			const baseURL = String(credentials.test.request.baseURL);
			expect(baseURL).toContain('plain-http-is-only-for-local-hosts.invalid');
		});
	});

	describe('one sign-in for many refused requests', () => {
		const account = {
			environment: 'custom',
			baseUrl: 'http://127.0.0.1:4010/api/v1',
			authentication: 'usernamePassword',
			username: 'sandbox',
			password: 'secret',
		};

		it('concurrent refused requests of one account share one sign-in and get the same token', async () => {
			let release: (value: unknown) => void = () => {};
			const calls: IHttpRequestOptions[] = [];
			const helper = {
				helpers: {
					httpRequest: jest.fn(async (options: IHttpRequestOptions) => {
						calls.push(options);
						await new Promise((resolve) => (release = resolve));
						return { jwt: `jwt-${calls.length}` };
					}),
				},
			} as unknown as IHttpRequestHelper;
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
			const { helper, calls } = helperReturning({ jwt: 'fresh' });
			await credentials.preAuthentication.call(helper, { ...account, sessionToken: 'expired' });
			const refusedWithNew = {
				...account,
				sessionToken: 'fresh',
				sessionFingerprint: sessionFingerprint(account),
			};
			await credentials.preAuthentication.call(helper, refusedWithNew);
			expect(calls).toHaveLength(2);
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
			let call = 0;
			const helper = {
				helpers: {
					httpRequest: jest.fn(async () => {
						call++;
						if (call < 3) {
							throw Object.assign(new Error('Request failed with status code 429'), {
								response: {
									status: 429,
									headers: { 'retry-after': '7' },
									data: { error: 'too_many_requests' },
								},
							});
						}
						return { jwt: 'after-wait' };
					}),
				},
			} as unknown as IHttpRequestHelper;
			const result = await credentials.preAuthentication.call(helper, {
				...account,
				sessionToken: '',
			});
			expect(result.sessionToken).toBe('after-wait');
			expect(call).toBe(3);
			expect(waits).toHaveLength(2);
			for (const ms of waits) {
				expect(ms).toBeGreaterThanOrEqual(7000);
				expect(ms).toBeLessThanOrEqual(8000);
			}
		});
	});

	describe('a failure that is not about the token (n8n asks for a new one after any error in its HTTP Request node)', () => {
		const account = {
			environment: 'custom',
			baseUrl: 'http://127.0.0.1:4010/api/v1',
			authentication: 'usernamePassword',
			username: 'sandbox',
			password: 'secret',
		};
		const signedIn = {
			...account,
			sessionToken: 'still-good',
			sessionFingerprint: sessionFingerprint(account),
		};

		it('keeps a token the service still takes: one cheap read, no sign-in, nothing new for n8n (so nothing is sent again)', async () => {
			const calls: IHttpRequestOptions[] = [];
			const helper = {
				helpers: {
					httpRequest: jest.fn(async (options: IHttpRequestOptions) => {
						calls.push(options);
						return { data: [] };
					}),
				},
			} as unknown as IHttpRequestHelper;
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
			const calls: IHttpRequestOptions[] = [];
			const helper = {
				helpers: {
					httpRequest: jest.fn(async (options: IHttpRequestOptions) => {
						calls.push(options);
						if (String(options.url).endsWith('/notifications')) {
							throw Object.assign(new Error('Request failed with status code 401'), {
								response: { status: 401, data: { error: 'invalid_token' } },
							});
						}
						return { jwt: 'renewed' };
					}),
				},
			} as unknown as IHttpRequestHelper;
			const result = await credentials.preAuthentication.call(helper, signedIn);
			expect(result).toEqual({
				sessionToken: 'renewed',
				sessionFingerprint: sessionFingerprint(account),
			});
			expect(calls.map((c) => `${c.method} ${String(c.url).split('/api/v1')[1]}`)).toEqual([
				'GET /notifications',
				'POST /sign_in',
			]);
		});

		it('keeps the token when that read fails for another reason (service down): no sign-in, so n8n sends nothing again', async () => {
			const calls: IHttpRequestOptions[] = [];
			const helper = {
				helpers: {
					httpRequest: jest.fn(async (options: IHttpRequestOptions) => {
						calls.push(options);
						throw Object.assign(new Error('Request failed with status code 503'), {
							response: { status: 503, data: {} },
						});
					}),
				},
			} as unknown as IHttpRequestHelper;
			const result = await credentials.preAuthentication.call(helper, signedIn);
			expect(result).toEqual({});
			expect(calls.map((c) => `${c.method} ${String(c.url).split('/api/v1')[1]}`)).toEqual([
				'GET /notifications',
			]);
		});
	});
});
