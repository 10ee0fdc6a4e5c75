// `npm test`: builds the package, runs the unit, sandbox and integration tests (parallel), then the
// real-n8n end-to-end tests (one process, one shared n8n), then the queue-mode tests (one real
// queue-mode n8n: Redis, Postgres, main, two workers, webhook processor; test/queue/), and prints
// one closing line for all. Extra arguments go to every jest run (e.g. `npm test -- --coverage`).
// FACILITAPAY_E2E=0 skips the real-n8n parts (they need Node 24 and n8n, installed once into .cache/);
// FACILITAPAY_QUEUE=0 skips only the queue-mode part (it also needs redis-server and Postgres 17,
// which it installs: see docs/queue-mode.md).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureN8n } from './n8n/install.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = path.join(root, '.cache');
fs.mkdirSync(cacheDir, { recursive: true });
const extra = process.argv.slice(2);
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');

function run(label, command, args, env = {}) {
	console.log(`\n== ${label}`);
	const started = Date.now();
	const result = spawnSync(command, args, {
		cwd: root,
		stdio: 'inherit',
		env: { ...process.env, ...env },
	});
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.log(
		`== ${label}: ${result.status === 0 ? 'ok' : `failed (exit ${result.status ?? result.signal})`} in ${seconds} s`,
	);
	return result.status === 0;
}

function jestRun(label, args, resultFile, env) {
	fs.rmSync(resultFile, { force: true });
	const ok = run(
		label,
		process.execPath,
		['--experimental-vm-modules', jest, ...args, '--json', `--outputFile=${resultFile}`, ...extra],
		env,
	);
	const summary = fs.existsSync(resultFile)
		? JSON.parse(fs.readFileSync(resultFile, 'utf8'))
		: undefined;
	return { ok, summary };
}

const results = [];
let ok = run('build', 'npm', ['run', 'build', '--silent']);
if (ok) {
	const fast = jestRun(
		'unit, sandbox and integration tests',
		[
			'--testPathIgnorePatterns',
			'/test/e2e/',
			'/test/queue/',
			'/node_modules/',
			'/dist/',
			'/.cache/',
		],
		path.join(cacheDir, 'jest-fast.json'),
		{ FACILITAPAY_E2E: '0' },
	);
	results.push(fast.summary);
	ok = fast.ok;
	if (process.env.FACILITAPAY_E2E !== '0') {
		// Wait for Payment relies on n8n internals (nodes/FacilitaPay/waiting/engine.ts): its engine
		// tests also run on n8n-core 1.x (installed into .cache/ as for the e2e tests).
		const { dir } = await ensureN8n('v1');
		const v1 = jestRun(
			'engine tests of Wait for Payment on n8n-core 1.x',
			['--forceExit', 'test/engine/operations/transaction/waitForPayment'],
			path.join(cacheDir, 'jest-engine-v1.json'),
			{ FACILITAPAY_E2E: '0', FACILITAPAY_ENGINE_N8N_DIR: path.join(dir, 'node_modules') },
		);
		results.push(v1.summary);
		ok = ok && v1.ok;
		const e2e = jestRun(
			'real-n8n end-to-end tests',
			['--runInBand', 'test/e2e'],
			path.join(cacheDir, 'jest-e2e.json'),
			{
				FACILITAPAY_E2E: '1',
			},
		);
		results.push(e2e.summary);
		ok = ok && e2e.ok;
	} else {
		console.log('\n== real-n8n end-to-end tests: skipped (FACILITAPAY_E2E=0)');
	}
	if (process.env.FACILITAPAY_E2E !== '0' && process.env.FACILITAPAY_QUEUE !== '0') {
		const queue = jestRun(
			'queue-mode tests (Redis, Postgres, main, 2 workers, webhook processor)',
			['--config', 'test/queue/jest.config.cjs', '--runInBand'],
			path.join(cacheDir, 'jest-queue.json'),
			{ FACILITAPAY_QUEUE: '1' },
		);
		results.push(queue.summary);
		ok = ok && queue.ok;
	} else {
		console.log(
			`\n== queue-mode tests: skipped (${process.env.FACILITAPAY_E2E === '0' ? 'FACILITAPAY_E2E=0' : 'FACILITAPAY_QUEUE=0'})`,
		);
	}
}

const total = (key) => results.reduce((sum, r) => sum + (r?.[key] ?? 0), 0);
console.log('');
console.log(
	`test suites: ${total('numPassedTestSuites')} passed, ${total('numFailedTestSuites')} failed`,
);
console.log(
	`${total('numPassedTests')} passed, ${total('numFailedTests')} failed, ${total('numPendingTests')} skipped`,
);
process.exit(ok ? 0 : 1);
