// The in-process sandbox the benchmark's n8n talks to: latency on every API request, the rate limit
// on or off, people seeded through the control API, and what the sandbox saw during a run.
import { createSandbox } from '../../sandbox/server.mjs';
import { validCpf } from '../../test/e2e/lib/n8n-e2e.mjs';
import { control } from '../../test/integration/lib/harness.mjs';

/**
 * Starts a sandbox on a free port.
 * @param {{latencyMs: number}} options  latency added to every API request by prepare()
 */
export async function startBenchSandbox({ latencyMs }) {
	const sandbox = await createSandbox({ port: 0 });
	await sandbox.listen();
	const sb = control(sandbox.url);

	/** A control call (`/_sandbox…`) that must succeed. @param {'POST'|'DELETE'} method @param {string} route @param {unknown} [body] */
	async function controlOk(method, route, body) {
		const answer = method === 'DELETE' ? await sb.del(route) : await sb.post(route, body);
		if (answer?.errors)
			throw new Error(`${method} /_sandbox${route} refused: ${JSON.stringify(answer.errors)}`);
		return answer;
	}

	/** Registers `count` people through the control API (not logged, no latency, no rate limit). @param {number} count */
	async function seedPeople(count) {
		const ids = new Array(count);
		let next = 0;
		await Promise.all(
			Array.from({ length: 16 }, async () => {
				while (next < count) {
					const k = next++;
					const { data } = await controlOk('POST', '/subjects', {
						subject: {
							document_type: 'cpf',
							document_number: validCpf(k + 1),
							social_name: `Seeded Person ${k + 1}`,
							fiscal_country: 'BR',
						},
					});
					ids[k] = data.id;
				}
			}),
		);
		return ids;
	}

	/** Sets the rate limit (0: none), requests per second per token, burst the same. @param {number} rate */
	const rateLimit = (rate) =>
		controlOk('POST', '/rate_limit', { per_second: rate, burst: rate || undefined });

	/**
	 * Empty sandbox, latency on every API request, the rate limit on or off (counters reset).
	 * Returns the ids of the `seed` people registered first.
	 * @param {{rate?: number, seed?: number}} [options]
	 */
	async function prepare({ rate = 0, seed = 0 } = {}) {
		await controlOk('POST', '/reset');
		const ids = seed > 0 ? await seedPeople(seed) : [];
		if (latencyMs > 0)
			await controlOk('POST', '/faults', { route: '*', kind: 'latency', ms: latencyMs });
		await rateLimit(rate);
		return ids;
	}

	/** Forgets the requests logged so far (the counters of the next run start at zero). */
	const forgetRequests = () => controlOk('DELETE', '/requests');

	return {
		url: String(sandbox.url),
		sandbox,
		prepare,
		rateLimit,
		forgetRequests,
		facts: () => sandboxFacts(sandbox),
		close: () => sandbox.close(),
	};
}

/** The same POST (path and body) as one key. @param {{url: string, body: unknown}} entry */
const requestKey = (entry) => `${entry.url} ${JSON.stringify(entry.body)}`;

/**
 * What the sandbox saw since the last prepare(): requests, 429s, duplicates (the same POST answered
 * 2xx more than once), the most tries of one request, the in-flight gauge, what it holds.
 * @param {any} sandbox
 */
export function sandboxFacts(sandbox) {
	/** @type {Array<{method: string, url: string, status: number, body: unknown}>} */
	const log = sandbox.state.requests;
	const created = new Map();
	const tries = new Map();
	for (const entry of log) {
		if (entry.method !== 'POST') continue;
		const key = requestKey(entry);
		// The most times one request body was sent (first try and retries; 429s included).
		tries.set(key, (tries.get(key) ?? 0) + 1);
		if (entry.status >= 200 && entry.status < 300 && !entry.url.startsWith('/api/v1/sign_in'))
			created.set(key, (created.get(key) ?? 0) + 1);
	}
	let duplicates = 0;
	for (const count of created.values()) duplicates += count - 1;
	const gauge = sandbox.ctx.rateLimit.view();
	return {
		requests: log.length,
		limited: log.filter((e) => e.status === 429).length,
		duplicates,
		maxTries: Math.max(0, ...tries.values()),
		maxInFlight: gauge.max_in_flight,
		firstArrivalAt: gauge.first_arrival_at,
		lastAnswerAt: gauge.last_answer_at,
		subjects: sandbox.state.subjects.size,
		transactions: sandbox.state.transactions.size,
		log,
	};
}
