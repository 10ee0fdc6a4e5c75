// The example workflows of examples/*.json in the shared n8n (test/e2e/examples-*.test.mjs, one
// file per example): loading one as-is, publishing it for the calling file (unpublished after its
// tests), and reading the executions it starts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	activateWorkflow,
	deactivateWorkflow,
	importWorkflows,
	knownExecutions,
	listExecutions,
} from './n8n.mjs';
import { sharedState, waitFor } from './state.mjs';
import { activateAndWaitForRegistration } from './trigger.mjs';

/** @typedef {import('./state.mjs').E2eState} E2eState */

const EXAMPLES_DIR = path.resolve(
	path.dirname(fileURLToPath(import.meta.url)),
	'../../../examples',
);

/** The example workflow examples/<file>, as shipped. @param {string} file */
export function loadExample(file) {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));
}

/** The workflow's first node of `type`. @param {any} workflow @param {string} type */
export function nodeOfType(workflow, type) {
	const node = workflow.nodes.find((/** @type {any} */ n) => n.type === type);
	if (!node) throw new Error(`${workflow.name} has no ${type} node`);
	return node;
}

/**
 * For the calling test file: `publish(workflow, state, {trigger})` imports an example into the
 * shared n8n and publishes it (waiting for the FacilitaPay Trigger's registration when `trigger`),
 * and returns the ids of the executions it had before; what was published is unpublished after the
 * file's tests, so the shared server is left as it was.
 */
export function usePublishedExamples() {
	const published = new Set();
	/** @type {any} */ (globalThis).afterAll(async () => {
		const state = sharedState();
		for (const id of published) await deactivateWorkflow(id, state).catch(() => undefined);
	});
	/** @param {any} workflow @param {E2eState} state @param {{trigger?: boolean}} [options] */
	return async function publish(workflow, state, { trigger = false } = {}) {
		await importWorkflows(workflow, state);
		const known = await knownExecutions(workflow.id, state);
		published.add(workflow.id);
		if (trigger)
			await activateAndWaitForRegistration(workflow.id, state, {
				what: 'the FacilitaPay Trigger to register its URL (POST /enable_webhooks)',
			});
		else await activateWorkflow(workflow.id, state);
		return known;
	};
}

/**
 * Executions of one workflow (newest first) that were not in `known`, once at least `count` of
 * them exist and none is still running.
 * @param {string} workflowId @param {E2eState} state
 * @param {{count?: number, known?: Set<string>, what?: string}} [options]
 */
export async function newExecutions(
	workflowId,
	state,
	{ count = 1, known = new Set(), what = `executions of ${workflowId}` } = {},
) {
	return waitFor(
		async () => {
			const executions = (await listExecutions({ workflowId, limit: 100 }, state)).filter(
				(e) => !known.has(String(e.id)),
			);
			const settled = executions.every((e) => e.status !== 'running' && e.status !== 'new');
			return executions.length >= count && settled ? executions : null;
		},
		{ what, timeoutMs: 60_000 },
	);
}
