// The queue-mode cluster: Redis and Postgres, then one main, a webhook processor and workers, each
// n8n with its own user folder holding our package the way a Community Nodes install leaves it,
// all sharing one encryption key, one database and one queue. Every process started here is
// tracked, so that a failed start, the teardown or the exit of the test process stops them all.
import fs from 'node:fs';
import path from 'node:path';
import {
	buildAndPackPackage,
	createApiKey,
	ensureN8n,
	freePort,
	installPackageInto,
	killGroup,
	log,
	setupOwner,
	startN8n,
	waitReady,
} from '../n8n-runtime.mjs';
import {
	ensurePostgres,
	postgresBinReachable,
	postgresVersion,
	startPostgres,
} from './postgres.mjs';
import { ensureRedis, redisVersion, startRedis } from './redis.mjs';
import { newRunDir, pidsFileOf } from './runs.mjs';

/**
 * @typedef {{
 *   runDir: string, owner: number, tarball: string,
 *   versions: {n8n: string, redis: string, postgres: string},
 *   redis: {port: number}, postgres: {port: number},
 *   main: {url: string, userFolder: string, logFile: string, pid: number},
 *   webhook: {url: string, userFolder: string, logFile: string, pid: number},
 *   workers: Array<{name: string, userFolder: string, logFile: string, pid: number, healthPort: number}>,
 *   apiKey: string, pids: number[], startSeconds: number
 * }} ClusterState
 */

/**
 * The n8n of the cluster: 2.x (n8n-runtime's v2); FACILITAPAY_QUEUE_N8N=v1 runs 1.x instead, for
 * comparing a behaviour of n8n's queue mode between the two (e.g. test/queue/7-keys-across-workers, whose first version saved points in static data).
 * @type {'v2'|'v1'}
 */
const N8N_VERSION = process.env.FACILITAPAY_QUEUE_N8N === 'v1' ? 'v1' : 'v2';

/** The processes this module started, so that a failure or an exit stops them all. @type {import('../n8n-runtime.mjs').GroupProcess[]} */
const started = [];
/** runDir/pids: every process started, one pid a line, for the clean-up of a killed run. @type {string|null} */
let pidsFile = null;

/** @param {import('../n8n-runtime.mjs').GroupProcess} proc */
function track(proc) {
	started.push(proc);
	if (pidsFile) fs.appendFileSync(pidsFile, `${proc.pid}\n`);
	return proc;
}

/** Whether `pid` is still an n8n process (not a pid the system gave to something else since). */
function isN8n(pid) {
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('n8n');
	} catch {
		return false;
	}
}

/** Stops every process started here, in reverse order (n8n before the databases). */
export async function stopCluster() {
	// First the processes a test started into this run (a restarted main, extra workers): noted in
	// the pids file, not in `started`.
	if (pidsFile && fs.existsSync(pidsFile)) {
		const ours = new Set(started.map((proc) => proc.pid));
		for (const pid of fs.readFileSync(pidsFile, 'utf8').split('\n').map(Number).filter(Boolean))
			if (!ours.has(pid) && isN8n(pid)) killGroup(pid, 'SIGTERM');
	}
	await stopStarted();
}

/**
 * Stops only the processes this module instance started (a test file's own workers), leaving what
 * other test files started into the run (the main that the trigger's catch-up case restarted).
 */
export async function stopStarted() {
	while (started.length > 0) {
		const proc = /** @type {import('../n8n-runtime.mjs').GroupProcess} */ (started.pop());
		await proc
			.stop()
			.catch((/** @type {Error} */ error) => log(`stopping ${proc.name}: ${error.message}`));
	}
}

/** For process 'exit': synchronous kill of every process group started here. */
export function killClusterSync() {
	for (const proc of started) if (!proc.exited()) killGroup(proc.pid, 'SIGKILL');
}

/**
 * Makes processes started from now on (e.g. by a test, in another module instance) part of the run
 * in `runDir`: noted in its pids file, so that the clean-up of a killed run stops them too.
 * @param {string} runDir
 */
export function adoptRun(runDir) {
	pidsFile = pidsFileOf(runDir);
}

/** Environment shared by every n8n process of the cluster. @param {{redisPort: number, postgresPort: number}} ports */
function queueEnv({ redisPort, postgresPort }) {
	return {
		EXECUTIONS_MODE: 'queue',
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgresPort),
		DB_POSTGRESDB_DATABASE: 'postgres',
		DB_POSTGRESDB_USER: 'n8n',
		DB_POSTGRESDB_PASSWORD: 'n8n',
		// Keeps the workers' health server (and so everything) on loopback.
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		// Keep every execution, with its data, for the assertions.
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_PRUNE: 'false',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
	};
}

/** The env a later worker needs to join the cluster described by `state`. @param {ClusterState} state */
export function clusterEnv(state) {
	return queueEnv({ redisPort: state.redis.port, postgresPort: state.postgres.port });
}

/**
 * Starts one n8n process of the cluster (n8n 2.x): `start` (the main), `webhook` or `worker`, its
 * log `<userFolder>/<name>.log`, N8N_WEBHOOK_URL = the webhook processor's address.
 * @param {{name: string, command: 'start'|'worker'|'webhook', args?: string[], userFolder: string, port: number, env: Record<string,string>, readyUrl?: string, webhookUrl: string}} options
 */
export async function startN8nProcess({
	name,
	command,
	args,
	userFolder,
	port,
	env,
	readyUrl,
	webhookUrl,
}) {
	const n8n = await startN8n({
		version: N8N_VERSION,
		command,
		args,
		name,
		logName: name,
		userFolder,
		port,
		brokerPort: await freePort(),
		// 2.x reads N8N_WEBHOOK_URL, 1.x WEBHOOK_URL.
		env: {
			...env,
			...(N8N_VERSION === 'v1' ? { WEBHOOK_URL: webhookUrl } : { N8N_WEBHOOK_URL: webhookUrl }),
		},
		readyUrl,
		onSpawn: track,
	});
	return { proc: n8n.proc, logFile: n8n.logFile, userFolder };
}

/**
 * Starts a worker (`n8n worker --concurrency=5`), its health server on `healthPort` (127.0.0.1).
 * @param {{name: string, folder: string, healthPort: number, env: Record<string,string>, webhookUrl: string}} options
 */
export async function startWorker({ name, folder, healthPort, env, webhookUrl }) {
	return startN8nProcess({
		name,
		command: 'worker',
		args: ['--concurrency=5'],
		userFolder: folder,
		port: await freePort(),
		env: { ...env, QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(healthPort) },
		readyUrl: `http://127.0.0.1:${healthPort}/healthz/readiness`,
		webhookUrl,
	});
}

/**
 * The packed package, copied into the run's folder at once: the pack folder is shared with other
 * runs (npm start, e2e), whose build may replace the tarball between our pack and our untar.
 * @param {string} runDir
 */
async function packageCopy(runDir) {
	for (let attempt = 1; ; attempt++) {
		const tarball = await buildAndPackPackage({ reuse: true });
		const copy = path.join(runDir, path.basename(tarball));
		try {
			fs.copyFileSync(tarball, copy);
			return copy;
		} catch (error) {
			if (attempt >= 3) throw error;
			log(`${tarball} was replaced by another build meanwhile; packing again`);
		}
	}
}

/** setupOwner(), again for up to 60 s while the main does not take it yet. @param {string} url */
async function ownerWhenReady(url) {
	const deadline = Date.now() + 60_000;
	for (;;) {
		try {
			return await setupOwner(url);
		} catch (error) {
			if (Date.now() > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
}

/**
 * Brings the whole queue-mode cluster up. Throws (after stopping what it started) when a piece fails.
 * @param {{workers?: number}} [options]
 * @returns {Promise<ClusterState>}
 */
export async function startCluster({ workers = 2 } = {}) {
	const startedAt = Date.now();
	const runDir = newRunDir();
	adoptRun(runDir);
	try {
		const [redisBin, pgBinCached, tarball, install] = await Promise.all([
			ensureRedis(),
			ensurePostgres(),
			packageCopy(runDir),
			ensureN8n(N8N_VERSION),
		]);
		const pgBin = postgresBinReachable(pgBinCached);
		const redis = await startRedis(redisBin, runDir);
		track(redis.proc);
		const postgres = await startPostgres(pgBin, runDir);
		track(postgres.proc);
		await Promise.all([
			waitReady(redis.proc, redis.ready, 30_000),
			waitReady(postgres.proc, postgres.ready, 60_000),
		]);
		log(`redis on 127.0.0.1:${redis.port}, postgres on 127.0.0.1:${postgres.port}`);

		const shared = queueEnv({ redisPort: redis.port, postgresPort: postgres.port });
		const webhookPort = await freePort();
		const webhookUrl = `http://127.0.0.1:${webhookPort}/`;
		/** @param {string} name */
		const folderWithPackage = (name) => {
			const folder = path.join(runDir, name);
			installPackageInto(folder, tarball);
			return folder;
		};

		// Main first: it runs the database migrations the others wait for.
		const mainPort = await freePort();
		const mainUrl = `http://127.0.0.1:${mainPort}`;
		const main = await startN8nProcess({
			name: 'main',
			command: 'start',
			userFolder: folderWithPackage('main'),
			port: mainPort,
			env: shared,
			webhookUrl,
		});
		const workerSpecs = [];
		for (let i = 1; i <= workers; i++) {
			const name = `worker-${i}`;
			workerSpecs.push({ name, folder: folderWithPackage(name), healthPort: await freePort() });
		}
		const [webhook, ...workerProcs] = await Promise.all([
			startN8nProcess({
				name: 'webhook',
				command: 'webhook',
				userFolder: folderWithPackage('webhook'),
				port: webhookPort,
				env: shared,
				webhookUrl,
			}),
			...workerSpecs.map((spec) => startWorker({ ...spec, env: shared, webhookUrl })),
		]);

		// 1.x answers /healthz/readiness before its REST routes exist (404 "Cannot POST /rest/login").
		const { client } = await ownerWhenReady(mainUrl);
		const apiKey = await createApiKey(mainUrl, { client, label: 'queue-mode' });
		/** @param {{proc: {pid: number}, logFile: string, userFolder: string}} n8n */
		const described = (n8n) => ({
			userFolder: n8n.userFolder,
			logFile: n8n.logFile,
			pid: n8n.proc.pid,
		});
		/** @type {ClusterState} */
		const state = {
			runDir,
			owner: process.pid,
			tarball,
			versions: {
				n8n: install.n8nVersion,
				redis: redisVersion(redisBin),
				postgres: postgresVersion(pgBin),
			},
			redis: { port: redis.port },
			postgres: { port: postgres.port },
			main: { url: mainUrl, ...described(main) },
			webhook: { url: webhookUrl.replace(/\/$/, ''), ...described(webhook) },
			workers: workerProcs.map((w, i) => ({
				name: workerSpecs[i].name,
				...described(w),
				healthPort: workerSpecs[i].healthPort,
			})),
			apiKey,
			pids: started.map((p) => p.pid),
			startSeconds: (Date.now() - startedAt) / 1000,
		};
		fs.writeFileSync(path.join(runDir, 'state.json'), JSON.stringify(state, null, 2));
		log(
			`queue-mode n8n ${state.versions.n8n} ready in ${state.startSeconds.toFixed(1)} s: main ${state.main.url}, ` +
				`webhook ${state.webhook.url}, ${workers} workers, Redis ${state.versions.redis}, Postgres ${state.versions.postgres}`,
		);
		return state;
	} catch (error) {
		await stopCluster();
		throw error;
	}
}
