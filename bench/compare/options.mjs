// What a run of bench/n8n-compare.mjs measures, read from the environment (see that file's head).
import path from 'node:path';
import { ROOT } from '../../scripts/n8n-runtime.mjs';

/** The parts of the benchmark, in the order they run. */
export const PARTS = [
	'latency',
	'neutral',
	'payout',
	'ratelimit',
	'signin',
	'returnall',
	'profile',
	'before',
];

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {{items: number, latencyMs: number, high: number, rate: number, people: number, before: string|null, only: Set<string>, keep: boolean, profileRoot: string, debug: boolean}}
 */
export function readOptions(env = process.env) {
	const before = env.BENCH_BEFORE && env.BENCH_BEFORE !== 'none' ? env.BENCH_BEFORE : null;
	const only = new Set(
		(env.BENCH_ONLY ?? PARTS.join(','))
			.split(',')
			.map((s) => s.trim())
			.filter(Boolean),
	);
	const unknown = [...only].filter((part) => !PARTS.includes(part));
	if (unknown.length > 0)
		throw new Error(`BENCH_ONLY: unknown part ${unknown.join(', ')} (parts: ${PARTS.join(', ')})`);
	if (!before && env.BENCH_ONLY?.split(',').some((s) => s.trim() === 'before'))
		throw new Error('BENCH_ONLY=before needs BENCH_BEFORE=<commit> (the build to compare with)');
	// "before" runs only when a commit is named: no build is compared with by default.
	if (!before) only.delete('before');
	return {
		items: Number(env.BENCH_ITEMS ?? 1000),
		latencyMs: Number(env.BENCH_LATENCY_MS ?? 50),
		high: Number(env.BENCH_HIGH ?? 100),
		rate: Number(env.BENCH_RATE ?? 20),
		people: Number(env.BENCH_PEOPLE ?? 10_000),
		before,
		only,
		keep: env.BENCH_KEEP === '1',
		profileRoot: env.BENCH_OUT ? path.resolve(env.BENCH_OUT) : path.join(ROOT, '.cache', 'bench'),
		debug: Boolean(env.BENCH_DEBUG),
	};
}
