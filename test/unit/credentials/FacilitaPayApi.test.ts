import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeTypes,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import {
	baseUrlProblem,
	credentialBaseUrl,
	FacilitaPayApi,
	forgetSignIns,
	noteRefusedToken,
	PRODUCTION_BASE_URL,
	requestTargets,
	sessionFingerprint,
	sharedSignIn,
	signInRetry,
	TOKEN_REUSE_MS,
	tokenMayGoTo,
} from '../../../credentials/FacilitaPayApi.credentials';

/**
 * The Authorization header the credential's authenticate() puts on a request to FacilitaPay (the
 * production host, the credentials' default), as n8n calls it.
 */
async function authorizationHeader(credentials: IDataObject): Promise<unknown> {
	const options = await new FacilitaPayApi().authenticate(
		credentials as ICredentialDataDecryptedObject,
		{ url: `${PRODUCTION_BASE_URL}/notifications`, headers: { Accept: 'application/json' } },
	);
	expect(options.headers?.Accept).toBe('application/json');
	return options.headers?.Authorization;
}

/** An HTTP error as n8n's helpers.httpRequest throws it. */
function httpError(status: number): Error {
	return Object.assign(new Error(`Request failed with status code ${status}`), {
		response: { status, data: {} },
	});
}

/**
 * A helper whose check read (GET /notifications) answers per token as `reads` says (a status to
 * fail with, or 200), and whose sign-in issues jwt-1, jwt-2, ...
 */
function scriptedService(reads: Record<string, number> = {}) {
	const calls: IHttpRequestOptions[] = [];
	let issued = 0;
	const helper = {
		helpers: {
			httpRequest: jest.fn(async (options: IHttpRequestOptions) => {
				calls.push(options);
				if (String(options.url).endsWith('/sign_in')) return { jwt: `jwt-${++issued}` };
				const token = String(options.headers?.Authorization).replace(/^Bearer /, '');
				const status = reads[token] ?? 200;
				if (status !== 200) throw httpError(status);
				return { data: [] };
			}),
		},
	} as unknown as IHttpRequestHelper;
	const lines = () => calls.map((c) => `${c.method} ${String(c.url).split('/api/v1')[1]}`);
	return { helper, calls, lines };
}

/**
 * The Base URL n8n computes for the credential test: the `baseURL` expression of `test.request`
 * evaluated by n8n's own expression engine with `$credentials`, as n8n's credential tester does.
 */
function testBaseUrl(data: IDataObject): string {
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodeTypes = {
		getByName: () => undefined,
		getByNameAndVersion: () => undefined,
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const expression = String(new FacilitaPayApi().test.request.baseURL);
	return String(
		workflow.expression.getSimpleParameterValue(
			node,
			expression,
			'internal',
			{ $credentials: data },
			undefined,
			'',
		),
	);
}

/**
 * The credential test as n8n runs it (the editor's Test button): the request of `test.request`
 * with the Base URL expression resolved, preAuthentication, then authenticate; what would leave.
 */
async function credentialTestRequest(data: IDataObject) {
	const { helper, calls } = scriptedService();
	const credentialType = new FacilitaPayApi();
	const request = credentialType.test.request;
	const options: IHttpRequestOptions = {
		baseURL: testBaseUrl(data),
		url: String(request.url),
		qs: request.qs as IDataObject,
		headers: {},
	};
	const credentials = data as ICredentialDataDecryptedObject;
	Object.assign(credentials, await credentialType.preAuthentication.call(helper, credentials));
	return { sent: await credentialType.authenticate(credentials, options), signInCalls: calls };
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

		it.each([
			'http://localhost.evil.example/api/v1',
			'http://10.evil.example/api/v1',
			'http://127.0.0.1@evil.example/api/v1',
			'http://192.168.1.20.evil.example/api/v1',
			'https://user:secret@proxy.example.com/api/v1',
			'http://[fe7f::1]/api/v1',
			'http://[fc::1]/api/v1',
		])('refuses %s: a name that only looks local, or a user name before the host', (url) => {
			expect(baseUrlProblem(url)).toBeDefined();
			expect(() => credentialBaseUrl({ environment: 'custom', baseUrl: url })).toThrow(/Base URL/);
		});

		it.each([
			'http://dev.localhost:4010/api/v1',
			'http://[fd12:3456:789a::1]/api/v1',
			'http://[fe80::1]/api/v1',
			'http://[febf::1]/api/v1',
			'http://172.16.0.1/api/v1',
			'http://172.31.255.255/api/v1',
		])('accepts the local or private %s', (url) => {
			expect(baseUrlProblem(url)).toBeUndefined();
		});
	});

	describe('the token goes only to FacilitaPay (tokenMayGoTo, the one host rule)', () => {
		const production = {
			environment: 'production',
			authentication: 'accessToken',
			accessToken: 'tok',
		};
		const localSandbox = {
			environment: 'custom',
			baseUrl: 'http://127.0.0.1:4010/api/v1',
			authentication: 'accessToken',
			accessToken: 'tok',
		};
		const proxy = {
			environment: 'custom',
			baseUrl: 'https://proxy.example.com/fp/api/v1/',
			authentication: 'accessToken',
			accessToken: 'tok',
		};

		it.each([
			[production, 'https://api.facilitapay.com/api/v1/subject/people'],
			[production, 'https://API.FacilitaPay.com:443/api/v1/notifications'],
			[{ ...production, environment: 'sandbox' }, 'https://sandbox-api.facilitapay.com/x'],
			[localSandbox, 'http://127.0.0.1:4010/api/v1/notifications'],
			[proxy, 'https://proxy.example.com/other/path'],
			[{ ...localSandbox, baseUrl: 'http://localhost:4010/api/v1' }, 'http://localhost:4010/'],
			[{ ...localSandbox, baseUrl: 'http://[::1]:4010/api/v1' }, 'http://[::1]:4010/api/v1'],
			[{ ...localSandbox, baseUrl: 'https://10.0.0.5/api/v1' }, 'http://10.0.0.5/api/v1'],
		])('lets the token of %j go to %s', (data, url) => {
			expect(tokenMayGoTo(url, data)).toBe(true);
		});

		it.each([
			[production, 'http://api.facilitapay.com/api/v1/subject/people', 'plain http'],
			[production, 'https://api.facilitapay.com:8443/api/v1', 'another port'],
			[production, 'https://sandbox-api.facilitapay.com/api/v1', 'another host'],
			[production, 'https://api.facilitapay.com.evil.example/api/v1', 'a longer name'],
			[production, 'https://evil.example/api/v1', 'another host'],
			[production, 'https://user:pw@api.facilitapay.com/api/v1', 'a user name in the URL'],
			[production, 'https://api.facilitapay.com@evil.example/api/v1', 'userinfo before the host'],
			[production, 'ftp://api.facilitapay.com/api/v1', 'another protocol'],
			[production, '/api/v1/notifications', 'no host at all'],
			[localSandbox, 'http://127.0.0.1:4011/api/v1', 'another port'],
			[localSandbox, 'http://127.0.0.2:4010/api/v1', 'another loopback address'],
			[localSandbox, 'http://localhost:4010/api/v1', 'the same machine by another name'],
			[proxy, 'http://proxy.example.com/fp/api/v1', 'plain http to a public host'],
		])('keeps the token of %j from %s (%s)', (data, url) => {
			expect(tokenMayGoTo(url, data)).toBe(false);
		});

		it.each([
			'http://localhost.evil.example/api/v1',
			'http://10.evil.example/api/v1',
			'http://127.0.0.1@evil.example/api/v1',
		])(
			'never lets the token go anywhere when the Base URL is %s, not even to that URL',
			(baseUrl) => {
				const data = { ...localSandbox, baseUrl };
				expect(tokenMayGoTo(`${baseUrl}/notifications`, data)).toBe(false);
				expect(tokenMayGoTo('http://localhost.evil.example/api/v1', data)).toBe(false);
				expect(tokenMayGoTo('https://api.facilitapay.com/api/v1', data)).toBe(false);
			},
		);

		describe("authenticate, whatever node asks (n8n's HTTP Request node calls any URL)", () => {
			it("adds the token to a request to the credentials' own host, and not on a redirect elsewhere", async () => {
				const sent = await credentials.authenticate(production, {
					url: 'https://api.facilitapay.com/api/v1/notifications',
					headers: { Accept: 'application/json' },
				});
				expect(sent.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer tok' });
				expect(sent.sendCredentialsOnCrossOriginRedirect).toBe(false);
			});

			it.each([
				'http://localhost.evil.example/api/v1/notifications',
				'http://10.evil.example/api/v1/notifications',
				'http://127.0.0.1@evil.example/api/v1/notifications',
				'http://api.facilitapay.com/api/v1/notifications',
				'https://example.com/anything',
			])('sends a request to %s without the token', async (url) => {
				const sent = await credentials.authenticate(production, {
					url,
					headers: { Accept: 'application/json' },
				});
				expect(sent.headers).toEqual({ Accept: 'application/json' });
			});

			it('reads the legacy `uri` of the HTTP Request node, and baseURL with a relative url', async () => {
				const legacy = {
					uri: 'https://evil.example/x',
					headers: {},
				} as unknown as IHttpRequestOptions;
				expect((await credentials.authenticate(production, legacy)).headers).toEqual({});
				const relative = { baseURL: 'https://api.facilitapay.com/api/v1', url: '/notifications' };
				expect((await credentials.authenticate(production, relative)).headers).toEqual({
					Authorization: 'Bearer tok',
				});
				const escaping = { baseURL: 'https://api.facilitapay.com/api/v1', url: '//evil.example/x' };
				expect((await credentials.authenticate(production, escaping)).headers).toEqual({});
			});

			it("removes its own token kept on the options from an earlier request, and leaves a header of the user's own", async () => {
				const options: IHttpRequestOptions = {
					url: 'https://api.facilitapay.com/api/v1/page-1',
					headers: {},
				};
				await credentials.authenticate(production, options);
				expect(options.headers?.Authorization).toBe('Bearer tok');
				options.url = 'https://evil.example/page-2';
				expect((await credentials.authenticate(production, options)).headers).toEqual({});
				const own = { url: 'https://example.com/', headers: { authorization: 'Bearer mine' } };
				expect((await credentials.authenticate(production, own)).headers).toEqual({
					authorization: 'Bearer mine',
				});
			});

			it.each([
				'http://localhost.evil.example/api/v1',
				'http://10.evil.example/api/v1',
				'http://127.0.0.1@evil.example/api/v1',
			])('sends nothing at all with credentials whose Base URL is %s', async (baseUrl) => {
				await expect(
					credentials.authenticate(
						{ ...localSandbox, baseUrl },
						{ url: `${baseUrl}/notifications`, headers: {} },
					),
				).rejects.toThrow(/FacilitaPay credentials: the Base URL/);
			});
		});

		describe('the credential test (the Test button) obeys the same rule', () => {
			it.each([
				'http://localhost.evil.example/api/v1',
				'http://10.evil.example/api/v1',
				'http://127.0.0.1@evil.example/api/v1',
			])(
				'with the Base URL %s the token never leaves: the test fails saying why, before any request',
				async (baseUrl) => {
					for (const mode of [
						{ authentication: 'accessToken', accessToken: 'tok', sessionToken: '' },
						{ authentication: 'usernamePassword', username: 'u', password: 'p', sessionToken: '' },
					]) {
						await expect(
							credentialTestRequest({ environment: 'custom', baseUrl, ...mode }),
						).rejects.toThrow(/FacilitaPay credentials: the Base URL/);
					}
					// Even when n8n skipped preAuthentication (a saved session token), authenticate refuses.
					await expect(
						credentials.authenticate(
							{ ...localSandbox, baseUrl },
							{ baseURL: testBaseUrl({ environment: 'custom', baseUrl }), url: '/notifications' },
						),
					).rejects.toThrow(/FacilitaPay credentials: the Base URL/);
				},
			);

			it('with a local sandbox, the test request carries the token to it', async () => {
				const { sent } = await credentialTestRequest({ ...localSandbox, sessionToken: '' });
				expect(requestTargets(sent as unknown as IDataObject)[0]).toBe(
					'http://127.0.0.1:4010/api/v1/notifications',
				);
				expect(sent.headers?.Authorization).toBe('Bearer tok');
			});

			it.each([
				[{ environment: 'production' }, 'https://api.facilitapay.com/api/v1'],
				[{ environment: 'sandbox' }, 'https://sandbox-api.facilitapay.com/api/v1'],
				[
					{ environment: 'custom', baseUrl: ' http://127.0.0.1:4010/api/v1// ' },
					'http://127.0.0.1:4010/api/v1',
				],
			])('the test of %j calls %s/notifications', (data, base) => {
				expect(testBaseUrl(data)).toBe(base);
			});
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

	describe("a new token only for a request whose token the service refused (n8n's HTTP Request node sends the request again on a new token)", () => {
		const account = {
			environment: 'custom',
			baseUrl: 'http://127.0.0.1:4010/api/v1',
			authentication: 'usernamePassword',
			username: 'sandbox',
			password: 'secret',
		};
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
			let issued = 0;
			const calls = {
				signIn: jest.fn(async () => `jwt-${++issued}`),
				refuses: jest.fn(async () => true),
			};
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
			let issued = 0;
			const calls = {
				signIn: jest.fn(async () => `jwt-${++issued}`),
				refuses: jest.fn(async () => true),
			};
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
			let issued = 0;
			const calls = {
				signIn: jest.fn(async () => `jwt-${++issued}`),
				refuses: jest.fn(async () => false),
			};
			expect(await sharedSignIn({ ...account, sessionToken: '' }, calls, () => clock)).toBe(
				'jwt-1',
			);
			expect(await sharedSignIn(carrying('older'), calls, () => clock)).toBeUndefined();
			expect(calls.refuses).toHaveBeenCalledWith('older');
			expect(calls.signIn).toHaveBeenCalledTimes(1);
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
