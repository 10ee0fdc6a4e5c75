// Redis for the queue-mode cluster: Debian's redis-server (installed with apt-get when missing and
// this process may), started on loopback without persistence.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CACHE_DIR, cleanEnv, freePort, log, run, spawnGroup } from '../n8n-runtime.mjs';

/** @param {string} command */
function which(command) {
	const out = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
	return out.status === 0 ? out.stdout.trim() : null;
}

/**
 * Path of `redis-server`. When it is missing and this process is root on Debian/Ubuntu (or has
 * passwordless sudo), installs Debian's package (`apt-get update && apt-get install -y
 * redis-server`); otherwise throws with what to do.
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

/**
 * Starts Redis on a free loopback port, no persistence, its folder and log in `runDir`. Not waited
 * for: pass `ready()` to waitReady().
 * @param {string} bin
 * @param {string} runDir
 */
export async function startRedis(bin, runDir) {
	const port = await freePort();
	const dir = path.join(runDir, 'redis');
	fs.mkdirSync(dir, { recursive: true });
	const proc = spawnGroup(
		'redis',
		bin,
		[
			...['--port', String(port), '--bind', '127.0.0.1', '--protected-mode', 'yes'],
			...['--save', '', '--appendonly', 'no', '--dir', dir],
		],
		{ cwd: dir, env: cleanEnv(), logFile: path.join(runDir, 'redis.log') },
	);
	return { proc, port, ready: () => redisPing(port) };
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
