/**
 * Prints request throughput of the sandbox (in-process, loopback, sequential and 8 concurrent
 * clients). Run: node sandbox/bench.mjs [requests]
 */
import { createSandbox } from './server.mjs';

const requestCount = Number(process.argv[2] ?? 2000);
const sb = await createSandbox({ port: 0, now: '2025-03-10T12:00:00Z' });
await sb.listen();
const headers = { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' };
const person = await (
	await fetch(`${sb.url}/api/v1/subject/people`, {
		method: 'POST',
		headers,
		body: JSON.stringify({
			person: {
				document_type: 'cpf',
				document_number: '39053344705',
				social_name: 'Maria da Silva',
				fiscal_country: 'BR',
			},
		}),
	})
).json();
const pix = JSON.stringify({
	transaction: {
		subject_id: person.data.id,
		from_bank_account_id: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
		to_bank_account_id: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
		currency: 'BRL',
		exchange_currency: 'BRL',
		value: '10.00',
		use_dynamic_pix: true,
	},
});

async function measure(name, concurrency, fn) {
	const start = performance.now();
	let next = 0;
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next++ < requestCount) await fn();
		}),
	);
	const ms = performance.now() - start;
	console.log(
		`${name.padEnd(42)} ${requestCount} requests, concurrency ${concurrency}: ${(requestCount / (ms / 1000)).toFixed(0)} req/s (${(ms / requestCount).toFixed(2)} ms/request)`,
	);
}

for (const concurrency of [1, 8]) {
	await measure('GET /subject/people', concurrency, async () =>
		(await fetch(`${sb.url}/api/v1/subject/people`, { headers })).text(),
	);
	await measure('POST /transactions (dynamic PIX)', concurrency, async () =>
		(await fetch(`${sb.url}/api/v1/transactions`, { method: 'POST', headers, body: pix })).text(),
	);
}
const t0 = performance.now();
const result = await sb.clock.advance(2 * 3600 * 1000);
console.log(
	`clock advance 2 h (expires ${result.tasks_run} dynamic PIX): ${(performance.now() - t0).toFixed(0)} ms`,
);
await sb.close();
