// Jest globalTeardown: stops the shared n8n and sandbox that global-setup.mjs started, keeps the
// run's logs (n8n.log and every CLI call's output, plain text) in .cache/e2e/logs/<run>/ for
// post-mortems (the last three runs), and removes the run's n8n user folders from os.tmpdir()
// (FACILITAPAY_E2E_KEEP=1 keeps them).
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, log, removeUserFolder } from '../../scripts/n8n-runtime.mjs';
import { coverageSummary } from './lib/n8n-e2e.mjs';

export default async function globalTeardown() {
	const shared = /** @type {any} */ (globalThis).__facilitapayE2e;
	if (!shared) return;
	const startedAt = Date.now();
	await shared.n8n
		?.stop()
		.catch((/** @type {Error} */ error) => log(`stopping n8n: ${error.message}`));
	await shared.sandbox
		?.close()
		.catch((/** @type {Error} */ error) => log(`stopping the sandbox: ${error.message}`));
	if (shared.userFolder) {
		try {
			// In a lane of `npm test`, the lanes' sum is printed by scripts/test.mjs.
			if (!process.env.FACILITAPAY_E2E_COVERAGE_FILE)
				for (const line of coverageSummary(shared.userFolder)) process.stdout.write(`${line}\n`);
		} catch (error) {
			log(`operation coverage: ${/** @type {Error} */ (error).message}`);
		}
		const folders = runFolders(shared.userFolder);
		try {
			keepLogs(shared.userFolder, folders);
		} catch (error) {
			log(`keeping the e2e logs: ${/** @type {Error} */ (error).message}`);
		}
		if (process.env.FACILITAPAY_E2E_KEEP === '1') {
			log(`FACILITAPAY_E2E_KEEP=1: n8n user folders kept in ${folders.join(', ')}`);
		} else {
			for (const folder of folders) removeUserFolder(folder);
		}
	}
	log(`e2e environment stopped in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
	delete (/** @type {any} */ (globalThis).__facilitapayE2e);
}

/** The run's folder and its siblings made by tests (e.g. `<run>-v1` for n8n 1.x). @param {string} userFolder */
function runFolders(userFolder) {
	const dir = path.dirname(userFolder);
	const base = path.basename(userFolder);
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((d) => d === base || d.startsWith(`${base}-`))
		.map((d) => path.join(dir, d));
}

/** Copies n8n.log and cli/*.out|.err of each folder to .cache/e2e/logs/<run>/; keeps the last 3 runs. */
function keepLogs(userFolder, folders) {
	const logsRoot = path.join(CACHE_DIR, 'e2e', 'logs');
	const target = path.join(logsRoot, path.basename(userFolder));
	for (const folder of folders) {
		const suffix = path.basename(folder).slice(path.basename(userFolder).length).replace(/^-/, '');
		const out = suffix ? path.join(target, suffix) : target;
		fs.mkdirSync(out, { recursive: true });
		if (fs.existsSync(path.join(folder, 'n8n.log')))
			fs.copyFileSync(path.join(folder, 'n8n.log'), path.join(out, 'n8n.log'));
		const cliDir = path.join(folder, 'cli');
		if (fs.existsSync(cliDir)) {
			fs.mkdirSync(path.join(out, 'cli'), { recursive: true });
			for (const f of fs.readdirSync(cliDir).filter((name) => /\.(out|err)$/.test(name))) {
				fs.copyFileSync(path.join(cliDir, f), path.join(out, 'cli', f));
			}
		}
	}
	const runs = fs
		.readdirSync(logsRoot)
		.filter((d) => d.startsWith('run-'))
		.sort();
	for (const old of runs.slice(0, Math.max(0, runs.length - 3)))
		fs.rmSync(path.join(logsRoot, old), { recursive: true, force: true });
	log(`e2e logs kept in ${path.relative(process.cwd(), target) || target}`);
}
