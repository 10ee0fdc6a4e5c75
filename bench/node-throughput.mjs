// Benchmark: how fast the compiled FacilitaPay node turns items into requests, and what memory it
// holds, against the in-process sandbox over real HTTP. Prints numbers; asserts nothing.
//   npm run build && node bench/node-throughput.mjs [items=1000]
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';

import { createSandbox } from '../sandbox/server.mjs';
import { personParameters } from '../test/fixtures/subjects.js';
import { control, runAction, sandboxCredentials } from '../test/integration/lib/harness.mjs';
import { INVALID_CPF_PERSON, dynamicPixParameters } from '../test/integration/lib/parameters.mjs';

const require = createRequire(import.meta.url);
const items = Number(process.argv[2] ?? 1000);
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

const sandbox = await createSandbox({ port: 0 });
await sandbox.listen();
const sb = control(sandbox.url);
const credentials = sandboxCredentials(sandbox.url);

function cpf(seed) {
	const d = String(100000000 + seed)
		.slice(-9)
		.split('')
		.map(Number);
	const dv = (digits, weight) => {
		const r = (digits.reduce((s, x, i) => s + x * (weight - i), 0) * 10) % 11;
		return r === 10 ? 0 : r;
	};
	d.push(dv(d, 10));
	d.push(dv(d, 11));
	return d.join('');
}

async function measure(label, parameters, count, continueOnFail = false) {
	global.gc?.();
	const before = process.memoryUsage();
	const started = performance.now();
	const { output } = await runAction({ credentials, parameters, continueOnFail });
	const ms = performance.now() - started;
	const after = process.memoryUsage();
	console.log(
		`${label.padEnd(44)} ${String(count).padStart(6)} items  ${(ms / count).toFixed(3).padStart(7)} ms/item  ${Math.round(
			(count * 1000) / ms,
		)
			.toString()
			.padStart(
				6,
			)} items/s  heap ${mb(after.heapUsed)} MB (Δ ${mb(after.heapUsed - before.heapUsed)})  rss ${mb(after.rss)} MB`,
	);
	return output;
}

console.log(`node ${process.version}, ${items} items per run, sandbox ${sandbox.url}`);
const people = await measure(
	'Subject > Create or Update',
	Array.from({ length: items }, (_, k) =>
		personParameters({}, { documentNumber: cpf(k + 1), socialName: `Person ${k}` }),
	),
	items,
);
await measure(
	'Transaction > Create Dynamic PIX',
	people.map((p) => dynamicPixParameters(p.json.id, '10.00')),
	items,
);
await measure(
	'Subject > Get Many (Return All, pages of 100)',
	{ resource: 'subject', operation: 'getMany', returnAll: true, simplify: true },
	items,
);
await measure(
	'Invalid CPF refused (Continue On Fail)',
	Array.from({ length: items }, () => INVALID_CPF_PERSON),
	items,
	true,
);

// Pure validation, no HTTP.
const { checkCpf } = require('../dist/nodes/FacilitaPay/validation/documents.js');
const { checkMoney } = require('../dist/nodes/FacilitaPay/validation/amount.js');
const n = 200_000;
let t = performance.now();
for (let k = 0; k < n; k++) checkCpf(cpf(k));
console.log(
	`checkCpf                                     ${n} calls  ${(((performance.now() - t) * 1000) / n).toFixed(2)} µs/call`,
);
t = performance.now();
for (let k = 0; k < n; k++) checkMoney(`${k}.${String(k % 100).padStart(2, '0')}`);
console.log(
	`checkMoney                                   ${n} calls  ${(((performance.now() - t) * 1000) / n).toFixed(2)} µs/call`,
);
console.log(`sandbox received ${(await sb.received()).length} requests`);
await sandbox.close();
