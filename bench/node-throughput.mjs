// Benchmark: how fast the compiled FacilitaPay node turns items into requests, and what memory it
// holds, against the in-process sandbox over real HTTP. Prints numbers; asserts nothing.
//   npm run build && node bench/node-throughput.mjs [items=1000]
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';

import { createSandbox } from '../sandbox/server.mjs';
import { control, runAction, sandboxCredentials } from '../test/integration/lib/harness.mjs';

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
	Array.from({ length: items }, (_, k) => ({
		resource: 'subject',
		operation: 'create',
		documentType: 'cpf',
		documentNumber: cpf(k + 1),
		socialName: `Person ${k}`,
		fiscalCountry: 'BR',
		additionalFields: {},
	})),
	items,
);
await measure(
	'Transaction > Create Dynamic PIX',
	people.map((p) => ({
		resource: 'transaction',
		operation: 'createDynamicPix',
		subjectId: p.json.id,
		fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
		toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000006',
		exchangeCurrency: 'BRL',
		value: '10.00',
		dynamicPixExpiresAt: new Date(Date.now() + 3600_000).toISOString(),
	})),
	items,
);
await measure(
	'Subject > Get Many (Return All, pages of 100)',
	{ resource: 'subject', operation: 'getMany', returnAll: true, simplify: true },
	items,
);
await measure(
	'Invalid CPF refused (Continue On Fail)',
	Array.from({ length: items }, () => ({
		resource: 'subject',
		operation: 'create',
		documentType: 'cpf',
		documentNumber: '23100299900',
		socialName: 'X Y',
		fiscalCountry: 'BR',
		additionalFields: {},
	})),
	items,
	true,
);

// Pure validation, no HTTP.
const { checkCpf } = require('../dist/nodes/FacilitaPay/validation/documents.js');
const { checkMoney } = require('../dist/nodes/FacilitaPay/validation/money.js');
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
