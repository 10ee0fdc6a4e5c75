// The cases' workflows: FacilitaPay credentials for a case's sandbox, Webhook → items → FacilitaPay
// published on the main (its nodes built by test/e2e/lib/workflows.mjs), and posting to the
// webhook processor.
import { sandboxCredentials } from '../../../scripts/n8n-runtime.mjs';
import {
	actionNode,
	itemsFromBody,
	payoutsWorkflow,
	webhookWorkflow,
} from '../../e2e/lib/workflows.mjs';
import { createActiveWorkflow, createCredentials, queueState, waitFor } from './cluster.mjs';

export { actionNode, triggerNode } from '../../e2e/lib/workflows.mjs';

/**
 * FacilitaPay credentials for a case's own sandbox (through its recording proxy): the access token,
 * or with `signIn` Username and Password (the sandbox's sandbox/sandbox).
 * @param {{apiBase: string}} sandbox @param {string} name @param {{signIn?: boolean}} [options]
 */
export function caseCredentials(sandbox, name, { signIn = false } = {}) {
	return createCredentials(name, sandboxCredentials({ baseUrl: sandbox.apiBase, signIn }).data);
}

/**
 * Creates and publishes Webhook (POST /webhook/<path>, answered at once) → `items` → `action`,
 * plus `extraNodes` (not connected): an execution started the way production starts them, through
 * the webhook processor (`n8n execute` does not use the queue).
 * @param {Parameters<typeof webhookWorkflow>[0]} workflow
 */
export function createWebhookWorkflow(workflow) {
	return createActiveWorkflow(webhookWorkflow(workflow));
}

/** Subject → Create or Update from an item `{cpf, name}` (a CPF as people type it or in digits). */
const SUBJECT_FROM_ITEM = {
	resource: 'subject',
	operation: 'create',
	documentType: 'cpf',
	documentNumber: '={{ $json.cpf }}',
	socialName: '={{ $json.name }}',
	fiscalCountry: 'BR',
};

/**
 * Creates and publishes Webhook → one item per element of the body's `people` ({cpf, name}) →
 * Subject → Create or Update.
 * @param {{name: string, path: string, credentials: {id: string, name: string}}} workflow
 */
export function createPeopleWorkflow({ name, path, credentials }) {
	return createWebhookWorkflow({
		name,
		path,
		items: itemsFromBody('People', 'people'),
		action: actionNode({ credentials, parameters: SUBJECT_FROM_ITEM }),
	});
}

/**
 * Creates and publishes the payouts workflow of test/e2e/lib/workflows.mjs (payoutsWorkflow:
 * Webhook → Payouts → FacilitaPay Create Payout, a FacilitaPay Trigger beside it).
 * @param {{name: string, path: string, credentials: {id: string, name: string}}} workflow
 */
export function createPayoutsWorkflow({ name, path, credentials }) {
	return createActiveWorkflow(payoutsWorkflow({ name, path, credentials, withTrigger: true }));
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
