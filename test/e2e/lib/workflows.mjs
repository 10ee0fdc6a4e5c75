// Workflows for the real-n8n tests: Manual Trigger → one node (workflowWithNode), a single trigger
// (workflowWithTrigger), Manual Trigger → steps one after another (chainWorkflow with actionStep,
// httpStep, codeStep; test/e2e/operations*.test.mjs, bad-input.test.mjs), and Webhook → items →
// FacilitaPay (webhookWorkflow with webhookNode, itemsFromBody, actionNode, triggerNode,
// payoutFromItem), shared with test/queue and bench/.
import { CREDENTIAL_TYPE, NODE_TYPES } from '../../../scripts/n8n-runtime.mjs';
import { ACCOUNT_IDS } from '../../../sandbox/accounts.mjs';
import { sharedCredentialsOrNull, uniqueId } from './state.mjs';

/** The Manual Trigger's name in the workflows built here. */
export const MANUAL_TRIGGER = 'When clicking Execute';

/** n8n's Manual Trigger, the start of the workflows run with `n8n execute` (a new object each time). */
export function manualTriggerNode() {
	return {
		id: 'manual-trigger',
		name: MANUAL_TRIGGER,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

/**
 * A workflow: Manual Trigger → one node (named "FacilitaPay" unless told), using the shared
 * sandbox credentials.
 * @param {{
 *   type?: string, parameters?: object, typeVersion?: number, name?: string, nodeName?: string,
 *   credentials?: {id: string, name: string} | null, id?: string, extraNodes?: object[]
 * }} options
 */
export function workflowWithNode({
	type = NODE_TYPES.action,
	parameters = {},
	typeVersion = 1,
	name,
	nodeName = 'FacilitaPay',
	credentials = sharedCredentialsOrNull(),
	id = uniqueId('e2e'),
} = {}) {
	return {
		id,
		name: name ?? `e2e ${type.split('.').pop()} ${JSON.stringify(parameters).slice(0, 60)}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			manualTriggerNode(),
			{
				id: 'node-under-test',
				name: nodeName,
				type,
				typeVersion,
				position: [220, 0],
				parameters,
				...(credentials ? { credentials: { [CREDENTIAL_TYPE]: credentials } } : {}),
			},
		],
		connections: {
			[MANUAL_TRIGGER]: { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
		},
		pinData: {},
	};
}

/**
 * A workflow holding a single trigger node (e.g. the FacilitaPay Trigger), to activate.
 * @param {{type?: string, parameters?: object, typeVersion?: number, id?: string, nodeName?: string, webhookId?: string}} options
 */
export function workflowWithTrigger({
	type = NODE_TYPES.trigger,
	parameters = {},
	typeVersion = 1,
	id = uniqueId('e2e-trigger'),
	nodeName = 'FacilitaPay Trigger',
	webhookId = `wh-${id}`,
} = {}) {
	const credentials = sharedCredentialsOrNull();
	return {
		id,
		name: `e2e trigger ${id}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'trigger-under-test',
				name: nodeName,
				type,
				typeVersion,
				position: [0, 0],
				parameters,
				webhookId,
				...(credentials ? { credentials: { [CREDENTIAL_TYPE]: credentials } } : {}),
			},
		],
		connections: {},
		pinData: {},
	};
}

/**
 * A FacilitaPay action node for chainWorkflow().
 * @param {string} name
 * @param {object} parameters
 * @param {{executeOnce?: boolean, onError?: string, credentials?: {id: string, name: string}}} [settings]
 */
export function actionStep(name, parameters, settings = {}) {
	return { name, type: NODE_TYPES.action, typeVersion: 1, parameters, ...settings };
}

/**
 * An HTTP Request node (n8n-nodes-base.httpRequest 4.2) sending JSON, e.g. to the sandbox's control
 * endpoints between two FacilitaPay nodes. `url` may be an n8n expression ("=…{{ … }}").
 * @param {string} name
 * @param {{method?: string, url: string, body?: object}} request
 * @param {{executeOnce?: boolean}} [settings]
 */
export function httpStep(name, { method = 'POST', url, body }, settings = {}) {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method,
			url,
			...(body === undefined
				? {}
				: { sendBody: true, specifyBody: 'json', jsonBody: JSON.stringify(body) }),
			options: {},
		},
		...settings,
	};
}

/** A Code node (JavaScript, once for all items). @param {string} name @param {string} jsCode */
export function codeStep(name, jsCode) {
	return { name, type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode } };
}

/**
 * Manual Trigger → steps, one after another (each step's output is the next one's input). Steps
 * are nodes without position/id ({name, type, typeVersion, parameters, executeOnce?, onError?,
 * credentials?}); FacilitaPay nodes get `credentials` unless they name their own.
 * @param {{steps: any[], id?: string, name?: string, credentials?: {id: string, name: string} | null}} options
 */
export function chainWorkflow({
	steps,
	id = uniqueId('e2e-chain'),
	name,
	credentials = sharedCredentialsOrNull(),
}) {
	const trigger = manualTriggerNode();
	const nodes = [trigger];
	/** @type {Record<string, any>} */
	const connections = {};
	let previous = trigger.name;
	steps.forEach((step, index) => {
		const { credentials: own, ...node } = step;
		const usesCredentials = node.type === NODE_TYPES.action || node.type === NODE_TYPES.trigger;
		const creds = own ?? credentials;
		nodes.push({
			id: `step-${index + 1}`,
			position: [220 * (index + 1), 0],
			...node,
			...(usesCredentials && creds ? { credentials: { [CREDENTIAL_TYPE]: creds } } : {}),
		});
		connections[previous] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
		previous = node.name;
	});
	return {
		id,
		name: name ?? `e2e chain ${id}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections,
		pinData: {},
	};
}

/**
 * n8n's Webhook node: POST /webhook/<path>, answered at once ("onReceived").
 * @param {string} path @param {{position?: number[]}} [options]
 */
export function webhookNode(path, { position = [0, 0] } = {}) {
	return {
		id: 'webhook',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position,
		webhookId: path,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
}

/**
 * A Code node that makes one item of each element of the request body's `field`.
 * @param {string} name @param {string} field
 */
export function itemsFromBody(name, field) {
	return {
		id: 'items',
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [220, 0],
		parameters: {
			jsCode: `return $input.first().json.body.${field}.map((item) => ({ json: item }));`,
		},
	};
}

/**
 * A FacilitaPay (action) node.
 * @param {{parameters: object, credentials: {id: string, name: string}, name?: string}} options
 */
export function actionNode({ parameters, credentials, name = 'FacilitaPay' }) {
	return {
		id: 'facilitapay',
		name,
		type: NODE_TYPES.action,
		typeVersion: 1,
		position: [440, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: credentials },
	};
}

/**
 * A FacilitaPay Trigger node listening for `events` (with `options`, e.g. verifyWithApi).
 * @param {{
 *   webhookId: string, credentials: {id: string, name: string}, events?: string[], options?: object,
 *   name?: string, position?: number[], typeVersion?: number
 * }} options
 */
export function triggerNode({
	webhookId,
	credentials,
	events = ['*'],
	options,
	name = 'FacilitaPay Trigger',
	position = [0, 0],
	typeVersion = 1,
}) {
	return {
		id: 'trigger',
		name,
		type: NODE_TYPES.trigger,
		typeVersion,
		position,
		parameters: { events, ...(options ? { options } : {}) },
		webhookId,
		credentials: { [CREDENTIAL_TYPE]: credentials },
	};
}

/** Workflow settings that keep every execution with its data (n8n's Retry button needs it). */
export const KEEP_EXECUTION_DATA = {
	executionOrder: 'v1',
	saveDataErrorExecution: 'all',
	saveDataSuccessExecution: 'all',
};

/**
 * Transaction → Create Payout of each item's `subjectId` and `value` (USD to BRL, from the cash-out
 * account to the customer's), one request at a time; with `idempotencyKey` the item's `orderId` is
 * the node's Idempotency Key.
 * @param {{idempotencyKey?: boolean}} [options]
 */
export function payoutFromItem({ idempotencyKey = false } = {}) {
	return {
		resource: 'transaction',
		operation: 'createPayout',
		subjectId: '={{ $json.subjectId }}',
		value: '={{ $json.value }}',
		currency: 'USD',
		exchangeCurrency: 'BRL',
		fromBankAccountId: ACCOUNT_IDS.usdCashOut,
		toBankAccountId: ACCOUNT_IDS.brlCustomer,
		// The node's "Idempotency Key" is a parameter of its own (shown for money-moving
		// operations), not an option under Request Options.
		...(idempotencyKey ? { idempotencyKey: '={{ $json.orderId }}' } : {}),
		requestOptions: { concurrency: 1 },
	};
}

/**
 * Webhook (POST /webhook/<path>) → `items` → `action`, plus `extraNodes` (not connected): a
 * workflow whose executions start the way production starts them.
 * @param {{name: string, path: string, items: {name: string}, action: {name: string}, extraNodes?: object[], settings?: object}} workflow
 */
export function webhookWorkflow({ name, path, items, action, extraNodes = [], settings }) {
	return {
		name,
		settings: settings ?? { executionOrder: 'v1' },
		nodes: [webhookNode(path), items, action, ...extraNodes],
		connections: {
			Webhook: { main: [[{ node: items.name, type: 'main', index: 0 }]] },
			[items.name]: { main: [[{ node: action.name, type: 'main', index: 0 }]] },
		},
	};
}

/**
 * Webhook → Code (one item per element of the body's `payouts`: {subjectId, value, orderId}) →
 * FacilitaPay Create Payout (named "FacilitaPay"), keeping every execution's data so n8n's Retry
 * button can retry them; optionally a FacilitaPay Trigger (not connected, listening for an event the
 * payouts never cause) whose registration lives in the workflow's static data.
 * @param {{name: string, path: string, credentials: {id: string, name: string}, idempotencyKey?: boolean, withTrigger?: boolean}} options
 */
export function payoutsWorkflow({
	name,
	path,
	credentials,
	idempotencyKey = false,
	withTrigger = false,
}) {
	return webhookWorkflow({
		name,
		path,
		settings: KEEP_EXECUTION_DATA,
		items: itemsFromBody('Payouts', 'payouts'),
		action: actionNode({ credentials, parameters: payoutFromItem({ idempotencyKey }) }),
		extraNodes: withTrigger
			? [
					triggerNode({
						webhookId: `wh-${path}`,
						credentials,
						events: ['subject_reproved'],
						position: [0, 300],
					}),
				]
			: [],
	});
}
