// The benchmark's report on stdout: one table row per run, the targets of issue 20 beside what was
// measured, and the CPU profiles.
import { formatSummary } from '../cpuprofile-top.mjs';
import { fmt, say } from './output.mjs';

/**
 * @param {import('./runs.mjs').Results} results
 * @param {import('./runs.mjs').Options} options
 */
export function printReport({ rows, extra, profiles }, options) {
	printTable(rows);
	printTargets(rows, extra, options);
	for (const { title, r } of profiles) printProfile(title, r, options.items);
}

/** @param {any[]} rows */
function printTable(rows) {
	say();
	say(
		'| Run | items/s | node ms | 1st request after ms | requests received | 429s | most tries of one item | duplicates | max in flight | created | items ok / failed |',
	);
	say('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
	for (const r of rows) {
		say(
			`| ${r.label} | ${fmt(r.itemsPerSecond, 1)} | ${fmt(r.ms)} | ${fmt(r.firstRequestAfterMs)} | ${r.requests} | ${r.limited} | ${r.maxTries} | ${r.duplicates} | ${r.maxInFlight} | ${r.created} | ${r.ok} / ${r.failed}${r.nodeError ? ` (node error: ${r.nodeError.slice(0, 80)})` : ''} |`,
		);
	}
	say();
	for (const line of [
		"items/s: items ÷ the node's own execution time in n8n's run data (node ms). 1st request after: from the node's start to the",
		'first request the sandbox received (reading and checking the items). requests, 429s, max in flight (a gauge in sandbox/rateLimit.mjs:',
		'requests from arrival, injected latency included, to the answer) and duplicates (the same POST body answered 2xx more than once)',
		'are counted by the sandbox; most tries: the most times one request body was sent (our node gives up on an item after 12 × 429);',
		'created: subjects or transactions the sandbox holds after the run.',
	])
		say(line);
}

/**
 * @param {any[]} rows @param {string[]} extra
 * @param {import('./runs.mjs').Options} options
 */
function printTargets(rows, extra, { items, high, rate, people }) {
	const by = (/** @type {string} */ prefix) => rows.find((r) => r.label.startsWith(prefix));
	const ratio = (/** @type {any} */ a, /** @type {any} */ b) =>
		a && b ? `${(a.itemsPerSecond / b.itemsPerSecond).toFixed(2)}×` : '–';
	const c1 = by('Subject create: FacilitaPay, Max Parallel Requests 1');
	const cd = by('Subject create: FacilitaPay, default');
	const ch = by(`Subject create: FacilitaPay, Max Parallel Requests ${high}`);
	const http = by('Subject create: HTTP Request');
	const limited = by(`Payout at ${rate} req/s: FacilitaPay`);
	const duplicates = rows.reduce((sum, r) => sum + r.duplicates, 0);
	say();
	say('Targets (issue 20):');
	if (cd && c1) say(`  default vs Max Parallel Requests 1: ${ratio(cd, c1)} (target ≥ 8×)`);
	if (ch && http)
		say(
			`  Max Parallel Requests ${high} vs HTTP Request node: ${ratio(ch, http)} (target ≥ 1.00×)`,
		);
	if (cd && http) say(`  default vs HTTP Request node: ${ratio(cd, http)}`);
	const nh = by(`Neutral stand-in, Subject create: FacilitaPay, Max Parallel Requests ${high}`);
	const nhttp = by('Neutral stand-in, Subject create: HTTP Request');
	if (nh && nhttp)
		say(
			`  on the neutral stand-in (n8n, not the service, the limit): Max Parallel Requests ${high} vs HTTP Request node: ${ratio(nh, nhttp)} (target ≥ 1.00×, issue 27)`,
		);
	if (limited) {
		const share = limited.requests ? (100 * limited.limited) / limited.requests : 0;
		say(
			`  at ${rate} req/s: ${limited.ok}/${items} items succeeded at ${fmt(limited.itemsPerSecond, 1)} items/s, ${limited.limited} of ${limited.requests} requests answered 429 (${fmt(share, 1)} %) (target ${items}/${items} at ≥ 19 items/s, ≤ 5 % answered 429)`,
		);
	}
	say(`  duplicate creates over all runs: ${duplicates} (target 0)`);
	for (const line of extra) {
		say(
			`  ${line} (target: ${line.startsWith('Return All') ? `exactly ${people / 100 + 1} requests` : 'at most 2 sign-ins per token expiry'})`,
		);
	}
}

/** @param {string} title @param {any} r @param {number} items */
function printProfile(title, r, items) {
	say();
	if (!r.profile) {
		say(`${title}: no profile was written`);
		return;
	}
	say(
		`CPU profile of the n8n process (n8n execute), only the samples while the node ran; ${fmt(r.profile.busyMs / items, 2)} ms of CPU per item`,
	);
	for (const line of formatSummary(r.profile, title)) say(line);
	if (r.prepareProfile) {
		const lines = formatSummary(
			r.prepareProfile,
			`  of which before the first request reached the sandbox (${fmt(r.firstRequestAfterMs)} ms)`,
		);
		for (const line of lines) say(`  ${line}`);
	}
	say(`  file: ${r.profileFile}`);
}
