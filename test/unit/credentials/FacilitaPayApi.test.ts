import type { IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

import { credentialBaseUrl, FacilitaPayApi } from '../../../credentials/FacilitaPayApi.credentials';

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

	it('signs in once with username and password and keeps the JWT as the session token', async () => {
		const { helper, calls } = helperReturning({ jwt: 'eyJ.jwt', name: 'Partner', username: 'sandbox' });
		const result = await credentials.preAuthentication.call(helper, {
			environment: 'custom',
			baseUrl: 'http://127.0.0.1:4010/api/v1/',
			authentication: 'usernamePassword',
			username: 'sandbox',
			password: 'secret',
		});
		expect(result).toEqual({ sessionToken: 'eyJ.jwt' });
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({
			method: 'POST',
			url: 'http://127.0.0.1:4010/api/v1/sign_in',
			body: { user: { username: 'sandbox', password: 'secret' } },
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

	it('sends the bearer token from the right field for each authentication', () => {
		const header = (credentials.authenticate.properties.headers as Record<string, string>).Authorization;
		expect(header).toContain('Bearer');
		expect(header).toContain('$credentials.sessionToken');
		expect(header).toContain('$credentials.accessToken');
	});

	it('tests the credentials with one cheap request', () => {
		expect(credentials.test.request).toMatchObject({ url: '/notifications', qs: { per_page: '1' } });
	});
});
