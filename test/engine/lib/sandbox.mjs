// The in-process sandbox (sandbox/server.mjs) for an engine test file: started once on a free port,
// reset before each test; `received(route)` lists the requests FacilitaPay "received" on a route
// ("METHOD /api/v1/path/:param"), bodies included. Stops the engine's expression isolates at the end.
import { createSandbox } from '../../../sandbox/server.mjs';
import { createEngine, stopEngine } from './engine.mjs';
import { resetNodeMemory } from './operations.mjs';

/** Credential data (facilitaPayApi) pointing at the sandbox, as a user saves it in n8n. */
export const sandboxCredentials = (url, overrides = {}) => ({
	environment: 'custom',
	baseUrl: `${url}/api/v1/`,
	authentication: 'accessToken',
	accessToken: 'sandbox-token',
	...overrides,
});

/**
 * jest hooks around one sandbox; inside tests read `.url`, call `.received()`, and `.engine()` for
 * an engine whose facilitaPayApi credential points at the sandbox (or is `credentials`).
 */
export function useEngineSandbox(options = {}) {
	const env = {
		sandbox: undefined,
		url: undefined,
		control: async (method, route, body) => {
			const response = await fetch(`${env.url}/_sandbox${route}`, {
				method,
				headers: body ? { 'content-type': 'application/json' } : {},
				body: body ? JSON.stringify(body) : undefined,
			});
			return await response.json();
		},
		engine: async (credentials = sandboxCredentials(env.url)) =>
			await createEngine({ credentials: { facilitaPayApi: credentials } }),
		received: async (route) => {
			const query = route ? `?route=${encodeURIComponent(route)}` : '';
			return (await env.control('GET', `/requests${query}`)).data;
		},
	};
	beforeAll(async () => {
		env.sandbox = await createSandbox({ port: 0, ...options });
		env.url = await env.sandbox.listen();
		// n8n-core and the package load here, not inside the first test's time limit.
		await createEngine();
	}, 120_000);
	afterAll(async () => {
		await env.sandbox?.close();
		await stopEngine();
	});
	beforeEach(async () => {
		await env.control('POST', '/reset', {});
		resetNodeMemory();
	});
	return env;
}
