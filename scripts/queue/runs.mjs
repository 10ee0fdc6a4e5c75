// The queue-mode runs' folders ($TMPDIR/facilitapay-queue/run-<time>-<owner pid>/, outside the
// repository like the e2e runs': see docs/real-n8n.md) and the clean-up of runs killed outright.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandLineOf, isAlive, killGroup, log } from '../n8n-runtime.mjs';

/** Where the queue-mode runs' folders go. `FACILITAPAY_QUEUE_DIR` changes it. */
export const QUEUE_RUNS_DIR = process.env.FACILITAPAY_QUEUE_DIR
	? path.resolve(process.env.FACILITAPAY_QUEUE_DIR)
	: path.join(os.tmpdir(), 'facilitapay-queue');

/** A new, empty run folder owned by this process. */
export function newRunDir() {
	const runDir = path.join(
		QUEUE_RUNS_DIR,
		`run-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`,
	);
	fs.mkdirSync(runDir, { recursive: true });
	return runDir;
}

/** The file listing, one pid a line, every process started for the run. @param {string} runDir */
export const pidsFileOf = (runDir) => path.join(runDir, 'pids');

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
		const pids = pidsFileOf(folder);
		if (fs.existsSync(pids)) {
			for (const pid of fs.readFileSync(pids, 'utf8').split('\n').map(Number).filter(Boolean)) {
				// Only a process that is still one of ours (the pid may have been reused since).
				const cmdline = commandLineOf(pid);
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
