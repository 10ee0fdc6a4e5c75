// The queue-mode cluster as the tests see it: its state (written by global-setup.mjs), n8n's public
// API on the main, executions and which worker ran them (the workers' own "Worker started
// execution N" log lines), the run's report, n8n's Retry button on the main, and workers a test
// starts itself.
import fs from 'node:fs';
import {
	CREDENTIAL_TYPE,
	freePort,
	installPackageInto,
	isAlive,
	killGroup,
} from '../../../scripts/n8n-runtime.mjs';
import { adoptRun, clusterEnv, startWorker } from '../../../scripts/queue-cluster.mjs';
import { validCpf, waitFor as pollUntil } from '../../e2e/lib/n8n-e2e.mjs';

/** Per-test timeout for the cases (they wait for hundreds of executions on 2 cores). */
export const CASE_TIMEOUT = 300_000;

/** `npm run test:queue` / `npm test` set FACILITAPAY_QUEUE=1; any other jest run skips these tests. */
export function queueEnabled() {
	return process.env.FACILITAPAY_QUEUE === '1';
}

/** `describe` when the queue-mode tests are enabled, else `describe.skip`. */
export function describeQueue(name, fn) {
	const d = /** @type {any} */ (globalThis).describe;
	return (queueEnabled() ? d : d.skip)(name, fn);
}

/** @returns {import('../../../scripts/queue-cluster.mjs').ClusterState} */
export function queueState() {
	const file = process.env.FACILITAPAY_QUEUE_STATE;
	if (!file || !fs.existsSync(file))
		throw new Error(
			'No queue-mode cluster: run these tests with `npm run test:queue` (its globalSetup starts the cluster).',
		);
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/**
 * Writes `changes` into the cluster's state file (a test that restarted the main or the webhook
 * processor: the files after it find the new processes there).
 * @param {Record<string, unknown>} changes
 */
export function updateQueueState(changes) {
	const file = /** @type {string} */ (process.env.FACILITAPAY_QUEUE_STATE);
	fs.writeFileSync(file, JSON.stringify({ ...queueState(), ...changes }, null, 2));
}

/**
 * The public API of the main (`/api/v1…`). Throws with the answer on a non-2xx status.
 * @param {string} method @param {string} route @param {unknown} [body]
 */
export async function api(method, route, body) {
	const state = queueState();
	let response;
	let text = '';
	// n8n answers 503 "Database is not ready!" before it routes the request (its database saturated
	// on a busy machine): nothing was done, so it is asked again, for up to three minutes.
	for (let attempt = 1; ; attempt++) {
		response = await fetch(`${state.main.url}/api/v1${route}`, {
			method,
			headers: {
				'X-N8N-API-KEY': state.apiKey,
				accept: 'application/json',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		text = await response.text();
		if (response.status !== 503 || !text.includes('Database is not ready') || attempt >= 90) break;
		await new Promise((resolve) => setTimeout(resolve, 2000));
	}
	if (!response.ok)
		throw new Error(`${method} /api/v1${route}: HTTP ${response.status} ${text.slice(0, 400)}`);
	return text ? JSON.parse(text) : null;
}

/** Creates FacilitaPay credentials; returns `{id, name}` for a node's `credentials`. @param {string} name @param {object} data */
export async function createCredentials(name, data) {
	const created = await api('POST', '/credentials', { name, type: CREDENTIAL_TYPE, data });
	return { id: String(created.id), name };
}

/** Creates a workflow and publishes (activates) it; returns the created workflow. @param {{name: string, nodes: any[], connections?: object}} workflow */
export async function createActiveWorkflow(workflow) {
	const created = await api('POST', '/workflows', {
		settings: { executionOrder: 'v1' },
		connections: {},
		...workflow,
	});
	try {
		await api('POST', `/workflows/${created.id}/activate`, {});
	} catch {
		await api('POST', `/workflows/${created.id}/publish`, {});
	}
	return created;
}

/** Every execution of a workflow (all pages of the public API), optionally with data. @param {string} workflowId @param {{includeData?: boolean}} [options] */
export async function allExecutions(workflowId, { includeData = false } = {}) {
	/** @type {any[]} */
	const all = [];
	let cursor = '';
	do {
		const query = new URLSearchParams({
			workflowId,
			limit: '250',
			includeData: String(includeData),
			...(cursor ? { cursor } : {}),
		});
		const page = await api('GET', `/executions?${query}`);
		all.push(...(page.data ?? []));
		cursor = page.nextCursor ?? '';
	} while (cursor);
	return all;
}

/**
 * The workflow's executions as `allExecutions` lists them, plus those a worker's log says it ran
 * that the list leaves out: n8n's public API hides the executions the main still counts as active,
 * and under load a main was seen never to hear that a worker had finished one (its job's
 * completion event lost: 100 enqueued, 100 finished by the workers, 99 completed at the main).
 * Those are read one by one. @param {string} workflowId @param {{includeData?: boolean}} [options]
 */
export async function executionsOf(workflowId, { includeData = false } = {}) {
	const listed = await allExecutions(workflowId, { includeData });
	const seen = new Set(listed.map((execution) => String(execution.id)));
	for (const id of executionsByWorker().keys()) {
		if (
			seen.has(id) ||
			(workflowOfExecution.get(id) !== undefined &&
				workflowOfExecution.get(id) !== String(workflowId))
		)
			continue;
		const one = await api('GET', `/executions/${id}?includeData=${includeData}`).catch(
			() => undefined,
		);
		if (one?.workflowId !== undefined) workflowOfExecution.set(id, String(one.workflowId));
		if (one && String(one.workflowId) === String(workflowId)) listed.push(one);
	}
	return listed;
}

/**
 * Creates and publishes `workflow` (a FacilitaPay Trigger's) and waits until its trigger registered
 * its URL with FacilitaPay (the case's sandbox received `POST …/enable_webhooks`).
 * @param {{requests: () => Array<{method: string, path: string}>}} sandbox @param {string} what
 * @param {any} workflow
 */
export async function publishedAndRegistered(sandbox, what, workflow) {
	const before = sandbox.requests().length;
	const published = await createActiveWorkflow(workflow);
	await waitFor(
		async () =>
			sandbox
				.requests()
				.slice(before)
				.find((r) => r.method === 'POST' && r.path.endsWith('/enable_webhooks')),
		{ what: `${what} to register its URL` },
	);
	return published;
}

/** Which workflow an execution read one by one belongs to (so it is read once). */
const workflowOfExecution = new Map();

/**
 * Waits until the workflow has `count` executions and none is still running or waiting for a
 * worker; returns them (without data). Polls; not a sleep.
 * @param {string} workflowId @param {number} count @param {number} [timeoutMs]
 */
export async function waitForExecutions(workflowId, count, timeoutMs = 240_000) {
	return waitFor(
		async () => {
			const list = await executionsOf(workflowId);
			const done = list.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
			return list.length >= count && done.length === list.length ? list : null;
		},
		{ what: `${count} finished execution(s) of workflow ${workflowId}`, timeoutMs },
	);
}

/**
 * Which worker ran each execution, from the workers' own log lines
 * ("Worker started execution 12 (job 7)"). Returns Map(execution id → worker names).
 */
export function executionsByWorker() {
	/** @type {Map<string, string[]>} */
	const ranBy = new Map();
	for (const worker of queueState().workers.concat(extraWorkers)) {
		const text = fs.existsSync(worker.logFile) ? fs.readFileSync(worker.logFile, 'utf8') : '';
		for (const match of text.matchAll(/Worker started execution (\d+) \(job /g)) {
			ranBy.set(match[1], [...(ranBy.get(match[1]) ?? []), worker.name]);
		}
	}
	return ranBy;
}

/** Workers a test started itself (e.g. the one without the package), for executionsByWorker(). @type {Array<{name: string, logFile: string, pid: number}>} */
export const extraWorkers = [];

/**
 * Polls `check` until it returns a truthy value or `timeoutMs` (60 s unless told) passes: the e2e
 * tests' waitFor with the longer defaults a cluster on 2 cores needs.
 * @template T @param {() => Promise<T>} check @param {{what: string, timeoutMs?: number, intervalMs?: number}} options @returns {Promise<T>}
 */
export const waitFor = (check, options) =>
	pollUntil(check, { timeoutMs: 60_000, intervalMs: 300, ...options });

/** Counts of a list of names, e.g. {"worker-1": 97, "worker-2": 103}. @param {string[]} names */
export function countBy(names) {
	/** @type {Record<string, number>} */
	const counts = {};
	for (const name of names) counts[name] = (counts[name] ?? 0) + 1;
	return counts;
}

/** Appends a measured number to the run's report (printed by the teardown). @param {string} line */
export function report(line) {
	const state = queueState();
	fs.appendFileSync(`${state.runDir}/report.txt`, `${line}\n`);
	process.stderr.write(`[queue-mode] ${line}\n`);
}

/**
 * Registers `count` people in the sandbox (as a fixture) and returns their ids: the trigger verifies
 * every event against FacilitaPay's API (Verify With API), so events must name real subjects.
 * @param {{call: (method: string, route: string, body?: unknown) => Promise<any>}} sandbox
 * @param {number} count
 * @param {string} label
 */
export async function registerSubjects(sandbox, count, label) {
	const seed = 40_000 + (Date.now() % 50_000);
	const ids = [];
	for (let i = 0; i < count; i++) {
		const person = {
			document_type: 'cpf',
			document_number: validCpf(seed + i),
			social_name: `${label} ${i}`,
			fiscal_country: 'BR',
		};
		ids.push((await sandbox.call('POST', '/api/v1/subject/people', { person })).data.id);
	}
	return ids;
}

// ---------------------------------------------------------------------------------------------
// n8n's Retry button on the main, and workers for files that run after case 4 stopped them

/**
 * Retries a failed execution through the main's REST API, as the executions list's Retry button
 * does (`POST /rest/executions/:id/retry`, `{loadWorkflow}`, as the owner): the main queues a NEW
 * execution (mode "retry") that a worker runs; the answer comes once it ended. Returns its id and
 * the execution with its data (public API). See retryExecution() in test/e2e/lib/n8n-e2e.mjs.
 * @param {string|number} executionId
 * @param {{loadWorkflow?: boolean, timeoutMs?: number}} [options]
 */
export async function retryOnMain(executionId, options = {}) {
	const { retryExecution } = await import('../../e2e/lib/n8n-e2e.mjs');
	const state = queueState();
	return retryExecution({ url: state.main.url, apiKey: state.apiKey }, executionId, options);
}

/**
 * Starts a worker of the calling file's own, joining the cluster, with our package installed unless
 * `withPackage` is false: listed in `extraWorkers` (for executionsByWorker()) and noted in the
 * run's pids, so that the clean-up of a killed run stops it too.
 * @param {string} name
 * @param {{withPackage?: boolean}} [options]
 */
export async function startExtraWorker(name, { withPackage = true } = {}) {
	const state = queueState();
	adoptRun(state.runDir);
	const folder = `${state.runDir}/${name}`;
	if (withPackage) installPackageInto(folder, state.tarball);
	const worker = await startWorker({
		name,
		folder,
		healthPort: await freePort(),
		env: clusterEnv(state),
		webhookUrl: `${state.webhook.url}/`,
	});
	extraWorkers.push({ name, logFile: worker.logFile, pid: worker.proc.pid });
	return { ...worker, folder };
}

/**
 * Stops processes by signalling their process groups (SIGTERM) and waits until they are gone.
 * @param {number[]} pids @param {string} what
 */
export async function stopAndWait(pids, what) {
	for (const pid of pids) killGroup(pid, 'SIGTERM');
	await waitFor(async () => pids.every((pid) => !isAlive(pid)), { what, timeoutMs: 30_000 });
}

/**
 * Makes sure `count` workers with our package are running: the cluster's own when alive, else
 * workers of the calling file (`worker-<prefix>-N`, see startExtraWorker). Case 4
 * (4-missing-package.test.mjs) stops the cluster's workers, so files after it need their own.
 * `stop()` stops only what this started.
 * @param {number} count
 * @param {{prefix?: string}} [options]
 * @returns {Promise<{names: string[], started: string[], stop: () => Promise<void>}>}
 */
export async function ensureWorkers(count, { prefix = 'extra' } = {}) {
	const state = queueState();
	const alive = [...state.workers, ...extraWorkers]
		.filter((w) => isAlive(w.pid))
		.map((w) => w.name);
	/** @type {Array<{name: string, proc: {pid: number, stop: () => Promise<void>}}>} */
	const mine = [];
	for (let i = 1; alive.length + mine.length < count; i++) {
		const name = `worker-${prefix}-${i}`;
		mine.push({ name, proc: (await startExtraWorker(name)).proc });
	}
	return {
		names: [...alive, ...mine.map((w) => w.name)],
		started: mine.map((w) => w.name),
		async stop() {
			for (const worker of mine.splice(0)) await worker.proc.stop();
		},
	};
}
