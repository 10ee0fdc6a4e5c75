// Runs the COMPILED nodes (dist/) on n8n's own engine, in this process (test/engine/lib/engine.mjs:
// n8n-core's WorkflowExecute, its request helpers speaking real HTTP to the local sandbox, the
// credential's own preAuthentication and authenticate, n8n-core's deduplication helpers over an
// in-memory store): each run is a workflow "Manual Trigger → FacilitaPay" whose trigger hands the
// node the test's items (pinned data). Build first: `npm run build`.
import axios from 'axios';
import fs from 'node:fs';
import path from 'node:path';
import { nodeRequire } from '../../engine/lib/nodeRequire.mjs';
import { fileURLToPath } from 'node:url';
import { ACCOUNT_IDS } from '../../../sandbox/accounts.mjs';
import { personParameters } from '../../fixtures/subjects.js';

/**
 * The engine, loaded on first use: importing this file for its helpers (the sandbox's control,
 * the seeded accounts) must not load n8n-core, nor set the environment the engine sets for itself
 * (a silent log level would silence the n8n processes a bench or an e2e test starts).
 */
const engine = () => import('../../engine/lib/engine.mjs');

/** Clears the built node's process memory (money, sign-ins), as a fresh n8n process has it. */
function resetNodeMemory() {
	loadDist('nodes/FacilitaPay/money/index.js').resetMoney();
	loadDist('nodes/FacilitaPay/transport/index.js').resetTransport();
}

/** How long loading the engine may take before a file's first test (jest's hook limit). */
const ENGINE_LOAD_TIMEOUT = 120_000;

const require = nodeRequire;
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

/** The FacilitaPay node's name in the workflow each run executes. */
export const NODE_NAME = 'FacilitaPay';

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

const isPlainObject = (value) =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * One node's parameters for items that each need their own (a list of parameter sets, one per
 * item), as a user writes them in n8n: what all items share stays a value, what differs becomes an
 * expression reading the item (`={{ $json.parameters.… }}`), the items carrying their own values.
 */
function perItem(sets) {
	const at = (path) => `$json.parameters${path.map((key) => `[${JSON.stringify(key)}]`).join('')}`;
	const merge = (values, path) => {
		const first = values[0];
		if (values.every((value) => JSON.stringify(value) === JSON.stringify(first))) return first;
		if (values.every(isPlainObject)) {
			const keys = [...new Set(values.flatMap((value) => Object.keys(value)))];
			if (keys.every((key) => values.every((value) => key in value)))
				return Object.fromEntries(
					keys.map((key) => [
						key,
						merge(
							values.map((value) => value[key]),
							[...path, key],
						),
					]),
				);
		}
		return `={{ ${at(path)} }}`;
	};
	return {
		parameters: merge(sets, []),
		items: sets.map((parameters) => ({ json: { parameters } })),
	};
}

/**
 * Runs the action node once over the items, on n8n-core. `parameters`: the node's parameters, or a
 * list of them (one per item, see perItem). `credentials` is the decrypted credential
 * data; what n8n would store back into it (a session token from a sign-in) is written onto the
 * object, so the next run starts from it as n8n's next execution would. `mode` ("retry") and
 * `customData` (the failed execution's, which n8n copies into its retry; the run's own is written
 * back into the object) stand for what n8n's Retry button hands a new execution. Returns the
 * node's first output, or throws the error the node failed with (as n8n records it).
 */
export async function runAction({
	parameters,
	items,
	credentials,
	continueOnFail = false,
	timezone = 'UTC',
	mode = 'manual',
	customData,
}) {
	const { createEngine, TRIGGER_NAME, workflowOf } = await engine();
	const run = await createEngine({ credentials: { facilitaPayApi: credentials } });
	if (Array.isArray(parameters)) ({ parameters, items } = perItem(parameters));
	const workflow = workflowOf([{ name: NODE_NAME, parameters, continueOnFail }], {
		pinData: items ? { [TRIGGER_NAME]: items } : undefined,
		settings: { timezone },
	});
	const result = await run.run(workflow, { mode, customData });
	Object.assign(credentials, run.storedCredentials());
	if (customData) Object.assign(customData, result.customData ?? {});
	const node = result.nodes[NODE_NAME];
	if (!node) throw result.error ?? new Error('The FacilitaPay node did not run');
	if (node.error) throw node.error;
	return { output: node.items };
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
		// n8n-core and the package load here (about 1,200 modules: seconds on a cold, busy
		// machine), not inside the first test's time limit.
		await (await engine()).createEngine();
	}, ENGINE_LOAD_TIMEOUT);
	afterAll(async () => {
		await context.sandbox?.close();
		await (await engine()).stopEngine();
	});
	beforeEach(async () => {
		await context.control.post('/reset');
		context.credentials = sandboxCredentials(context.url);
		// The node's process memory is shared by this worker's test files (nodeRequire.mjs).
		if (fs.existsSync(DIST)) resetNodeMemory();
	});
	return context;
}
