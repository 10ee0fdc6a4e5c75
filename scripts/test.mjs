// `npm test`: builds the package, then runs its parts side by side and prints one closing line for
// all of them:
//   - the unit, sandbox and integration tests (jest, parallel);
//   - the engine tests of Wait for Payment on n8n-core 1.x (after those, once n8n 1.x is there);
//   - the real-n8n end-to-end tests (test/e2e) in lanes: one jest process per lane, each with its
//     own shared n8n, sandbox, user folder and ports, its files one after another
//     (scripts/e2e-lanes.mjs says which file goes where; a new file is picked up on its own);
//   - the queue-mode tests (one real queue-mode n8n: Redis, Postgres, main, two workers, webhook
//     processor; test/queue/), its files one after another, after the unit tests.
// Most of the real-n8n time is waiting (n8n starting, limits of minutes), so the parts overlap it.
// Each part writes to .cache/test-logs/<part>.log, printed in full when the part ends (the PASS/FAIL
// lines as they come). Extra arguments go to every jest run (e.g. `npm test -- --coverage`).
// FACILITAPAY_E2E=0 skips the real-n8n parts (they need Node 24 and n8n, installed once into
// .cache/); FACILITAPAY_QUEUE=0 skips only the queue-mode part (it also needs redis-server and
// Postgres 17, which it installs: see docs/queue-mode.md); FACILITAPAY_E2E_LANES sets the number
// of e2e lanes (default 3; 1 runs test/e2e in one lane as `npm run test:e2e` does).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAndPackPackage } from './n8n/package.mjs';
import { ensureN8n } from './n8n/install.mjs';
import { e2eFiles, splitIntoLanes } from './e2e-lanes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = path.join(root, '.cache');
const logsDir = path.join(cacheDir, 'test-logs');
fs.mkdirSync(logsDir, { recursive: true });
const extra = process.argv.slice(2);
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const e2eOn = process.env.FACILITAPAY_E2E !== '0';
const queueOn = e2eOn && process.env.FACILITAPAY_QUEUE !== '0';
const laneCount = Math.max(1, Number(process.env.FACILITAPAY_E2E_LANES ?? 3) || 1);
const startedAt = Date.now();
const since = () => `${((Date.now() - startedAt) / 1000).toFixed(0)} s`;

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
	process.on(signal, () => {
		for (const child of children) child.kill(signal);
		setTimeout(() => process.exit(130), 15_000).unref();
	});
}

/** Output of the parts still running: their FAIL lines (and the real-n8n parts' PASS lines) are echoed as they come. */
const watched = new Map();
const watcher = setInterval(() => {
	for (const [file, entry] of watched) echoNewLines(file, entry);
}, 5000);

/** @param {string} file @param {{label: string, progress: boolean, offset: number, rest: string}} entry */
function echoNewLines(file, entry) {
	let text = '';
	try {
		const fd = fs.openSync(file, 'r');
		const size = fs.fstatSync(fd).size;
		if (size > entry.offset) {
			const buffer = Buffer.alloc(size - entry.offset);
			fs.readSync(fd, buffer, 0, buffer.length, entry.offset);
			text = buffer.toString('utf8');
			entry.offset = size;
		}
		fs.closeSync(fd);
	} catch {
		return;
	}
	const lines = (entry.rest + text).split('\n');
	entry.rest = lines.pop() ?? '';
	for (const line of lines)
		if (/^FAIL /.test(line) || (entry.progress && /^PASS /.test(line)))
			console.log(`   [${entry.label}, ${since()}] ${line}`);
}

/**
 * Runs a command with its output to .cache/test-logs/<name>.log; prints the log when it ends, then
 * "== <label>: ok in N s".
 * @param {string} name @param {string} label @param {string} command @param {string[]} args
 * @param {Record<string, string>} [env]
 */
function runPart(name, label, command, args, env = {}) {
	const logFile = path.join(logsDir, `${name}.log`);
	const fd = fs.openSync(logFile, 'w');
	console.log(`== ${label}: started at ${since()} (output: ${path.relative(root, logFile)})`);
	const started = Date.now();
	const child = spawn(command, args, {
		cwd: root,
		stdio: ['ignore', fd, fd],
		env: { ...process.env, ...env },
	});
	fs.closeSync(fd);
	children.add(child);
	watched.set(logFile, { label, progress: name !== 'fast', offset: 0, rest: '' });
	return new Promise((resolve) => {
		child.on('exit', (code, signal) => {
			children.delete(child);
			// Its last lines (written just before it ended), then no more watching.
			const entry = watched.get(logFile);
			if (entry) echoNewLines(logFile, entry);
			watched.delete(logFile);
			const seconds = ((Date.now() - started) / 1000).toFixed(1);
			process.stdout.write(`\n== ${label}: output\n${fs.readFileSync(logFile, 'utf8')}\n`);
			console.log(
				`== ${label}: ${code === 0 ? 'ok' : `failed (exit ${code ?? signal})`} in ${seconds} s (ended at ${since()})`,
			);
			resolve({ ok: code === 0, seconds: Number(seconds) });
		});
	});
}

/**
 * A jest run as a part; its summary is read from its --json output.
 * @param {string} name @param {string} label @param {string[]} args @param {Record<string, string>} env
 */
async function jestPart(name, label, args, env) {
	const resultFile = path.join(cacheDir, `jest-${name}.json`);
	fs.rmSync(resultFile, { force: true });
	const { ok, seconds } = await runPart(
		name,
		label,
		process.execPath,
		['--experimental-vm-modules', jest, ...args, '--json', `--outputFile=${resultFile}`, ...extra],
		env,
	);
	const summary = fs.existsSync(resultFile)
		? JSON.parse(fs.readFileSync(resultFile, 'utf8'))
		: undefined;
	return { ok, seconds, summary };
}

/** "  123 s  test/e2e/x.test.mjs" lines, longest first. @param {any} summary */
function perFile(summary) {
	return (summary?.testResults ?? [])
		.map((/** @type {any} */ r) => ({
			seconds: (r.endTime - r.startTime) / 1000,
			file: path.relative(root, r.name),
		}))
		.sort((/** @type {any} */ a, /** @type {any} */ b) => b.seconds - a.seconds)
		.map((/** @type {any} */ r) => `  ${r.seconds.toFixed(0).padStart(5)} s  ${r.file}`);
}

console.log('\n== build');
const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
console.log(`== build: ${build.status === 0 ? 'ok' : 'failed'} (${since()})`);
if (build.status !== 0) process.exit(1);

/** @type {Record<string, string>} */
const realN8nEnv = {};
if (e2eOn) {
	// Packed once here, before the parts start: they all install this tarball (a part building the
	// package itself would rebuild dist/ under the unit tests' feet).
	realN8nEnv.FACILITAPAY_TARBALL = await buildAndPackPackage({ reuse: true });
}

/** @type {Array<{label: string, ok: boolean, seconds: number, summary?: any}>} */
const results = [];
/** @type {Promise<unknown>[]} */
const running = [];

// n8n 1.x for the engine tests, installed (when not yet in .cache/) beside the unit tests.
const v1Install = e2eOn
	? ensureN8n('v1').then(
			(install) => ({ install }),
			(error) => ({ error }),
		)
	: undefined;
const fastAndEngine = (async () => {
	const label = 'unit, sandbox and integration tests';
	const fast = await jestPart(
		'fast',
		label,
		[
			'--testPathIgnorePatterns',
			'/test/e2e/',
			'/test/queue/',
			'/node_modules/',
			'/dist/',
			'/.cache/',
		],
		{ FACILITAPAY_E2E: '0' },
	);
	results.push({ label, ...fast });
	if (!e2eOn) return;
	// Wait for Payment relies on n8n internals (nodes/FacilitaPay/waiting/engine.ts): its engine
	// tests also run on n8n-core 1.x (installed into .cache/ as for the e2e tests).
	const v1Label = 'engine tests of Wait for Payment on n8n-core 1.x';
	const installed = await v1Install;
	if (!installed || 'error' in installed) {
		console.log(`== ${v1Label}: failed: n8n 1.x could not be installed: ${installed?.error}`);
		results.push({ label: v1Label, ok: false, seconds: 0 });
		return;
	}
	const { dir } = installed.install;
	const v1 = await jestPart(
		'engine-v1',
		v1Label,
		['--forceExit', 'test/engine/operations/transaction/waitForPayment'],
		{ FACILITAPAY_E2E: '0', FACILITAPAY_ENGINE_N8N_DIR: path.join(dir, 'node_modules') },
	);
	results.push({ label: v1Label, ...v1 });
})();
running.push(fastAndEngine);

if (e2eOn) {
	const lanes = splitIntoLanes(e2eFiles(root), laneCount);
	// The files' operation coverage, summed over the lanes (each lane's teardown leaves it to us).
	const coverageFile = path.join(cacheDir, 'e2e', `operations-covered-${process.pid}.jsonl`);
	fs.mkdirSync(path.dirname(coverageFile), { recursive: true });
	fs.rmSync(coverageFile, { force: true });
	const { freePort } = await import('./n8n/processes.mjs');
	const e2eStarted = Date.now();
	const lanesDone = Promise.all(
		lanes.map(async (lane, index) => {
			const label = `real-n8n end-to-end tests, lane ${index + 1}/${lanes.length} (${lane.files.length} files)`;
			const port = String(await freePort());
			const result = await jestPart(
				'e2e-lane-' + (index + 1),
				label,
				['--runInBand', '--runTestsByPath', ...lane.files],
				{
					...realN8nEnv,
					FACILITAPAY_E2E: '1',
					E2E_N8N_PORT: port,
					E2E_N8N_BROKER_PORT: String(await freePort()),
					FACILITAPAY_E2E_COVERAGE_FILE: coverageFile,
				},
			);
			results.push({ label, ...result });
			console.log(`== ${label}, seconds per file:\n${perFile(result.summary).join('\n')}`);
		}),
	).then(async () => {
		console.log(
			`== real-n8n end-to-end tests (${lanes.length} lanes): ended in ${((Date.now() - e2eStarted) / 1000).toFixed(1)} s`,
		);
		const { coverageSummary } = await import('../test/e2e/lib/coverage.mjs');
		for (const line of coverageSummary(coverageFile)) console.log(line);
		fs.rmSync(coverageFile, { force: true });
	});
	running.push(lanesDone);
} else {
	console.log('\n== real-n8n end-to-end tests: skipped (FACILITAPAY_E2E=0)');
}

if (queueOn) {
	running.push(
		(async () => {
			// After the unit tests: started beside them (and the lanes' n8n starts), the cluster's main
			// closed the first API call's connection (1-trigger.test.mjs, 2026-12-06).
			await fastAndEngine;
			const label = 'queue-mode tests (Redis, Postgres, main, 2 workers, webhook processor)';
			const queue = await jestPart(
				'queue',
				label,
				['--config', 'test/queue/jest.config.cjs', '--runInBand'],
				{ ...realN8nEnv, FACILITAPAY_QUEUE: '1' },
			);
			results.push({ label, ...queue });
			console.log(`== ${label}, seconds per file:\n${perFile(queue.summary).join('\n')}`);
		})(),
	);
} else {
	console.log(
		`\n== queue-mode tests: skipped (${e2eOn ? 'FACILITAPAY_QUEUE=0' : 'FACILITAPAY_E2E=0'})`,
	);
}

await Promise.all(running);
clearInterval(watcher);

const total = (/** @type {string} */ key) =>
	results.reduce((sum, r) => sum + (r.summary?.[key] ?? 0), 0);
console.log('');
for (const r of results)
	console.log(`${r.ok ? 'ok    ' : 'FAILED'} ${r.seconds.toFixed(0).padStart(5)} s  ${r.label}`);
console.log(`all parts: ${since()}`);
console.log(
	`test suites: ${total('numPassedTestSuites')} passed, ${total('numFailedTestSuites')} failed`,
);
console.log(
	`${total('numPassedTests')} passed, ${total('numFailedTests')} failed, ${total('numPendingTests')} skipped`,
);
process.exit(results.every((r) => r.ok) ? 0 : 1);
