import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { FacilitaPayApi } from '../../../credentials/FacilitaPayApi.credentials';
import {
	baseUrlProblem,
	credentialBaseUrl,
	resetTransport,
	PRODUCTION_BASE_URL,
	sessionFingerprint,
} from '../../../nodes/FacilitaPay/transport';
import { helperReturning } from './scriptedService';

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

describe('FacilitaPay API credentials', () => {
	const credentials = new FacilitaPayApi();
	beforeEach(() => resetTransport());

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
});
