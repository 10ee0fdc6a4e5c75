// Constants and small helpers shared by the n8n runtime modules.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_DIR = process.env.FACILITAPAY_CACHE_DIR
	? path.resolve(process.env.FACILITAPAY_CACHE_DIR)
	: path.join(ROOT, '.cache');
export const PACKAGE_NAME = 'n8n-nodes-facilitapay';
/**
 * Per-user cache folder OUTSIDE the repository for everything n8n writes at run time: `npm start`'s
 * persistent n8n home and the real location of installed packages. n8n copies ~700 UI asset .js
 * files into every user folder (`<userFolder>/.cache/n8n/public/`); inside the repository
 * `n8n-node lint` (`eslint .`, which ignores only node_modules and .git) would lint them all.
 * Downloads and installs (Node 24, n8n) stay in CACHE_DIR: their .js are under node_modules.
 */
export const USER_CACHE_DIR = process.env.FACILITAPAY_NODES_DIR
	? path.resolve(process.env.FACILITAPAY_NODES_DIR)
	: path.join(os.homedir(), '.cache', PACKAGE_NAME);
/** `npm start`'s n8n user folder (database, log), kept between starts. `N8N_HOME` overrides it. */
export const DEFAULT_N8N_HOME = path.join(USER_CACHE_DIR, 'n8n-home');
/** Where the e2e runs' user folders go (`run-*`, removed by the global teardown). */
export const E2E_RUNS_DIR = process.env.FACILITAPAY_E2E_DIR
	? path.resolve(process.env.FACILITAPAY_E2E_DIR)
	: path.join(os.tmpdir(), 'facilitapay-e2e');
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.facilitaPay`,
	trigger: `${PACKAGE_NAME}.facilitaPayTrigger`,
};
export const CREDENTIAL_TYPE = 'facilitaPayApi';
/** Fixed so that credentials imported in one start can be decrypted in the next. Local use only. */
export const ENCRYPTION_KEY = 'facilitapay-local-dev-encryption-key-not-secret';
export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Local',
	lastName: 'Owner',
	password: 'FacilitaPay-local-1',
};
/** Sent with every REST call: n8n ties its auth cookie to this header. */
export const BROWSER_ID = 'facilitapay-runtime';

export const N8N_VERSIONS = {
	v2: { manifestDir: path.join(ROOT, 'tools/n8n/v2'), minNodeMajor: 24, publishCommand: 'publish' },
	v1: { manifestDir: path.join(ROOT, 'tools/n8n/v1'), minNodeMajor: 20, publishCommand: 'update' },
};

// ---------------------------------------------------------------------------------------------
// Small helpers

/** @param {string} message */
export function log(message) {
	process.stderr.write(`[n8n-runtime] ${message}\n`);
}

/** @param {number} startedAt */
export function seconds(startedAt) {
	return `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
}

/** @param {number} ms */
export const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Environment for child npm/n8n processes: without the npm_* variables `npm run` injects
 * (the project's ignore-scripts=true, nodedir=/usr, …), which would leak into other installs,
 * and without jest's NODE_ENV=test. */
export function cleanEnv(extra = {}) {
	/** @type {Record<string, string>} */
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (value === undefined) continue;
		if (/^npm_/i.test(key)) continue;
		if (key === 'NODE_OPTIONS' || key === 'INIT_CWD') continue;
		// Jest sets NODE_ENV=test and JEST_WORKER_ID; with NODE_ENV=test n8n's CLI silently does nothing.
		if (key === 'NODE_ENV' || key.startsWith('JEST_')) continue;
		env[key] = value;
	}
	return { ...env, ...extra };
}

/**
 * Runs a command, output to a log file (or inherited), and throws with the log's tail on failure.
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd?: string, env?: Record<string,string>, logFile?: string, what?: string}} [options]
 */
export async function run(command, args, options = {}) {
	const { cwd = ROOT, env = cleanEnv(), logFile, what = `${command} ${args.join(' ')}` } = options;
	let fd = null;
	if (logFile) {
		fs.mkdirSync(path.dirname(logFile), { recursive: true });
		fd = fs.openSync(logFile, 'a');
		fs.writeSync(fd, `\n$ ${command} ${args.join(' ')}   (cwd ${cwd})\n`);
	}
	const child = spawn(command, args, {
		cwd,
		env,
		stdio: fd === null ? ['ignore', 'inherit', 'inherit'] : ['ignore', fd, fd],
	});
	const code = await new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
	});
	if (fd !== null) fs.closeSync(fd);
	if (code !== 0) {
		const tail = logFile ? `\n--- last lines of ${logFile} ---\n${tailOf(logFile, 30)}` : '';
		throw new Error(`${what} failed with exit code ${code}.${tail}`);
	}
}

/** @param {string} file @param {number} lines */
export function tailOf(file, lines = 40) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/**
 * Keeps the `keep` newest `run-*` folders under `root` (their names sort by time) and removes the
 * older ones: the logs kept of the e2e and queue-mode runs.
 * @param {string} root @param {number} [keep]
 */
export function pruneRuns(root, keep = 3) {
	const runs = fs
		.readdirSync(root)
		.filter((d) => d.startsWith('run-'))
		.sort();
	for (const old of runs.slice(0, Math.max(0, runs.length - keep)))
		fs.rmSync(path.join(root, old), { recursive: true, force: true });
}

/** @param {string} file */
export function sha256File(file) {
	return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** @param {string} binary */
export function nodeMajorOf(binary) {
	const out = spawnSync(binary, ['--version'], { encoding: 'utf8' });
	if (out.status !== 0) return 0;
	return Number(/^v(\d+)/.exec(out.stdout.trim())?.[1] ?? 0);
}

/**
 * A lock made of a directory, so that `npm start` and the e2e tests never install into the same
 * folder at once. A lock whose owner process is gone is taken over.
 * @template T
 * @param {string} name
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function withLock(name, work) {
	const lockDir = path.join(CACHE_DIR, 'locks', `${name}.lock`);
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	let announced = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
			const owner = lockOwner(lockDir);
			// No pid yet: its owner is between mkdir and write, or was killed there (an old lock).
			const stale = owner === 0 ? Date.now() - lockMadeAt(lockDir) > 10_000 : !isAlive(owner);
			if (stale) {
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!announced) log(`waiting for process ${owner} to finish "${name}"…`);
			announced = true;
			await delay(1000);
		}
	}
	try {
		return await work();
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

/** The pid written in a lock folder, 0 when there is none (yet). @param {string} lockDir */
function lockOwner(lockDir) {
	try {
		return Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8') || 0);
	} catch {
		return 0;
	}
}

/** When the lock folder was made (ms since 1970); now when it is gone. @param {string} lockDir */
function lockMadeAt(lockDir) {
	try {
		return fs.statSync(lockDir).mtimeMs;
	} catch {
		return Date.now();
	}
}

/** @param {number} pid */
export function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/**
 * The ports and the sandbox token of a local n8n + sandbox (`npm start`, `npm run screenshots`):
 * N8N_PORT (5678), N8N_RUNNERS_BROKER_PORT (the next one), SANDBOX_PORT (4010), SANDBOX_TOKEN.
 */
export function localPorts() {
	const n8nPort = Number(process.env.N8N_PORT ?? 5678);
	const ports = {
		n8nPort,
		brokerPort: Number(process.env.N8N_RUNNERS_BROKER_PORT ?? n8nPort + 1),
		sandboxPort: Number(process.env.SANDBOX_PORT ?? 4010),
		sandboxToken: process.env.SANDBOX_TOKEN ?? 'sandbox-token',
	};
	assertDistinctPorts(ports);
	return ports;
}

/**
 * Fails before anything starts when two of the three ports are the same: the task broker takes
 * N8N_PORT + 1 unless N8N_RUNNERS_BROKER_PORT is set, so N8N_PORT=4009 with the sandbox on 4010
 * would collide. The message names the variables and a free choice.
 * @param {{n8nPort: number, brokerPort: number, sandboxPort: number}} ports
 */
export function assertDistinctPorts({ n8nPort, brokerPort, sandboxPort }) {
	const named = [
		['N8N_PORT', n8nPort],
		[
			process.env.N8N_RUNNERS_BROKER_PORT === undefined
				? "n8n's task broker (N8N_RUNNERS_BROKER_PORT, unset: N8N_PORT + 1)"
				: 'N8N_RUNNERS_BROKER_PORT',
			brokerPort,
		],
		['SANDBOX_PORT', sandboxPort],
	];
	for (let i = 0; i < named.length; i++) {
		for (let j = i + 1; j < named.length; j++) {
			if (named[i][1] === named[j][1]) {
				throw new Error(
					`${named[i][0]} and ${named[j][0]} are both ${named[i][1]}: each needs its own port. Set another, e.g. ${j === 2 && i === 0 ? 'SANDBOX_PORT' : 'N8N_RUNNERS_BROKER_PORT'}=${Math.max(n8nPort, brokerPort, sandboxPort) + 1}.`,
				);
			}
		}
	}
}
