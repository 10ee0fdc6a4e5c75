// CPU profiles of the n8n process (`node --cpu-prof`), cut to the window in which the node ran.
import fs from 'node:fs';
import path from 'node:path';
import { summarise } from '../cpuprofile-top.mjs';

/** Maps a wall-clock time (ms since 1970) to the profile clock (CLOCK_MONOTONIC µs). @param {number} epochMs */
export function monotonicMicros(epochMs) {
	const nowEpochMicros = Date.now() * 1000;
	const nowMonoMicros = Number(process.hrtime.bigint() / 1000n);
	return epochMs * 1000 - (nowEpochMicros - nowMonoMicros);
}

/** NODE_OPTIONS that make n8n write its profile into `dir`. @param {string} dir */
export function profilerEnv(dir) {
	fs.mkdirSync(dir, { recursive: true });
	return { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` };
}

/**
 * The biggest profile in `dir` (the n8n process; the task runner's, if any, is small), summarised
 * over the node's run and over the part before its first request (every item read and checked).
 * @param {string} dir
 * @param {{startTime: number, executionTime: number}} task  the node's task in n8n's run data
 * @param {number|undefined} firstRequestAfterMs
 */
export function nodeProfile(dir, task, firstRequestAfterMs) {
	const biggest = fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.cpuprofile'))
		.map((f) => path.join(dir, f))
		.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
	if (!biggest) return {};
	const parsed = JSON.parse(fs.readFileSync(biggest, 'utf8'));
	const from = monotonicMicros(task.startTime);
	return {
		profile: summarise(parsed, { from, to: from + task.executionTime * 1000, top: 10 }),
		prepareProfile:
			firstRequestAfterMs === undefined
				? undefined
				: summarise(parsed, { from, to: from + firstRequestAfterMs * 1000, top: 5 }),
		profileFile: biggest,
	};
}
