// Runs workflow JSON through n8n's own engine, in this process: n8n-core's WorkflowExecute (the
// class a real n8n runs every execution with), the package loaded by n8n-core's own loader from
// package.json's "n8n" section (dist/, build first), n8n-core's request helpers (its
// httpRequestWithAuthentication applies the credential's preAuthentication and authenticate, then
// sends real HTTP) and n8n-core's deduplication helpers over an in-memory store. Only what a server
// keeps in its database is ours: the credentials (given by the test, see credentialsHelper.mjs),
// the processed-data store (processedStore.mjs) and a Manual Trigger node type (n8n-nodes-base is
// not installed). See docs/testing-engine.md.
import './env.mjs';
import { randomInt } from 'node:crypto';
import { nodeRequire } from './nodeRequire.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestCredentialsHelper } from './credentialsHelper.mjs';
import { InMemoryProcessedStore } from './processedStore.mjs';

const require = nodeRequire;
const { Workflow, NodeHelpers, Expression } = require('n8n-workflow');
const {
	WorkflowExecute,
	ExecutionLifecycleHooks,
	PackageDirectoryLoader,
	DataDeduplicationService,
	WorkflowHasIssuesError,
} = require('n8n-core');

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The node type of the action node and its credential, as a real install names them. */
export const FACILITAPAY = 'n8n-nodes-facilitapay.facilitaPay';
export const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
export const TRIGGER_NAME = 'When clicking ‘Execute workflow’';

/** n8n's Manual Trigger: one empty item when the user clicks "Execute workflow". */
class ManualTrigger {
	description = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n',
		eventTriggerDescription: '',
		maxNodes: 1,
		defaults: { name: 'Manual Trigger' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	};

	async trigger() {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}

/** The processed-data store n8n-core's DataDeduplicationService (a process singleton) calls now. */
let currentStore = new InMemoryProcessedStore();
const storeProxy = Object.fromEntries(
	[
		'checkProcessedAndRecord',
		'removeProcessed',
		'clearAllProcessedItems',
		'getProcessedDataCount',
	].map((method) => [method, async (...args) => await currentStore[method](...args)]),
);

/**
 * Execution IDs never repeat in the process, as a server's do (the node keys its memory by them):
 * a counter from a random start, since n8n-core and the node may outlive this module (test files).
 */
let executions = randomInt(1, 1_000_000) * 1_000_000;

/**
 * The expression engine a server of n8n 2.41 starts with: N8N_EXPRESSION_ENGINE, by default "vm"
 * (isolated-vm, which needs Node 24: its prebuilt binary is for Node 24's ABI) with the server's
 * defaults; "legacy" (in-process) on Node 20. See docs/testing-engine.md.
 */
export const EXPRESSION_ENGINE =
	process.env.N8N_EXPRESSION_ENGINE ??
	(Number(process.versions.node.split('.')[0]) >= 24 ? 'vm' : 'legacy');

async function startExpressionEngine() {
	if (EXPRESSION_ENGINE === 'legacy') {
		Expression.setExpressionEngine('legacy');
		return;
	}
	await Expression.initExpressionEngine({
		engine: EXPRESSION_ENGINE,
		poolSize: 1,
		maxCodeCacheSize: 1024,
		bridgeTimeout: 5000,
		bridgeMemoryLimit: 128,
		lazyAcquire: false,
	});
}

/** Stops the expression engine's isolates (call in afterAll: they keep the process alive). */
export async function stopEngine() {
	if (loaded && EXPRESSION_ENGINE !== 'legacy') await Expression.disposeExpressionEngine();
	loaded = undefined;
}

/**
 * WorkflowExecute.run as this n8n-core takes it: an options object (2.x), or positional arguments
 * (1.x: `run(workflow, startNode, destinationNode, pinData)`), when the engine tests run on n8n 1.x
 * (FACILITAPAY_ENGINE_N8N=v1, test/engine/lib/environment.cjs).
 */
function startRun(execute, workflow, startNode, pinData) {
	if (execute.run.length >= 2) return execute.run(workflow, startNode, undefined, pinData);
	return execute.run({ workflow, startNode, pinData });
}

let loaded;
/** Loads the package (dist/) once per process with n8n-core's PackageDirectoryLoader. */
async function loadPackage() {
	if (!loaded) {
		const loader = new PackageDirectoryLoader(ROOT);
		await loader.loadAll();
		const nodeTypes = { [MANUAL_TRIGGER]: { type: new ManualTrigger() } };
		for (const [name, entry] of Object.entries(loader.nodeTypes)) {
			nodeTypes[`${loader.packageName}.${name}`] = entry;
			// n8n's server offers every node with usableAsTool as an AI agent's tool too, under its
			// name + "Tool", running the same execute (packages/cli load-nodes-and-credentials).
			if (entry.type.description?.usableAsTool) {
				nodeTypes[`${loader.packageName}.${name}Tool`] = entry;
			}
		}
		loaded = { nodeTypes, credentialTypes: loader.credentialTypes };
		await startExpressionEngine();
		if (DataDeduplicationService.instance) {
			// n8n-core is shared by this process's earlier test files (a module cache outside jest's):
			// its singleton must call this file's stores.
			DataDeduplicationService.instance.deduplicator = storeProxy;
		} else await DataDeduplicationService.init(storeProxy);
	}
	return loaded;
}

/** n8n's INodeTypes over the loaded types. */
function nodeTypesOf(types) {
	const entry = (type) => {
		const found = types[type];
		if (!found) throw new Error(`Unknown node type "${type}"`);
		return found.type;
	};
	return {
		getByName: (type) => entry(type),
		getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(entry(type), version),
		getKnownTypes: () =>
			Object.fromEntries(
				Object.keys(types).map((name) => [name, { className: name, sourcePath: '' }]),
			),
	};
}

/** A node's settings (the editor's Settings tab) a step may carry, as n8n stores them. */
const NODE_SETTINGS = [
	'continueOnFail',
	'onError',
	'retryOnFail',
	'maxTries',
	'waitBetweenTries',
	'alwaysOutputData',
	'executeOnce',
];

/**
 * A workflow as n8n stores it: the Manual Trigger, then `steps` one after the other (main output 0
 * to the next node's input). A step: { name, parameters, type?, typeVersion?, continueOnFail?,
 * onError?, credentials? }. The FacilitaPay steps use the credential "FacilitaPay account".
 */
export function workflowOf(steps, { id = 'engine-workflow', pinData, settings } = {}) {
	const nodes = [
		{
			id: 'trigger',
			name: TRIGGER_NAME,
			type: MANUAL_TRIGGER,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		...steps.map((step, index) => ({
			id: step.id ?? `node-${index + 1}`,
			name: step.name,
			type: step.type ?? FACILITAPAY,
			typeVersion: step.typeVersion ?? 1,
			position: [220 * (index + 1), 0],
			parameters: step.parameters,
			credentials: step.credentials ?? {
				facilitaPayApi: { id: 'credential-1', name: 'FacilitaPay account' },
			},
			...Object.fromEntries(
				NODE_SETTINGS.filter((name) => step[name] !== undefined).map((name) => [name, step[name]]),
			),
		})),
	];
	const connections = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return {
		id,
		name: 'Engine test',
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1', ...settings },
		...(pinData && { pinData }),
	};
}

/** What one node did in a run, as n8n records it: items per output, the error, hints, status. */
function nodeResult(tasks) {
	const last = tasks.at(-1);
	const outputs = last?.data?.main ?? [];
	return {
		outputs,
		items: outputs[0] ?? [],
		error: last?.error,
		hints: last?.hints ?? [],
		status: last?.executionStatus,
		runs: tasks.length,
	};
}

/**
 * An engine with the credentials a test gives ({ facilitaPayApi: { ...decrypted data } }) and its
 * own processed-data store. `run(workflow)` executes the workflow JSON in manual mode and returns
 * { nodes: { [name]: { items, outputs, error, status } }, error, status, run } where `run` is
 * n8n's IRun. Credential changes n8n persists (the session token) stay for the next run.
 */
export async function createEngine({
	credentials = {},
	store = new InMemoryProcessedStore(),
	extraNodeTypes = {},
} = {}) {
	const { nodeTypes: types, credentialTypes } = await loadPackage();
	const nodeTypes = nodeTypesOf({
		...types,
		...Object.fromEntries(Object.entries(extraNodeTypes).map(([name, type]) => [name, { type }])),
	});
	const credentialsHelper = new TestCredentialsHelper(
		credentialTypes,
		structuredClone(credentials),
	);
	/**
	 * `customData`: the execution's custom data at its start, as n8n's Retry button copies the failed
	 * execution's into the retry; the result's `customData` is what the run left there.
	 */
	/**
	 * `resumeData`: the run data of a waiting execution as n8n stored it; the run is then n8n's own
	 * time resume of it (the WaitTracker at the limit: processRunExecutionData on that data).
	 */
	async function run(workflowJson, { mode = 'manual', staticData, customData, resumeData } = {}) {
		currentStore = store;
		const executionId = String(++executions);
		const workflow = new Workflow({
			id: workflowJson.id,
			name: workflowJson.name,
			nodes: structuredClone(workflowJson.nodes),
			connections: workflowJson.connections,
			active: false,
			nodeTypes,
			staticData,
			settings: workflowJson.settings,
		});
		const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowJson);
		const additionalData = {
			hooks,
			credentialsHelper,
			executionId,
			currentNodeParameters: undefined,
			restApiUrl: 'http://127.0.0.1:5678/rest',
			instanceBaseUrl: 'http://127.0.0.1:5678/',
			formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
			webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
			webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
			variables: {},
			userId: 'engine-user',
			executeWorkflow: async () => {
				throw new Error('Sub-workflows are not available in the test engine');
			},
			getRunExecutionData: async () => undefined,
			logAiEvent: () => undefined,
			setExecutionStatus: () => undefined,
			sendDataToUI: () => undefined,
		};
		const startNode = workflow.getNode(TRIGGER_NAME) ?? undefined;
		const execute = new WorkflowExecute(additionalData, mode, resumeData);
		let result;
		try {
			const running = resumeData
				? execute.processRunExecutionData(workflow)
				: startRun(execute, workflow, startNode, workflowJson.pinData);
			// run() builds the execution's data before its first await: seeded before any node runs.
			if (customData) execute.runExecutionData.resultData.metadata = { ...customData };
			result = await running;
		} catch (error) {
			// n8n refuses to start a workflow whose nodes have issues (a required parameter empty, a
			// locator ID its regex refuses): no node runs, the editor shows the message.
			if (!(error instanceof WorkflowHasIssuesError)) throw error;
			return { nodes: {}, error, status: 'error', run: undefined, staticData: workflow.staticData };
		}
		const { runData, error } = result.data.resultData;
		const nodes = Object.fromEntries(
			Object.entries(runData).map(([name, tasks]) => [name, nodeResult(tasks)]),
		);
		return {
			nodes,
			error,
			status: result.status,
			run: result,
			staticData: workflow.staticData,
			customData: result.data.resultData.metadata ?? {},
		};
	}

	return {
		run,
		store,
		credentialsHelper,
		/** The credential data as n8n would have it stored now (after sign-ins). */
		storedCredentials: (type = 'facilitaPayApi') => credentialsHelper.stored[type],
	};
}

/** The expression engine evaluating now: "vm" or "legacy". */
export const expressionEngine = () => Expression.getActiveImplementation();
