// A long-running process in its own process group (n8n, Redis, Postgres): started with its output in
// a log file, waited for until it is ready, and stopped by signalling the whole group, so that what
// it spawned (n8n's task runner) goes with it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { delay, tailOf } from './common.mjs';

/**
 * @typedef {{
 *   name: string, pid: number, logFile: string,
 *   exited: () => {code: number|null, signal: NodeJS.Signals|null} | null,
 *   stop: () => Promise<void>
 * }} GroupProcess
 */

/** @param {number} pid @param {NodeJS.Signals} signal */
export function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {
		/* already gone */
	}
}

/**
 * Spawns `command` as the leader of a new process group, output appended to `logFile`. `stop()`
 * sends SIGTERM to the group, SIGKILL after `stopTimeoutMs`, and SIGKILL once more to whatever of
 * the group outlived its leader.
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd: string, env: Record<string,string>, logFile: string, stopTimeoutMs?: number}} options
 * @returns {GroupProcess}
 */
export function spawnGroup(name, command, args, { cwd, env, logFile, stopTimeoutMs = 20_000 }) {
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const fd = fs.openSync(logFile, 'a');
	fs.writeSync(fd, `\n=== ${name} ${new Date().toISOString()}: ${command} ${args.join(' ')} ===\n`);
	const child = spawn(command, args, { cwd, env, stdio: ['ignore', fd, fd], detached: true });
	fs.closeSync(fd);
	const pid = /** @type {number} */ (child.pid);
	/** @type {{code: number|null, signal: NodeJS.Signals|null} | null} */
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
		/** @type {NodeJS.Timeout | undefined} */
		let timer;
		const outcome = await Promise.race([
			exitPromise,
			new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), stopTimeoutMs))),
		]);
		clearTimeout(timer);
		if (outcome === 'timeout') {
			killGroup(pid, 'SIGKILL');
			await exitPromise;
		}
		killGroup(pid, 'SIGKILL');
	};
	return { name, pid, logFile, stop, exited: () => exited };
}

/**
 * Polls `check` until it resolves truthy; returns the seconds it took. Throws with the log's tail
 * when the process exits first, or (after stopping it) when `timeoutMs` passes.
 * @param {GroupProcess} proc
 * @param {() => Promise<boolean>} check
 * @param {number} [timeoutMs]
 */
export async function waitReady(proc, check, timeoutMs = 180_000) {
	const startedAt = Date.now();
	for (;;) {
		if (proc.exited()) {
			throw new Error(
				`${proc.name} exited during start-up (${JSON.stringify(proc.exited())}).\n--- ${proc.logFile} ---\n${tailOf(proc.logFile, 40)}`,
			);
		}
		if (Date.now() - startedAt > timeoutMs) {
			await proc.stop();
			throw new Error(
				`${proc.name} was not ready after ${timeoutMs / 1000} s.\n--- ${proc.logFile} ---\n${tailOf(proc.logFile, 40)}`,
			);
		}
		if (await check().catch(() => false)) return (Date.now() - startedAt) / 1000;
		await delay(250);
	}
}

/** Whether a GET of `url` answers 2xx. @param {string} url */
export async function httpOk(url) {
	const response = await fetch(url);
	return response.ok;
}

/**
 * The pid's command line (NUL-separated), or '' when the process is gone or unreadable.
 * @param {number} pid
 */
export function commandLineOf(pid) {
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
	} catch {
		return '';
	}
}
