import { credentialBaseUrl } from '../../../nodes/FacilitaPay/transport';

// The host a request goes to (send.ts builds `${credentialBaseUrl(credentials)}${path}`); the
// request itself, over n8n's engine: test/engine/operations/transport/request.test.mjs.

describe('transport: the API base URL of the credentials', () => {
	it.each([
		['production', 'https://api.facilitapay.com/api/v1'],
		['sandbox', 'https://sandbox-api.facilitapay.com/api/v1'],
	])('uses the %s host', (environment, url) => {
		expect(
			credentialBaseUrl({ environment, authentication: 'accessToken', accessToken: 't' }),
		).toBe(url);
	});

	it('a custom base URL loses its trailing slashes', () => {
		expect(
			credentialBaseUrl({ environment: 'custom', baseUrl: ' https://sandbox.test/api/v1// ' }),
		).toBe('https://sandbox.test/api/v1');
	});
});
