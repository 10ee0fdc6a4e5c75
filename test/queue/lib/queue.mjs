// Helpers for the queue-mode tests (test/queue/*.test.mjs): the cluster's state (written by
// global-setup.mjs), n8n's public API on the main, executions and which worker ran them (the
// workers' own "Worker started execution N" log lines), and a sandbox of each file's own behind a
// small proxy that records, for every request, WHICH n8n process sent it (the owner of the client
// socket, read from /proc: the processes all run on loopback, so the address alone cannot tell).
import fs from 'node:fs';
import http from 'node:http';
import { CREDENTIAL_TYPE, NODE_TYPES } from '../../../scripts/n8n-runtime.mjs';
import { createSandbox } from '../../../sandbox/server.mjs';
import { validCpf } from '../../e2e/lib/n8n-e2e.mjs';

export { CREDENTIAL_TYPE, NODE_TYPES };

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
 * The public API of the main (`/api/v1…`). Throws with the answer on a non-2xx status.
 * @param {string} method @param {string} route @param {unknown} [body]
 */
export async function api(method, route, body) {
	const state = queueState();
	const response = await fetch(`${state.main.url}/api/v1${route}`, {
		method,
		headers: {
			'X-N8N-API-KEY': state.apiKey,
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
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
 * Waits until the workflow has `count` executions and none is still running or waiting for a
 * worker; returns them (without data). Polls; not a sleep.
 * @param {string} workflowId @param {number} count @param {number} [timeoutMs]
 */
export async function waitForExecutions(workflowId, count, timeoutMs = 240_000) {
	return waitFor(
		async () => {
			const list = await allExecutions(workflowId);
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
 * Polls `check` until it returns a truthy value or `timeoutMs` passes.
 * @template T @param {() => Promise<T>} check @param {{what: string, timeoutMs?: number, intervalMs?: number}} options @returns {Promise<T>}
 */
export async function waitFor(check, { what, timeoutMs = 60_000, intervalMs = 300 }) {
	const deadline = Date.now() + timeoutMs;
	let lastError;
	for (;;) {
		try {
			const value = await check();
			if (value) return value;
		} catch (error) {
			lastError = error;
		}
		if (Date.now() > deadline)
			throw new Error(
				`Timed out waiting for ${what}${lastError ? ` (last error: ${/** @type {Error} */ (lastError).message})` : ''}`,
			);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/** The output items (json) of one node in an execution with data. @param {any} execution @param {string} nodeName */
export function nodeOutput(execution, nodeName) {
	const runs = execution?.data?.resultData?.runData?.[nodeName];
	if (!runs) return undefined;
	const last = runs[runs.length - 1];
	if (last.error) return { error: last.error };
	return (last.data?.main?.[0] ?? []).map((/** @type {{json: unknown}} */ item) => item.json);
}

// ---------------------------------------------------------------------------------------------
// Who sent a request: the owner process of the client socket

/** @param {string} hexAddress e.g. "0100007F:1F90" */
const portOf = (hexAddress) => parseInt(hexAddress.split(':')[1], 16);

/**
 * The socket inode of the loopback TCP connection from `clientPort` to `serverPort`.
 * @param {number} clientPort @param {number} serverPort
 */
function socketInode(clientPort, serverPort) {
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text = '';
		try {
			text = fs.readFileSync(table, 'utf8');
		} catch {
			continue;
		}
		for (const line of text.split('\n').slice(1)) {
			const fields = line.trim().split(/\s+/);
			if (fields.length < 10) continue;
			if (portOf(fields[1]) === clientPort && portOf(fields[2]) === serverPort) return fields[9];
		}
	}
	return null;
}

/** @param {string} inode @param {Array<{name: string, pid: number}>} candidates */
function ownerOf(inode, candidates) {
	for (const candidate of candidates) {
		let fds = [];
		try {
			fds = fs.readdirSync(`/proc/${candidate.pid}/fd`);
		} catch {
			continue;
		}
		for (const fd of fds) {
			try {
				if (fs.readlinkSync(`/proc/${candidate.pid}/fd/${fd}`) === `socket:[${inode}]`)
					return candidate.name;
			} catch {
				/* closed meanwhile */
			}
		}
	}
	return 'unknown';
}

/** The n8n processes of the cluster (and the workers a test added), by pid. */
function clusterProcesses() {
	const state = queueState();
	return [
		{ name: 'main', pid: state.main.pid },
		{ name: 'webhook', pid: state.webhook.pid },
		...state.workers.map((w) => ({ name: w.name, pid: w.pid })),
		...extraWorkers.map((w) => ({ name: w.name, pid: w.pid })),
	];
}

/**
 * A sandbox of the calling file's own (frozen clock, token `sandbox-token`), behind a proxy that
 * notes which n8n process sent each request. Point the credentials at `apiBase` (the proxy).
 * `requests()` lists what went through the proxy: `{process, method, path, status}`.
 */
export async function startAttributedSandbox() {
	const sandbox = await createSandbox({ port: 0, host: '127.0.0.1', token: 'sandbox-token' });
	await sandbox.listen();
	const sandboxUrl = new URL(String(sandbox.url));
	/** @type {Array<{process: string, method: string, path: string, status: number}>} */
	const log = [];
	const server = http.createServer((request, response) => {
		const socket = /** @type {any} */ (request.socket);
		const chunks = [];
		request.on('data', (chunk) => chunks.push(chunk));
		request.on('end', () => {
			const forward = http.request(
				{
					host: sandboxUrl.hostname,
					port: sandboxUrl.port,
					method: request.method,
					path: request.url,
					headers: request.headers,
				},
				(answer) => {
					log.push({
						process: socket.n8nProcess,
						method: String(request.method),
						path: String(request.url).split('?')[0],
						status: Number(answer.statusCode),
					});
					response.writeHead(Number(answer.statusCode), answer.headers);
					answer.pipe(response);
				},
			);
			forward.on('error', (error) => {
				response.writeHead(502);
				response.end(String(error));
			});
			forward.end(Buffer.concat(chunks));
		});
	});
	server.on('connection', (socket) => {
		const inode = socketInode(Number(socket.remotePort), Number(socket.localPort));
		/** @type {any} */ (socket).n8nProcess = inode ? ownerOf(inode, clusterProcesses()) : 'unknown';
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const proxyPort = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
	const base = String(sandbox.url).replace(/\/$/, '');
	return {
		sandboxUrl: base,
		apiBase: `http://127.0.0.1:${proxyPort}/api/v1`,
		requests: () => [...log],
		/** Calls the sandbox directly, as a fixture. @param {string} method @param {string} route @param {unknown} [body] */
		async call(method, route, body) {
			const response = await fetch(`${base}${route}`, {
				method,
				headers: {
					authorization: 'Bearer sandbox-token',
					...(body === undefined ? {} : { 'content-type': 'application/json' }),
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await response.text();
			if (!response.ok)
				throw new Error(`${method} ${route}: HTTP ${response.status} ${text.slice(0, 300)}`);
			return text ? JSON.parse(text) : null;
		},
		async close() {
			await new Promise((resolve) => server.close(() => resolve(undefined)));
			server.closeAllConnections?.();
			await sandbox.close();
		},
	};
}

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
 * Makes sure `count` workers with our package are running: the cluster's own when alive, else
 * workers of the calling file (`worker-<prefix>-N`, package installed, part of the run's clean-up,
 * listed in `extraWorkers` for executionsByWorker()). Case 4 (4-missing-package.test.mjs) stops the
 * cluster's workers, so files after it need their own. `stop()` stops only what this started.
 * @param {number} count
 * @param {{prefix?: string}} [options]
 * @returns {Promise<{names: string[], started: string[], stop: () => Promise<void>}>}
 */
export async function ensureWorkers(count, { prefix = 'extra' } = {}) {
	const { freePort, installPackageInto, isAlive } = await import(
		'../../../scripts/n8n-runtime.mjs'
	);
	const { adoptRun, clusterEnv, startWorker } = await import('../../../scripts/queue-cluster.mjs');
	const state = queueState();
	const alive = [
		...state.workers.filter((w) => isAlive(w.pid)).map((w) => w.name),
		...extraWorkers.filter((w) => isAlive(w.pid)).map((w) => w.name),
	];
	/** @type {Array<{name: string, proc: {pid: number, stop: () => Promise<void>}}>} */
	const mine = [];
	if (alive.length < count) adoptRun(state.runDir);
	for (let i = 1; alive.length + mine.length < count; i++) {
		const name = `worker-${prefix}-${i}`;
		const folder = `${state.runDir}/${name}`;
		installPackageInto(folder, state.tarball);
		const worker = await startWorker({
			name,
			folder,
			healthPort: await freePort(),
			env: clusterEnv(state),
			webhookUrl: `${state.webhook.url}/`,
		});
		extraWorkers.push({ name, logFile: worker.logFile, pid: worker.proc.pid });
		mine.push({ name, proc: worker.proc });
	}
	return {
		names: [...alive, ...mine.map((w) => w.name)],
		started: mine.map((w) => w.name),
		async stop() {
			for (const worker of mine.splice(0)) await worker.proc.stop();
		},
	};
}
