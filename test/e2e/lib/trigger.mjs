// The FacilitaPay Trigger in the shared n8n: publishing a trigger workflow and waiting for its
// registration (POST /enable_webhooks), a sandbox of its own for a describe block, waiting for its
// executions, the account's notification records, a new token for its credentials, many requests
// at once, and the figures of issue 11 (forgeries refused, true events delivered) that the
// trigger test files add up.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
	activateWorkflow,
	createWorkflowViaApi,
	deactivateWorkflow,
	getWorkflowViaApi,
	listExecutions,
	nodeOutput,
} from './n8n.mjs';
import { importIntoN8n, publicApi, sandboxCredentials } from '../../../scripts/n8n-runtime.mjs';
import { sandboxApi, sandboxMark, sandboxRequests, startPrivateSandbox } from './sandbox.mjs';
import {
	CLI_TIMEOUT,
	cliOptions,
	INSTALL_TIMEOUT,
	requirePieces,
	sharedState,
	waitFor,
} from './state.mjs';
import { ownN8n } from './own-n8n.mjs';
import { workflowWithTrigger } from './workflows.mjs';

/** @typedef {import('./state.mjs').E2eState} E2eState */

/** The trigger's node name in the workflows of these tests. */
export const TRIGGER = 'FacilitaPay Trigger';

/**
 * Publishes the workflow and waits for the trigger's registration request (2.x publishes
 * asynchronously); returns the registration requests.
 * @param {string} workflowId @param {E2eState} [state] @param {{what?: string}} [options]
 */
export async function activateAndWaitForRegistration(
	workflowId,
	state = sharedState(),
	{ what = 'the trigger to call POST /enable_webhooks' } = {},
) {
	const mark = await sandboxMark(state);
	await activateWorkflow(workflowId, state);
	return waitFor(
		async () => {
			const found = await sandboxRequests(
				{ after: mark, method: 'POST', pathPrefix: '/enable_webhooks' },
				state,
			);
			return found.length > 0 ? found : null;
		},
		{ what },
	);
}

/**
 * On an n8n of a test file's own (ownN8n): creates a workflow with a version-2 FacilitaPay Trigger
 * of `parameters` on its sandbox's credentials and publishes it; returns the workflow once the
 * trigger has registered.
 * @param {{state: E2eState, sb: {credentials: any}}} own @param {object} parameters
 */
export async function publishTriggerOn(own, parameters) {
	const base = workflowWithTrigger({ parameters, typeVersion: 2 });
	base.nodes[0].credentials = { facilitaPayApi: own.sb.credentials };
	const workflow = await createWorkflowViaApi(base, own.state);
	await activateAndWaitForRegistration(workflow.id, own.state);
	return workflow;
}

/**
 * For the calling describe block: an n8n of its own (ownN8n with `options`, the sandbox and trigger
 * pieces required) started before its tests and, after them, the trigger workflow published on it
 * unpublished, `beforeStop` run, n8n stopped and its sandbox closed. `own` is that n8n,
 * `publish(parameters)` publishes a version-2 trigger workflow on it (publishTriggerOn).
 * @param {Parameters<typeof ownN8n>[1]} options
 * @param {{timeout: number, beforeStop?: (own: any) => Promise<unknown>}} closing
 */
export function useOwnTriggerN8n(options, { timeout, beforeStop }) {
	const holder = {
		/** @type {Awaited<ReturnType<typeof ownN8n>>} */
		own: /** @type {any} */ (undefined),
		/** @type {any} */
		workflow: undefined,
		/** @param {object} parameters the trigger's parameters (events, options) */
		async publish(parameters) {
			holder.workflow = await publishTriggerOn(holder.own, parameters);
			return holder.workflow;
		},
	};
	const g = /** @type {any} */ (globalThis);
	g.beforeAll(async () => {
		requirePieces(sharedState(), ['sandbox', 'trigger']);
		holder.own = await ownN8n(sharedState(), options);
	}, INSTALL_TIMEOUT);
	g.afterAll(async () => {
		const { own, workflow } = holder;
		if (!own) return;
		if (workflow) await deactivateWorkflow(workflow.id, own.state).catch(() => undefined);
		if (beforeStop) await beforeStop(own);
		await own.stop();
		await own.sb.close();
	}, timeout);
	return holder;
}

/**
 * Whether an execution is one of the trigger's notices (a failed execution it saved to tell the
 * user the workflow hears nothing: docs/trigger.md), not one an event started.
 * @param {any} execution
 */
export const isNotice = (execution) => execution.status === 'error' && execution.mode === 'trigger';

/** What a notice execution says: its error's message and description. @param {any} execution */
export function noticeOf(execution) {
	const resultData = execution.data?.resultData ?? {};
	const error = resultData.error ?? resultData.runData?.[TRIGGER]?.[0]?.error ?? {};
	return { message: String(error.message ?? ''), description: String(error.description ?? '') };
}

/**
 * The workflow's finished executions that events started (not the trigger's notices), oldest
 * first, once there are at least `count` of them.
 * @param {string} workflowId @param {number} count @param {E2eState} [state]
 */
export async function waitForExecutions(workflowId, count, state = sharedState()) {
	const executions = await waitFor(
		async () => {
			const list = (await listExecutions({ workflowId }, state)).filter((e) => !isNotice(e));
			return list.length >= count &&
				list.every((e) => e.finished !== false || e.status === 'success')
				? list
				: null;
		},
		{ what: `${count} execution(s) of workflow ${workflowId}` },
	);
	return [...executions].reverse();
}

/**
 * A wrong secret: the registration's 4-digit secret plus `n` (modulo 10000), as a guesser would try.
 * @param {string} secret @param {number} n
 */
export const guessedSecret = (secret, n) => String((Number(secret) + n) % 10000).padStart(4, '0');

/** The items the trigger emitted in an execution. @param {any} execution */
export const triggerItems = (execution) => nodeOutput(execution, TRIGGER);

/** Whether the workflow's static data holds the trigger's registration. @param {any} workflow */
export const hasRegistration = (workflow) =>
	Boolean(workflow.staticData?.[`node:${TRIGGER}`]?.secretHmac);

/**
 * Waits until the workflow's static data holds (or, with `registered: false`, no longer holds) the
 * trigger's registration; returns the workflow as the public API shows it.
 * @param {string} workflowId @param {E2eState} state @param {{registered?: boolean}} [options]
 */
export function waitForRegistrationSaved(workflowId, state, { registered = true } = {}) {
	return waitFor(
		async () => {
			const workflow = await getWorkflowViaApi(workflowId, state);
			return hasRegistration(workflow) === registered ? workflow : null;
		},
		{
			what: registered
				? 'the registration in the workflow static data'
				: 'the trigger to forget its registration',
		},
	);
}

/**
 * For the calling describe block: a sandbox of its own (one FacilitaPay account, its own clock and
 * webhook) started before its tests and closed after them, after unpublishing the trigger workflow
 * published on it. `publish()` creates a trigger workflow with these parameters on it, publishes it
 * and waits for its registration.
 * @param {{id: string, name: string, timeout?: number, beforeClose?: (state: E2eState) => Promise<unknown>}} options
 */
export function useTriggerSandbox({ id, name, timeout = CLI_TIMEOUT, beforeClose }) {
	const holder = {
		/** @type {Awaited<ReturnType<typeof startPrivateSandbox>>} */
		sb: /** @type {any} */ (undefined),
		/** @type {any} */
		workflow: undefined,
		/** How many executions of the workflow the tests expect so far (see next()). */
		expected: 0,
		/**
		 * Expects `more` executions beyond those expected so far; waits for them and returns all the
		 * workflow's executions, oldest first.
		 * @param {number} [more]
		 */
		async next(more = 1) {
			holder.expected += more;
			return waitForExecutions(holder.workflow.id, holder.expected, holder.state);
		},
		/** The sandbox's state, for the sandbox helpers (sandboxApi, sandboxControl…). */
		get state() {
			return holder.sb.state;
		},
		/**
		 * @param {object} parameters the trigger's parameters (events, options)
		 * @param {{typeVersion?: number}} [options] the node's version (1 unless given)
		 * @returns {Promise<{workflow: any, base: any, registrations: any[]}>}
		 */
		async publish(parameters, { typeVersion = 1 } = {}) {
			const base = workflowWithTrigger({ parameters, typeVersion });
			base.nodes[0].credentials = { facilitaPayApi: holder.sb.credentials };
			holder.workflow = await createWorkflowViaApi(base, holder.sb.state);
			const registrations = await activateAndWaitForRegistration(
				holder.workflow.id,
				holder.sb.state,
			);
			return { workflow: holder.workflow, base, registrations };
		},
	};
	const g = /** @type {any} */ (globalThis);
	g.beforeAll(async () => {
		requirePieces(sharedState(), ['sandbox', 'trigger']);
		holder.sb = await startPrivateSandbox({ id, name });
	}, timeout);
	g.afterAll(async () => {
		if (!holder.sb) return;
		if (holder.workflow)
			await deactivateWorkflow(holder.workflow.id, holder.sb.state).catch(() => undefined);
		await beforeClose?.(holder.sb.state).catch(() => undefined);
		await holder.sb.close();
	}, timeout);
	return holder;
}

/**
 * The figures of issue 11 for the calling test file, to count into. After the file's tests they are
 * added to those of the trigger files that ran before in this run (noted in the run folder), and the
 * total is printed and written to trigger-figures.json (FACILITAPAY_E2E_DIR, else /tmp).
 */
export function triggerFigures() {
	const figures = {
		forgedWrongSecret: 0,
		forgedRightSecretFalseContent: 0,
		executionsFromForgeries: 0,
		trueEventsSent: 0,
		trueEventsDelivered: 0,
		/** True events with nothing to verify, refused with 503 during the guessing lock: FacilitaPay redelivers them. */
		trueEventsDeferred: 0,
	};
	/** @type {any} */ (globalThis).afterAll(() => {
		const noted = path.join(sharedState().userFolder, 'trigger-figures.jsonl');
		fs.appendFileSync(noted, `${JSON.stringify(figures)}\n`);
		/** @type {Record<string, number>} */
		const total = {};
		for (const line of fs.readFileSync(noted, 'utf8').split('\n').filter(Boolean))
			for (const [key, value] of Object.entries(JSON.parse(line)))
				total[key] = (total[key] ?? 0) + value;
		console.log(`issue 11 figures (trigger files so far): ${JSON.stringify(total)}`);
		const dir = process.env.FACILITAPAY_E2E_DIR ?? '/tmp';
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, 'trigger-figures.json'), `${JSON.stringify(total, null, 2)}\n`);
	});
	return figures;
}

/**
 * The account's notification records, newest first (GET /notifications?order_by=desc).
 * @param {E2eState} state
 */
export async function notificationRecords(state) {
	return (await sandboxApi('GET', '/notifications?order_by=desc&per_page=500', undefined, state))
		.json.data;
}

/**
 * Gives the trigger's credentials another access token of the same sandbox account (a JWT from
 * POST /sign_in), as a user pasting a new token would; n8n reads credentials at each use.
 * @param {{credentials: {id: string, name: string}, sandboxUrl: string}} sb @param {E2eState} state
 */
export async function useNewToken(sb, state) {
	const response = await fetch(`${sb.sandboxUrl}/api/v1/sign_in`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ user: { username: 'sandbox', password: 'sandbox' } }),
	});
	const { jwt } = await response.json();
	const creds = sandboxCredentials({
		baseUrl: `${sb.sandboxUrl}/api/v1`,
		token: jwt,
		id: sb.credentials.id,
		name: sb.credentials.name,
	});
	await importIntoN8n('credentials', [creds], cliOptions(state));
	return jwt;
}

/**
 * POSTs the bodies to the URL, `concurrency` at a time; returns each answer's status, body and
 * milliseconds, in the order of the bodies.
 * @param {string} url @param {unknown[]} bodies @param {number} concurrency
 */
export async function postAll(url, bodies, concurrency) {
	/** @type {Array<{status: number, text: string, ms: number}>} */
	const answers = new Array(bodies.length);
	let next = 0;
	const worker = async () => {
		while (next < bodies.length) {
			const index = next++;
			const started = performance.now();
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(bodies[index]),
			});
			const text = await response.text();
			answers[index] = { status: response.status, text, ms: performance.now() - started };
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return answers;
}

/** p50, p95 and max of a list of milliseconds. @param {number[]} list */
export function spread(list) {
	const sorted = [...list].sort((a, b) => a - b);
	const at = (/** @type {number} */ q) =>
		Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
	return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: Math.round(sorted.at(-1) ?? 0) };
}

/** Every execution of a workflow (public API, with data), following the cursor. */
export async function allExecutions(state, workflowId) {
	const all = [];
	let cursor = '';
	for (;;) {
		const query = new URLSearchParams({ workflowId, includeData: 'true', limit: '250' });
		if (cursor) query.set('cursor', cursor);
		const page = await publicApi(state.n8nUrl, state.apiKey, `/executions?${query}`);
		all.push(...(page.data ?? []));
		if (!page.nextCursor) return all;
		cursor = page.nextCursor;
	}
}
