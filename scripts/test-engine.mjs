// `npm run test:engine`: the engine tests (test/engine: workflow JSON through n8n-core in this
// process) on Node 24, as n8n 2.41 runs, so that expressions go through n8n's "vm" engine
// (isolated-vm ships a binary for Node 24 only). Node 24 is the one the e2e tests install into the
// cache (FACILITAPAY_CACHE_DIR, else .cache/). FACILITAPAY_ENGINE_NODE=current runs them on this
// Node instead (Node 20: n8n's "legacy" expression engine). Extra arguments go to jest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureN8n, ensureNode24 } from './n8n/install.mjs';
import { ROOT } from './n8n/common.mjs';

// FACILITAPAY_ENGINE_N8N=v1: n8n-core and n8n-workflow of n8n 1.x (installed into the cache as for
// the e2e tests), on this Node (n8n 1.x runs on Node 20, its "legacy" expression engine).
const v1 = process.env.FACILITAPAY_ENGINE_N8N === 'v1';
const env = { ...process.env };
if (v1) env.FACILITAPAY_ENGINE_N8N_DIR = path.join((await ensureN8n('v1')).dir, 'node_modules');
const node =
	v1 || process.env.FACILITAPAY_ENGINE_NODE === 'current' ? process.execPath : await ensureNode24();
const jest = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const result = spawnSync(
	node,
	[
		'--experimental-vm-modules',
		jest,
		// n8n-core 1.x leaves a handle open after the last test (its engine, not the package's).
		...(v1 ? ['--forceExit'] : []),
		// Paths given (e.g. one test file) narrow the run; otherwise every engine test.
		...(process.argv.slice(2).some((arg) => !arg.startsWith('-')) ? [] : ['test/engine']),
		...process.argv.slice(2),
	],
	{ cwd: ROOT, stdio: 'inherit', env },
);
process.exit(result.status ?? 1);
