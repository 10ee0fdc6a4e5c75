// `npm run test:engine`: the engine tests (test/engine: workflow JSON through n8n-core in this
// process) on Node 24, as n8n 2.41 runs, so that expressions go through n8n's "vm" engine
// (isolated-vm ships a binary for Node 24 only). Node 24 is the one the e2e tests install into the
// cache (FACILITAPAY_CACHE_DIR, else .cache/). FACILITAPAY_ENGINE_NODE=current runs them on this
// Node instead (Node 20: n8n's "legacy" expression engine). Extra arguments go to jest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureNode24 } from './n8n/install.mjs';
import { ROOT } from './n8n/common.mjs';

const node =
	process.env.FACILITAPAY_ENGINE_NODE === 'current' ? process.execPath : await ensureNode24();
const jest = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const result = spawnSync(
	node,
	['--experimental-vm-modules', jest, 'test/engine', ...process.argv.slice(2)],
	{ cwd: ROOT, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
