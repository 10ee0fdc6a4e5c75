import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INodeTypes,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { FacilitaPayApi } from '../../../credentials/FacilitaPayApi.credentials';
import { resetTransport, requestTargets, tokenMayGoTo } from '../../../nodes/FacilitaPay/transport';
import { scriptedService } from './scriptedService';
import { workflowNode } from '../helpers/workflowNode';

/**
 * The Base URL n8n computes for the credential test: the `baseURL` expression of `test.request`
 * evaluated by n8n's own expression engine with `$credentials`, as n8n's credential tester does.
 */
function testBaseUrl(data: IDataObject): string {
	const node = workflowNode('temp', 'Temp-Node', 'n8n-nodes-base.noOp');
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

describe('FacilitaPay API credentials: where the token may go', () => {
	const credentials = new FacilitaPayApi();
	beforeEach(() => resetTransport());

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
});
