// The facilitaPayApi credential on n8n's own engine: n8n-core's request helper runs its
// preAuthentication (sign-in) and authenticate, and renews the session after a 401.
import { workflowOf } from './lib/engine.mjs';
import { sandboxCredentials, useEngineSandbox } from './lib/sandbox.mjs';
import { createCustomer, PEOPLE } from './lib/steps.mjs';

const env = useEngineSandbox();

describe('FacilitaPay on n8n-core: the credential', () => {
	const signInCredentials = () =>
		sandboxCredentials(env.url, {
			authentication: 'usernamePassword',
			username: 'sandbox',
			password: 'sandbox',
			accessToken: '',
		});

	test('Username and Password: n8n-core signs in once, keeps the session token, and sends with it', async () => {
		const engine = await env.engine(signInCredentials());
		const first = await engine.run(workflowOf([createCustomer()]));
		const second = await engine.run(workflowOf([createCustomer()]));

		expect(first.error).toBeUndefined();
		expect(second.nodes['Create customer'].items[0].json.id).toBe(
			first.nodes['Create customer'].items[0].json.id,
		);
		expect(await env.received('POST /api/v1/sign_in')).toHaveLength(1);
		expect(engine.storedCredentials().sessionToken).toEqual(expect.any(String));
		expect(await env.received(PEOPLE)).toHaveLength(2);
	});

	test('a session token expired between two executions: n8n-core signs in again after the 401 and sends the request again', async () => {
		const engine = await env.engine(signInCredentials());
		await engine.run(workflowOf([createCustomer()]));
		const firstToken = engine.storedCredentials().sessionToken;
		await env.control('POST', '/clock/advance', { hours: 25 });
		await env.control('DELETE', '/requests');

		const run = await engine.run(workflowOf([createCustomer()]));

		expect(run.error).toBeUndefined();
		expect(run.nodes['Create customer'].items[0].json.document_number).toBe('39053344705');
		expect(await env.received('POST /api/v1/sign_in')).toHaveLength(1);
		const creates = await env.received(PEOPLE);
		expect(creates.map((request) => request.status)).toEqual([401, 200]);
		expect(engine.storedCredentials().sessionToken).not.toBe(firstToken);
	});
});
