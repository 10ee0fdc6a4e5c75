// A real n8n 2.41.1 of a bench's own (regular mode, SQLite) with this package and a private
// sandbox: the set-up and clean-up bench/waiting.mjs and bench/waiting-n8n-wait.mjs share, and
// where their figures are written.
import fs from 'node:fs';
import path from 'node:path';
import {
	CACHE_DIR,
	E2E_RUNS_DIR,
	buildAndPackPackage,
	removeUserFolder,
} from '../../scripts/n8n-runtime.mjs';
import { ownN8n } from '../../test/e2e/lib/own-n8n.mjs';

/**
 * Starts it. `BENCH_N8N_ENV` (JSON) and `BENCH_N8N_NODE_OPTIONS` add to n8n's environment;
 * `stop()` stops n8n and the sandbox and removes the folders unless `BENCH_KEEP=1`.
 * @param {string} label @param {{id: string, name: string}} sandbox
 */
export async function benchN8n(label, sandbox) {
	const tarball = process.env.FACILITAPAY_TARBALL ?? (await buildAndPackPackage({ reuse: true }));
	const userFolder = path.join(E2E_RUNS_DIR, `${label}-${Date.now()}-${process.pid}`);
	fs.mkdirSync(userFolder, { recursive: true });
	const state = /** @type {any} */ ({
		version: 'v2',
		userFolder,
		tarball,
		sandboxToken: 'sandbox-token',
		missing: [],
	});
	/** @type {Awaited<ReturnType<typeof ownN8n>> | null} */
	let own = null;
	try {
		own = await ownN8n(state, {
			version: 'v2',
			suffix: 'n8n',
			sandbox,
			// e.g. '{"N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE":"true"}'; "--cpu-prof --cpu-prof-dir=DIR"
			env: {
				...(process.env.BENCH_N8N_ENV ? JSON.parse(process.env.BENCH_N8N_ENV) : {}),
				...(process.env.BENCH_N8N_NODE_OPTIONS
					? { NODE_OPTIONS: process.env.BENCH_N8N_NODE_OPTIONS }
					: {}),
			},
		});
	} catch (error) {
		removeUserFolder(userFolder);
		throw error;
	}
	const started = own;
	return {
		own: started,
		async stop() {
			await started.stop().catch(() => undefined);
			await started.sb.close().catch(() => undefined);
			if (process.env.BENCH_KEEP !== '1') {
				removeUserFolder(started.userFolder);
				removeUserFolder(userFolder);
			}
		},
	};
}

/**
 * Writes a bench's figures as JSON (BENCH_OUT, default .cache/bench) and returns the file.
 * @param {string} name @param {unknown} figures
 */
export function writeFigures(name, figures) {
	const out = process.env.BENCH_OUT ?? path.join(CACHE_DIR, 'bench');
	fs.mkdirSync(out, { recursive: true });
	const file = path.join(out, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
	fs.writeFileSync(file, JSON.stringify(figures, null, 2));
	return file;
}
