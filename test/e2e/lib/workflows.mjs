// Workflows for the e2e tests: Manual Trigger → one node (workflowWithNode), a single trigger
// (workflowWithTrigger), and Manual Trigger → steps one after another (chainWorkflow with
// actionStep, httpStep, codeStep; test/e2e/operations*.test.mjs, bad-input.test.mjs).
import { CREDENTIAL_TYPE, NODE_TYPES } from '../../../scripts/n8n-runtime.mjs';
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
