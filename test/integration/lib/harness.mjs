// Runs the COMPILED nodes (dist/) against a real HTTP server (the local sandbox), with an n8n-like
// execution context whose httpRequestWithAuthentication really speaks HTTP (axios), applies the
// credentials (bearer token, or sign-in through the credential's own preAuthentication, renewed once
// on 401 like n8n-core does) and throws NodeApiError the way n8n-core does. Build first: `npm run build`.
import axios from 'axios';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ACCOUNT_IDS } from '../../../sandbox/accounts.mjs';
import { personParameters } from '../../fixtures/subjects.js';

const require = createRequire(import.meta.url);
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DIST = path.join(ROOT, 'dist');

/** A module of the compiled package (dist/), or a readable error when it is not built. */
export function loadDist(relative) {
	const file = path.join(DIST, relative);
	if (!fs.existsSync(file)) {
		throw new Error(`${relative} is not built. Run "npm run build" before the integration tests.`);
	}
	return require(file);
}

const { NodeApiError } = require('n8n-workflow');
const { createExecuteContext } = require('../../helpers/fakeExecuteContext.js');

export const node = {
	id: 'integration-node',
	name: 'FacilitaPay',
	type: 'n8n-nodes-facilitapay.facilitaPay',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Credentials pointing at a sandbox. */
export function sandboxCredentials(sandboxUrl, overrides = {}) {
	return {
		environment: 'custom',
		baseUrl: `${sandboxUrl}/api/v1/`,
		authentication: 'accessToken',
		accessToken: 'sandbox-token',
		...overrides,
	};
}

/** Plain axios call shaped like n8n's helpers.httpRequest (IHttpRequestOptions in, body or full response out). */
async function httpRequest(options) {
	const response = await axios.request({
		method: options.method ?? 'GET',
		url: options.url,
		params: options.qs,
		data: options.body,
		headers: {
			...(options.body && options.json !== false ? { 'Content-Type': 'application/json' } : {}),
			...options.headers,
		},
		responseType: options.encoding === 'arraybuffer' ? 'arraybuffer' : 'json',
		// n8n's ignoreHttpStatusErrors: an error answer comes back as a response, not thrown.
		validateStatus: options.ignoreHttpStatusErrors
			? () => true
			: (status) => status >= 200 && status < 300,
		maxBodyLength: Infinity,
		maxContentLength: Infinity,
		timeout: options.timeout ?? 20_000,
	});
	let body = response.data;
	if (options.encoding === 'arraybuffer') body = Buffer.from(body);
	if (options.returnFullResponse)
		return { body, headers: response.headers, statusCode: response.status };
	return body;
}

/**
 * Creates the execution context. `credentials` is the decrypted credential data; a session token
 * obtained by sign-in is kept on it (as n8n keeps the expirable field) and renewed once on 401.
 * @returns {{ ctx: any, stats: { signIns: number, requests: number } }}
 */
export function createContext({
	parameters,
	items,
	credentials,
	continueOnFail = false,
	executionId = `integration-${Math.random()}`,
	timezone = 'UTC',
	mode,
	runIndex,
	customData,
	processedStore,
}) {
	const { FacilitaPayApi } = loadDist('credentials/FacilitaPayApi.credentials.js');
	const credentialType = new FacilitaPayApi();
	const stats = { signIns: 0, requests: 0 };
	const helpers = {
		httpRequest: async (options) => {
			if (String(options.url).endsWith('/sign_in')) stats.signIns++;
			return await httpRequest(options);
		},
	};

	// What n8n-core's httpRequestWithAuthentication does: preAuthentication while the session token
	// is empty or after a 401 (the answer written into the credentials object it was handed), then
	// the credential's own authenticate().
	async function preAuthenticate(data, expired) {
		if (data.sessionToken && !expired) return;
		Object.assign(data, await credentialType.preAuthentication.call({ helpers }, data));
	}
	async function authorize(data, options) {
		return await credentialType.authenticate(data, { ...options, headers: { ...options.headers } });
	}

	const httpRequestWithAuthentication = async function (_type, options, additional) {
		stats.requests++;
		const data = additional?.credentialsDecrypted?.data ?? credentials;
		try {
			await preAuthenticate(data, false);
			return await httpRequest(await authorize(data, options));
		} catch (error) {
			if (error?.response?.status === 401) {
				try {
					await preAuthenticate(data, true);
					return await httpRequest(await authorize(data, options));
				} catch (retryError) {
					throw new NodeApiError(node, retryError);
				}
			}
			throw new NodeApiError(node, error);
		}
	};

	const ctx = createExecuteContext({
		node,
		parameters,
		items,
		credentials,
		continueOnFail,
		executionId,
		timezone,
		mode,
		runIndex,
		customData,
		processedStore,
		httpRequestWithAuthentication,
	});
	return { ctx, stats };
}

/** Runs the action node once over the items; returns the first output and the stats. */
export async function runAction(options) {
	const { FacilitaPay } = loadDist('nodes/FacilitaPay/FacilitaPay.node.js');
	const { ctx, stats } = createContext(options);
	const [output] = await new FacilitaPay().execute.call(ctx);
	return { output, stats };
}

/** Runs the action node expecting a failure; returns the error. */
export async function runActionExpectingError(options) {
	try {
		await runAction(options);
	} catch (error) {
		return error;
	}
	throw new Error('The node did not fail');
}

/** JSON helper for the sandbox's control endpoints. */
export function control(sandboxUrl) {
	const client = axios.create({ baseURL: `${sandboxUrl}/_sandbox`, validateStatus: () => true });
	const post = async (url, body = {}) => (await client.post(url, body)).data;
	return {
		get: async (url) => (await client.get(url)).data,
		post,
		del: async (url) => (await client.delete(url)).data,
		/** A fault on one route ("METHOD /api/v1/path/:param") that fires on its next request only. */
		faultOnce: async (route, kind, extra = {}) =>
			await post('/faults', { route, rate: 1, kind, count: 1, ...extra }),
		/** Pays a pending transaction or checkout (`success: false`: the payer declines). */
		pay: async (transactionId, body = { success: true }) =>
			await post(`/transactions/${transactionId}/pay`, body),
		/** Requests the sandbox received on one route ("METHOD /api/v1/path/:param"). */
		received: async (route) => {
			const { data } = (await client.get('/requests', { params: route ? { route } : {} })).data;
			return data;
		},
	};
}

/** The sandbox's seeded accounts, by the names the sandbox gives them (one source for every test). */
export const ACCOUNTS = ACCOUNT_IDS;

/**
 * Starts one in-process sandbox for the test file (jest hooks), resets it and fresh access-token
 * credentials before each test. Read `.url`, `.control` and `.credentials` inside tests; `.run`
 * and `.runExpectingError` run the node with those credentials.
 */
export function useSandbox(createSandbox, options = { port: 0 }) {
	const context = {
		sandbox: undefined,
		url: undefined,
		control: undefined,
		credentials: undefined,
		/** Runs the action node with the test's credentials; `extra`: items, continueOnFail… */
		run: async (parameters, extra = {}) =>
			await runAction({ credentials: context.credentials, parameters, ...extra }),
		/** The same, expecting the node to fail; returns the error. */
		runExpectingError: async (parameters, extra = {}) =>
			await runActionExpectingError({ credentials: context.credentials, parameters, ...extra }),
		/** Registers Maria da Silva (test/fixtures personParameters) through the node; her record. */
		createSubject: async (additionalFields = {}, overrides = {}) =>
			(await context.run(personParameters(additionalFields, overrides))).output[0].json,
	};
	beforeAll(async () => {
		context.sandbox = await createSandbox(options);
		await context.sandbox.listen();
		context.url = context.sandbox.url;
		context.control = control(context.url);
	});
	afterAll(async () => {
		await context.sandbox?.close();
	});
	beforeEach(async () => {
		await context.control.post('/reset');
		context.credentials = sandboxCredentials(context.url);
	});
	return context;
}
