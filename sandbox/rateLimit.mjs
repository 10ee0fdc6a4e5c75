/**
 * A rate limit like the service's, off by default: a token bucket per bearer token (per
 * credential), `per_second` tokens a second, at most `burst` saved up. A request finding the bucket
 * empty is answered 429 with `Retry-After` (whole seconds, at least 1, until a token is back) and is
 * not processed. Also an in-flight gauge of API requests (counted from arrival, injected latency
 * included, until the answer is sent or the connection closes) and the wall-clock times (ms since
 * 1970) of the first arrival and the last answer, for benchmarks.
 *
 *   POST   /_sandbox/rate_limit {"per_second":20,"burst":20}   on (per_second 0: off); counters reset
 *   GET    /_sandbox/rate_limit                                settings and counters
 *   DELETE /_sandbox/rate_limit                                off; counters reset
 *
 * Uses real time, not the virtual clock: a rate is about requests that really arrive.
 */
import { performance } from 'node:perf_hooks';
import { Errors } from './validation.mjs';
import { check } from './errors.mjs';

/** @param {{ now?: () => number }} [options] `now` in milliseconds (tests inject it). */
export function createRateLimit({ now = () => performance.now() } = {}) {
	let perSecond = 0;
	let burst = 0;
	/** @type {Map<string, {tokens: number, at: number}>} */
	let buckets = new Map();
	const counters = {
		in_flight: 0,
		max_in_flight: 0,
		allowed: 0,
		limited: 0,
		first_arrival_at: null,
		last_answer_at: null,
	};

	function configure(body = {}) {
		const errors = new Errors();
		const rate = Number(body.per_second ?? 0);
		if (!(Number.isFinite(rate) && rate >= 0))
			errors.add('per_second', 'must be a number ≥ 0 (0 turns the limit off)');
		const size =
			body.burst === undefined || body.burst === null ? Math.max(1, rate) : Number(body.burst);
		if (!(Number.isFinite(size) && size >= 1)) errors.add('burst', 'must be a number ≥ 1');
		check(errors);
		perSecond = rate;
		burst = size;
		buckets = new Map();
		resetCounters();
		return view();
	}

	function resetCounters() {
		counters.max_in_flight = counters.in_flight;
		counters.allowed = 0;
		counters.limited = 0;
		counters.first_arrival_at = null;
		counters.last_answer_at = null;
	}

	function view() {
		return {
			per_second: perSecond,
			burst: perSecond > 0 ? burst : 0,
			enabled: perSecond > 0,
			...counters,
		};
	}

	/** Takes a token for `key`; answers the seconds to wait when there is none. */
	function take(key) {
		if (perSecond <= 0) return { ok: true };
		const at = now();
		const bucket = buckets.get(key) ?? { tokens: burst, at };
		bucket.tokens = Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * perSecond);
		bucket.at = at;
		buckets.set(key, bucket);
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			counters.allowed++;
			return { ok: true };
		}
		counters.limited++;
		return { ok: false, retryAfter: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
	}

	/** Counts a request in flight until its answer is sent or its connection closes. @param {import('node:http').ServerResponse} response */
	function arrived(response) {
		counters.in_flight++;
		if (counters.in_flight > counters.max_in_flight) counters.max_in_flight = counters.in_flight;
		counters.first_arrival_at ??= Date.now();
		response.once('close', () => {
			counters.in_flight--;
			counters.last_answer_at = Date.now();
		});
	}

	return {
		configure,
		take,
		arrived,
		view,
		off: () => configure({ per_second: 0 }),
	};
}

/**
 * Adds the limit to the sandbox: the gauge at arrival (before injected faults and latency), the
 * bucket after them (so a refused request still takes the injected latency) and before
 * authentication, the control routes, and `POST /_sandbox/reset` turning it off.
 * @param {import('fastify').FastifyInstance} app
 * @param {any} ctx
 * @param {{ now?: () => number, prefix?: string }} [options]
 */
export function installRateLimit(app, ctx, { now, prefix = '/api/v1' } = {}) {
	const limit = createRateLimit({ now });
	ctx.rateLimit = limit;
	const reset = ctx.reset;
	ctx.reset = async () => {
		await reset();
		limit.off();
	};
	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith(prefix)) limit.arrived(reply.raw);
	});
	app.addHook('preHandler', async (request, reply) => {
		if (!request.url.startsWith(prefix)) return;
		const verdict = limit.take(String(request.headers.authorization ?? ''));
		if (verdict.ok) return;
		// The request log shows what was refused (the log's own preHandler does not run for it).
		const entry = /** @type {any} */ (request).sandboxEntry;
		if (entry) entry.body = shorten(request.body);
		return reply
			.code(429)
			.header('retry-after', String(verdict.retryAfter))
			.send({
				error: 'too_many_requests',
				message: `rate limited to ${limit.view().per_second} requests per second per token`,
			});
	});
	app.post('/_sandbox/rate_limit', async (request) => ({
		data: limit.configure(/** @type {any} */ (request.body) ?? {}),
	}));
	app.get('/_sandbox/rate_limit', async () => ({ data: limit.view() }));
	app.delete('/_sandbox/rate_limit', async () => ({ data: limit.off() }));
	return limit;
}

/** A copy of a body for the request log, long strings (file data) shortened as the log does. */
function shorten(body) {
	if (body === undefined) return null;
	return JSON.parse(
		JSON.stringify(body, (_k, v) =>
			typeof v === 'string' && v.length > 200 ? `${v.slice(0, 32)}… (${v.length} characters)` : v,
		),
	);
}
