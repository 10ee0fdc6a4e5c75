// What one expression isolate costs n8n 2.x: with its default `vm` expression engine, n8n builds one
// for every webhook request to a trigger node other than its own Webhook node (docs/trigger.md,
// "Under load"), before the node runs. Builds bridges the way n8n's pool does (n8n's own
// @n8n/expression-runtime, on n8n's Node 24) and prints the wall and CPU time each took, one at a
// time and 20 in a row. Prints numbers; asserts nothing.
//
//   node bench/n8n-isolate.mjs
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { ensureN8n } from '../scripts/n8n-runtime.mjs';

const install = await ensureN8n('v2');
const runtime = path.join(
	install.dir,
	'node_modules',
	'@n8n',
	'expression-runtime',
	'dist',
	'cjs',
	'index.js',
);
const script = `
const { IsolatedVmBridge } = require(${JSON.stringify(runtime)});
(async () => {
	for (const count of [1, 1, 20]) {
		const started = process.hrtime.bigint();
		const cpu = process.cpuUsage();
		const bridges = [];
		for (let n = 0; n < count; n++) {
			const bridge = new IsolatedVmBridge({});
			await bridge.initialize();
			bridges.push(bridge);
		}
		const wall = Number(process.hrtime.bigint() - started) / 1e6 / count;
		const used = process.cpuUsage(cpu);
		const cpuMs = (used.user + used.system) / 1000 / count;
		console.log(\`\${String(count).padStart(2)} isolate(s): \${wall.toFixed(1)} ms wall and \${cpuMs.toFixed(1)} ms CPU each\`);
		for (const bridge of bridges) await bridge.dispose();
	}
})().catch((error) => { console.error(error); process.exit(1); });
`;
const run = spawnSync(install.nodeBin, ['-e', script], { encoding: 'utf8' });
process.stdout.write(run.stdout);
process.stderr.write(run.stderr);
process.exitCode = run.status ?? 1;
