// Summarises a V8 .cpuprofile (node --cpu-prof): the functions with the most self time, and self
// time by package, optionally only for the samples between two moments (microseconds of the
// profile's clock, which is CLOCK_MONOTONIC: the same as process.hrtime() on the same machine).
//   node bench/cpuprofile-top.mjs FILE.cpuprofile [top=10] [fromMicros toMicros]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Which package a script belongs to, from its URL. @param {string} url */
export function packageOf(url) {
	if (!url) return '(V8/native)';
	if (url.startsWith('node:') || !url.includes('/')) return 'node (built-in)';
	const at = url.lastIndexOf('/node_modules/');
	if (at === -1) return path.basename(url);
	const rest = url.slice(at + '/node_modules/'.length).split('/');
	return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

/**
 * @param {any} profile a parsed .cpuprofile
 * @param {{from?: number, to?: number, top?: number}} [options] window in profile microseconds
 */
export function summarise(profile, { from = -Infinity, to = Infinity, top = 10 } = {}) {
	/** @type {Map<number, any>} */
	const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
	/** @type {Map<number, number>} */
	const selfMicros = new Map();
	let t = profile.startTime;
	const { samples, timeDeltas } = profile;
	let total = 0;
	for (let i = 0; i < samples.length; i++) {
		t += timeDeltas[i];
		if (t < from || t > to) continue;
		// A sample stands for the time until the next one.
		const span = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0;
		selfMicros.set(samples[i], (selfMicros.get(samples[i]) ?? 0) + span);
		total += span;
	}
	/** @type {Map<string, {name: string, where: string, pkg: string, micros: number}>} */
	const byFunction = new Map();
	/** @type {Map<string, number>} */
	const byPackage = new Map();
	let idle = 0;
	for (const [id, micros] of selfMicros) {
		const { callFrame } = nodes.get(id);
		const name = callFrame.functionName || '(anonymous)';
		if (name === '(idle)') {
			idle += micros;
			continue;
		}
		const file = callFrame.url ? callFrame.url.replace(/^file:\/\//, '') : '';
		const pkg = packageOf(file);
		const short = file.includes('/node_modules/')
			? file.slice(file.lastIndexOf('/node_modules/') + 14)
			: file.replace(/^.*\//, '');
		const where = short ? `${short}:${callFrame.lineNumber + 1}` : '';
		const key = `${name}\0${where}`;
		const entry = byFunction.get(key) ?? { name, where, pkg, micros: 0 };
		entry.micros += micros;
		byFunction.set(key, entry);
		byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
	}
	const busy = total - idle;
	return {
		windowMs: total / 1000,
		busyMs: busy / 1000,
		idleMs: idle / 1000,
		functions: [...byFunction.values()]
			.sort((a, b) => b.micros - a.micros)
			.slice(0, top)
			.map((f) => ({ ...f, ms: f.micros / 1000, share: busy > 0 ? f.micros / busy : 0 })),
		packages: [...byPackage.entries()]
			.sort((a, b) => b[1] - a[1])
			.slice(0, top)
			.map(([pkg, micros]) => ({ pkg, ms: micros / 1000, share: busy > 0 ? micros / busy : 0 })),
	};
}

/** Lines of text for a summary. @param {ReturnType<typeof summarise>} s @param {string} title */
export function formatSummary(s, title) {
	const pct = (x) => `${(x * 100).toFixed(1).padStart(5)} %`;
	const lines = [
		`${title}: ${s.busyMs.toFixed(0)} ms of CPU in a ${s.windowMs.toFixed(0)} ms window (idle ${s.idleMs.toFixed(0)} ms)`,
		'  top self time                                                  ms     share  where',
	];
	for (const f of s.functions) {
		lines.push(
			`  ${f.name.slice(0, 56).padEnd(56)} ${f.ms.toFixed(0).padStart(7)}  ${pct(f.share)}  ${f.where}`,
		);
	}
	lines.push('  self time by package');
	for (const p of s.packages)
		lines.push(
			`  ${p.pkg.slice(0, 56).padEnd(56)} ${p.ms.toFixed(0).padStart(7)}  ${pct(p.share)}`,
		);
	return lines;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const [file, top = '10', from, to] = process.argv.slice(2);
	if (!file) {
		console.error(
			'usage: node bench/cpuprofile-top.mjs FILE.cpuprofile [top=10] [fromMicros toMicros]',
		);
		process.exit(2);
	}
	const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
	const s = summarise(profile, {
		top: Number(top),
		from: from ? Number(from) : undefined,
		to: to ? Number(to) : undefined,
	});
	console.log(formatSummary(s, path.basename(file)).join('\n'));
}
