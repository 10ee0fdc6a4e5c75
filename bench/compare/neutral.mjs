// A neutral stand-in for FacilitaPay: a plain HTTP server that answers every API request after a
// fixed delay (BENCH_LATENCY_MS) with a small fixed-shape JSON, and checks nothing. Beside it the
// FacilitaPay node and n8n's HTTP Request node are measured where n8n, not the service, is the
// limit: the sandbox validates every body and becomes the bottleneck the HTTP Request node meets
// when it sends 1,000 requests at once.
import http from 'node:http';
import { randomUUID } from 'node:crypto';

/**
 * Starts the stand-in on a free loopback port.
 * @param {{latencyMs: number}} options
 */
export async function startNeutralServer({ latencyMs }) {
	/** @type {Array<{method: string, url: string, status: number, body: unknown, at: number}>} */
	let log = [];
	let inFlight = 0;
	let maxInFlight = 0;
	/** @type {number|null} */
	let firstArrivalAt = null;
	/** @type {number|null} */
	let lastAnswerAt = null;

	const server = http.createServer((request, response) => {
		const arrivedAt = Date.now();
		firstArrivalAt ??= arrivedAt;
		inFlight++;
		maxInFlight = Math.max(maxInFlight, inFlight);
		const chunks = [];
		request.on('data', (chunk) => chunks.push(chunk));
		request.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let body = null;
			try {
				body = text ? JSON.parse(text) : null;
			} catch {
				body = text;
			}
			setTimeout(() => {
				const answer = JSON.stringify({
					data: { id: randomUUID(), status: 'pending', inserted_at: new Date().toISOString() },
				});
				response.writeHead(200, {
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(answer),
				});
				response.end(answer);
				inFlight--;
				lastAnswerAt = Date.now();
				log.push({
					method: request.method ?? '',
					url: request.url ?? '',
					status: 200,
					body,
					at: arrivedAt,
				});
			}, latencyMs);
		});
	});
	server.keepAliveTimeout = 5000;
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	const url = `http://127.0.0.1:${address.port}`;

	return {
		url,
		/** Forgets what was seen (before a run). */
		reset() {
			log = [];
			maxInFlight = inFlight;
			firstArrivalAt = null;
			lastAnswerAt = null;
		},
		/** What it saw since the last reset, in the shape of the sandbox's facts. */
		facts() {
			const created = new Map();
			for (const entry of log) {
				if (entry.method !== 'POST') continue;
				const key = `${entry.url} ${JSON.stringify(entry.body)}`;
				created.set(key, (created.get(key) ?? 0) + 1);
			}
			let duplicates = 0;
			for (const count of created.values()) duplicates += count - 1;
			return {
				requests: log.length,
				limited: 0,
				duplicates,
				maxTries: Math.max(0, ...created.values()),
				maxInFlight,
				firstArrivalAt,
				lastAnswerAt,
				subjects: log.filter((entry) => entry.method === 'POST').length,
				transactions: 0,
				log,
			};
		},
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	};
}
