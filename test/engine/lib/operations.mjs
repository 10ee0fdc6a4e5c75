// The operation tests' harness: one FacilitaPay node run by n8n's own engine (n8n-core's
// WorkflowExecute, see engine.mjs) against a scripted FacilitaPay answering by route (service.mjs).
// Parameters in (as the editor saves them), the requests that left and the items out: everything
// between is n8n's (parameter defaults and display rules, expressions, resource locators, binary
// data, Continue On Fail / On Error, Retry On Fail, custom data, the deduplication helpers, the
// credential's authentication), nothing is imitated here.
//
//   const op = useOperations();
//   const { items, requests, error } = await op.run({
//     parameters: { resource: 'transaction', operation: 'get', transactionId: ID },
//     replies: { 'GET /transactions/:id': { data: { id: ID } } },
//   });
//
// Per-item parameters (an array of parameter sets) become what a user writes for them: each
// parameter whose value differs between the sets is an expression picking the item's value by
// `$itemIndex` (a resource locator keeps its mode and gets the expression as its value).
import './env.mjs';
import { nodeRequire } from './nodeRequire.mjs';
import path from 'node:path';
import {
	createEngine,
	FACILITAPAY,
	ROOT,
	stopEngine,
	TRIGGER_NAME,
	workflowOf,
} from './engine.mjs';
import { InMemoryProcessedStore } from './processedStore.mjs';
import { startService } from './service.mjs';

export { reply, later, RESET } from './service.mjs';
export { InMemoryProcessedStore } from './processedStore.mjs';
export { FACILITAPAY, TRIGGER_NAME } from './engine.mjs';

const require = nodeRequire;
const NODE_NAME = 'FacilitaPay';

/**
 * The node's process memory (the loaded dist/ modules n8n-core's loader required, one module
 * cache with this file's require): cleared before each test, as a fresh n8n process would have it.
 */
export function resetNodeMemory() {
	require(path.join(ROOT, 'dist/nodes/FacilitaPay/money/index.js')).resetMoney();
	require(path.join(ROOT, 'dist/nodes/FacilitaPay/transport/index.js')).resetTransport();
}

/**
 * For every test of the calling file: the node's waits between retries (its own injection point,
 * `defaultRetryOptions.wait` and `signInRetry.wait`) end at once and their lengths (ms) are recorded
 * in the array returned, emptied before each test. n8n's own waits (Retry On Fail) are untouched.
 */
export function skipRetryWaits() {
	const waits = [];
	const transport = () => require(path.join(ROOT, 'dist/nodes/FacilitaPay/transport/index.js'));
	let saved;
	beforeEach(() => {
		waits.length = 0;
		const { defaultRetryOptions, signInRetry } = transport();
		saved = [defaultRetryOptions.wait, signInRetry.wait];
		const record = async (ms) => {
			waits.push(ms);
		};
		defaultRetryOptions.wait = record;
		signInRetry.wait = record;
	});
	afterEach(() => {
		const { defaultRetryOptions, signInRetry } = transport();
		[defaultRetryOptions.wait, signInRetry.wait] = saved;
	});
	return waits;
}

/** n8n's instance ID (derived from the encryption key): `run({ instanceId })` plays another n8n. */
function instanceSettings() {
	const corePath = require.resolve('n8n-core');
	const { Container } = require(require.resolve('@n8n/di', { paths: [corePath] }));
	const { InstanceSettings } = require('n8n-core');
	return Container.get(InstanceSettings);
}

const isLocator = (value) => value !== null && typeof value === 'object' && value.__rl === true;

/** One parameter object whose differing values pick the item's by `$itemIndex`. */
export function perItemParameters(sets) {
	if (!Array.isArray(sets)) return sets;
	if (sets.length === 1) return sets[0];
	const names = [...new Set(sets.flatMap((set) => Object.keys(set)))];
	const parameters = {};
	for (const name of names) {
		const values = sets.map((set) => set[name]);
		if (values.every((value) => JSON.stringify(value) === JSON.stringify(values[0]))) {
			parameters[name] = values[0];
		} else if (values.every(isLocator) && values.every((value) => value.mode === values[0].mode)) {
			const inner = JSON.stringify(values.map((value) => value.value ?? null));
			parameters[name] = { ...values[0], value: `={{ ${inner}[$itemIndex] }}` };
		} else {
			parameters[name] =
				`={{ ${JSON.stringify(values.map((value) => value ?? null))}[$itemIndex] }}`;
		}
	}
	return parameters;
}

/** Credential data (facilitaPayApi) for the scripted service, as a user saves it in n8n. */
export const credentialsFor = (url, overrides = {}) => ({
	environment: 'custom',
	baseUrl: `${url}/`,
	authentication: 'accessToken',
	accessToken: 'test-token',
	...overrides,
});

/**
 * jest hooks around one scripted service for a test file; returns { service, run, engine }.
 * `run(options)`:
 * - parameters: the node's parameters (object), or one set per item (array);
 * - items: the input items (json, binary as n8n stores it), pinned on the trigger; default one
 *   empty item per parameter set;
 * - replies: the service's script by route (service.mjs);
 * - settings of the node: continueOnFail, onError, retryOnFail, maxTries, waitBetweenTries;
 * - mode ('manual', 'retry', 'trigger', …), customData (the execution's at its start, as the Retry
 *   button copies it), staticData;
 * - engine: one from `op.engine()` to share its deduplication store and credential between runs
 *   (several executions of one workflow);
 * - credentials: overrides of the credential data; credentialId: the credential's ID (the node
 *   keeps memory per credential: another ID plays another n8n process);
 * - instanceId, workflowId: another n8n instance or workflow; nodeId: the node's ID;
 * - nodeType: 'facilitaPayTool' to run the node as an AI agent's tool;
 * - timezone: the workflow's time zone;
 * - before: steps (engine.mjs workflowOf) between the trigger and the node; workflow: (json) =>
 *   json, to reshape the workflow (with `extraNodeTypes` given to `op.engine()` for test nodes).
 * Returns { items, outputs, error, status, hints, requests, customData, staticData, run, engine }:
 * `items` is the node's main output, `error` the node's error (n8n's execution error when the node
 * did not run), `requests` what reached the service.
 */
export function useOperations() {
	const env = {
		service: undefined,
		async engine(options = {}) {
			return await createEngine({
				credentials: { facilitaPayApi: credentialsFor(env.service.url, options.credentials) },
				store: options.store ?? new InMemoryProcessedStore(),
				extraNodeTypes: options.extraNodeTypes,
			});
		},
		async run(options = {}) {
			if (options.replies) env.service.script(options.replies);
			const engine = options.engine ?? (await env.engine(options));
			const sets = Array.isArray(options.parameters) ? options.parameters : [options.parameters];
			const items = options.items ?? sets.map(() => ({ json: {} }));
			const step = {
				name: NODE_NAME,
				id: options.nodeId ?? 'node-1',
				type: options.nodeType ? `n8n-nodes-facilitapay.${options.nodeType}` : FACILITAPAY,
				parameters: perItemParameters(options.parameters ?? {}),
				credentials: {
					facilitaPayApi: { id: options.credentialId ?? 'credential-1', name: 'FacilitaPay' },
				},
				continueOnFail: options.continueOnFail,
				onError: options.onError,
				retryOnFail: options.retryOnFail,
				maxTries: options.maxTries,
				waitBetweenTries: options.waitBetweenTries,
			};
			let workflow = workflowOf([...(options.before ?? []), step], {
				id: options.workflowId ?? 'workflow-1',
				pinData: { [TRIGGER_NAME]: items },
				settings: options.timezone ? { timezone: options.timezone } : undefined,
			});
			// A test that needs another shape (a loop back into the node, more nodes after it) edits
			// the workflow JSON; the node keeps the name "FacilitaPay".
			if (options.workflow) workflow = options.workflow(workflow);
			const settings = instanceSettings();
			const ownInstance = settings.instanceId;
			if (options.instanceId) settings.instanceId = options.instanceId;
			let result;
			try {
				result = await engine.run(workflow, {
					mode: options.mode,
					customData: options.customData,
					staticData: options.staticData,
					resumeData: options.resumeData,
				});
			} finally {
				settings.instanceId = ownInstance;
			}
			const node = result.nodes[NODE_NAME];
			return {
				items: node?.items ?? [],
				outputs: node?.outputs ?? [],
				error: node?.error ?? result.error,
				status: result.status,
				hints: node?.hints ?? [],
				requests: [...env.service.requests],
				customData: result.customData,
				staticData: result.staticData,
				run: result,
				engine,
			};
		},
	};
	beforeAll(async () => {
		env.service = await startService();
		// n8n-core and the package load here, not inside the first test's time limit.
		await createEngine();
	}, 120_000);
	afterAll(async () => {
		await env.service?.close();
		await stopEngine();
	});
	beforeEach(() => {
		env.service?.script({});
		env.service?.resetClock();
		resetNodeMemory();
	});
	return env;
}
