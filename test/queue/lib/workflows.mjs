// The cases' workflows: FacilitaPay credentials for a case's sandbox, the trigger and action nodes,
// Webhook → items → FacilitaPay published on the main, and posting to the webhook processor.
import { NODE_TYPES } from '../../../scripts/n8n-runtime.mjs';
import { createActiveWorkflow, createCredentials, queueState, waitFor } from './cluster.mjs';

/**
 * FacilitaPay credentials for a case's own sandbox (through its recording proxy): the access token,
 * or with `signIn` Username and Password (the sandbox's sandbox/sandbox).
 * @param {{apiBase: string}} sandbox @param {string} name @param {{signIn?: boolean}} [options]
 */
export function caseCredentials(sandbox, name, { signIn = false } = {}) {
	return createCredentials(name, {
		environment: 'custom',
		baseUrl: sandbox.apiBase,
		...(signIn
			? { authentication: 'usernamePassword', username: 'sandbox', password: 'sandbox' }
			: { authentication: 'accessToken', accessToken: 'sandbox-token' }),
	});
}

/**
 * A FacilitaPay Trigger node.
 * @param {{webhookId: string, credentials: {id: string, name: string}, events?: string[], name?: string, position?: number[]}} options
 */
export function triggerNode({
	webhookId,
	credentials,
	events = ['*'],
	name = 'FacilitaPay Trigger',
	position = [0, 0],
}) {
	return {
		id: 'trigger',
		name,
		type: NODE_TYPES.trigger,
		typeVersion: 1,
		position,
		parameters: { events },
		webhookId,
		credentials: { facilitaPayApi: credentials },
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
		credentials: { facilitaPayApi: credentials },
	};
}

/** Subject → Create or Update from an item `{cpf, name}` (a CPF as people type it or in digits). */
export const SUBJECT_FROM_ITEM = {
	resource: 'subject',
	operation: 'create',
	documentType: 'cpf',
	documentNumber: '={{ $json.cpf }}',
	socialName: '={{ $json.name }}',
	fiscalCountry: 'BR',
};

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
 * Creates and publishes Webhook (POST /webhook/<path>, answered at once) → `items` → `action`,
 * plus `extraNodes` (not connected): an execution started the way production starts them, through
 * the webhook processor (`n8n execute` does not use the queue).
 * @param {{name: string, path: string, items: {name: string}, action: {name: string}, extraNodes?: object[], settings?: object}} workflow
 */
export function createWebhookWorkflow({ name, path, items, action, extraNodes = [], settings }) {
	const webhook = {
		id: 'webhook',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: path,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
	return createActiveWorkflow({
		name,
		...(settings ? { settings } : {}),
		nodes: [webhook, items, action, ...extraNodes],
		connections: {
			Webhook: { main: [[{ node: items.name, type: 'main', index: 0 }]] },
			[items.name]: { main: [[{ node: action.name, type: 'main', index: 0 }]] },
		},
	});
}

/**
 * POSTs `body` as JSON to the webhook processor's /webhook/<path>.
 * @param {string} path @param {unknown} body @returns {Promise<{status: number, text: string}>}
 */
export async function postWebhook(path, body) {
	const response = await fetch(`${queueState().webhook.url}/webhook/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, text: await response.text() };
}

/**
 * POSTs `body` until the webhook processor knows the path: publishing is asynchronous, and the
 * webhook answers 404 (starting nothing) until it is registered. Returns the first other answer.
 * @param {string} path @param {unknown} body
 */
export function postWhenRegistered(path, body) {
	return waitFor(
		async () => {
			const answer = await postWebhook(path, body);
			return answer.status === 404 ? null : answer;
		},
		{ what: `the webhook processor to know POST /webhook/${path}` },
	);
}
