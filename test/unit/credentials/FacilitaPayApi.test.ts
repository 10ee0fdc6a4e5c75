import type { IDataObject, IHttpRequestHelper, IHttpRequestOptions, INode, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import {
	credentialBaseUrl,
	FacilitaPayApi,
	sessionFingerprint,
} from '../../../credentials/FacilitaPayApi.credentials';

/** Resolves the credential's Authorization header the way n8n does, with n8n-workflow's expressions. */
function authorizationHeader(credentials: IDataObject): unknown {
	const node: INode = { id: '1', name: 'FacilitaPay', type: 'n8n-nodes-facilitapay.facilitaPay', typeVersion: 1, position: [0, 0], parameters: {} };
	const description = { description: { properties: [] } };
	const nodeTypes = { getByName: () => description, getByNameAndVersion: () => description, getKnownTypes: () => ({}) } as unknown as INodeTypes;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const header = (new FacilitaPayApi().authenticate.properties.headers as Record<string, string>).Authorization;
	return workflow.expression.getSimpleParameterValue(node, header, 'internal', { $credentials: credentials }, undefined, '');
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

	it.each([
		[{ environment: 'production' }, 'https://api.facilitapay.com/api/v1'],
		[{ environment: 'sandbox' }, 'https://sandbox-api.facilitapay.com/api/v1'],
		[{ environment: 'custom', baseUrl: 'http://127.0.0.1:4010/api/v1///' }, 'http://127.0.0.1:4010/api/v1'],
		[{ environment: 'custom', baseUrl: '  https://proxy.example.com/fp/api/v1 ' }, 'https://proxy.example.com/fp/api/v1'],
	])('points %j at %s', (data, url) => {
		expect(credentialBaseUrl(data)).toBe(url);
	});

	it('signs in once with username and password and keeps the JWT with the fingerprint of that password', async () => {
		const { helper, calls } = helperReturning({ jwt: 'eyJ.jwt', name: 'Partner', username: 'sandbox' });
		const data = {
			environment: 'custom',
			baseUrl: 'http://127.0.0.1:4010/api/v1/',
			authentication: 'usernamePassword',
			username: 'sandbox',
			password: 'secret',
		};
		const result = await credentials.preAuthentication.call(helper, data);
		expect(result).toEqual({ sessionToken: 'eyJ.jwt', sessionFingerprint: sessionFingerprint(data) });
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({
			method: 'POST',
			url: 'http://127.0.0.1:4010/api/v1/sign_in',
			body: { user: { username: 'sandbox', password: 'secret' } },
		});
	});

	describe('the Authorization header n8n sends', () => {
		const signedIn = { authentication: 'usernamePassword', username: 'sandbox', password: 'secret', sessionToken: 'eyJ.jwt' };
		const fingerprint = sessionFingerprint(signedIn);

		it('carries the session token while the username and password are the ones it was obtained with', () => {
			expect(authorizationHeader({ ...signedIn, sessionFingerprint: fingerprint })).toBe('Bearer eyJ.jwt');
		});

		it.each([
			['the password changed (or was mistyped)', { password: 'Secret' }],
			['the username changed', { username: 'other' }],
			['no sign-in happened yet', { sessionFingerprint: '' }],
		])('does not carry the session token when %s, so n8n signs in again', (_name, change) => {
			expect(authorizationHeader({ ...signedIn, sessionFingerprint: fingerprint, ...change })).toBe('Bearer token-of-other-credentials');
		});

		it('carries the access token in Access Token mode', () => {
			expect(authorizationHeader({ authentication: 'accessToken', accessToken: 'tok' })).toBe('Bearer tok');
		});
	});

	it('does not sign in when an access token is used', async () => {
		const { helper, calls } = helperReturning({});
		const result = await credentials.preAuthentication.call(helper, { authentication: 'accessToken', accessToken: 'tok' });
		expect(calls).toHaveLength(0);
		expect(result).toEqual({ sessionToken: 'tok' });
	});

	it('says what to check when sign-in answers without a token', async () => {
		const { helper } = helperReturning({ error: 'invalid_credentials' });
		await expect(
			credentials.preAuthentication.call(helper, { authentication: 'usernamePassword', username: 'u', password: 'p' }),
		).rejects.toThrow(/Check the username and password/);
	});

	it('keeps the session token in an expirable hidden field, so n8n signs in again after a 401', () => {
		const field = credentials.properties.find((p) => p.name === 'sessionToken');
		expect(field?.type).toBe('hidden');
		expect(field?.typeOptions?.expirable).toBe(true);
	});

	it('tests the credentials with one cheap request', () => {
		expect(credentials.test.request).toMatchObject({ url: '/notifications', qs: { per_page: '1' } });
		expect(credentials.test.rules).toEqual([
			expect.objectContaining({ properties: expect.objectContaining({ value: 401, message: expect.stringMatching(/refused these credentials/) }) }),
			expect.objectContaining({ properties: expect.objectContaining({ value: 429, message: expect.stringMatching(/Wait 30 seconds/) }) }),
		]);
	});
});
