/**
 * Fault injection on API routes: latency, 429 (with Retry-After), 500, 502, 503, a socket reset
 * before the request is handled (`reset`: nothing happened), or after it was handled
 * (`reset_after`: the service did the work, the client never hears of it). `skip` lets that many
 * matching requests through before the fault starts to fire. `late_commit`: a gateway answers 504
 * at once (`answer: "504"`, the default) or never (`"timeout"`: the connection is held, then reset
 * when the work is done), and the service does the work `ms` milliseconds later (real time,
 * default 3000; `answer_ms`: how long the gateway waits before its 504, default 0): a payment
 * written after its client was told it failed.
 * A fault matches `"METHOD /api/v1/path/:param"` (the fastify route pattern) or `"*"`.
 */
import { Errors, isBlank } from './validation.mjs';
import { check } from './errors.mjs';

export const FAULT_KINDS = [
	'latency',
	'429',
	'500',
	'502',
	'503',
	'reset',
	'reset_after',
	'late_commit',
];

/** How a `late_commit` fault answers at once: a gateway's 504, or nothing until it commits. */
export const LATE_COMMIT_ANSWERS = ['504', 'timeout'];

export function createFaults({ random = Math.random } = {}) {
	/** @type {any[]} */
	let faults = [];
	let seq = 0;

	function add(body = {}) {
		const errors = new Errors();
		if (isBlank(body.route))
			errors.add('route', 'can\'t be blank: use "*" or "METHOD /api/v1/path/:param"');
		else if (body.route !== '*' && !/^[A-Z]+ \/\S*$/.test(body.route))
			errors.add('route', 'must be "*" or "METHOD /api/v1/path/:param"');
		const kind = String(body.kind ?? '');
		if (!FAULT_KINDS.includes(kind))
			errors.add('kind', `must be one of: ${FAULT_KINDS.join(', ')}`);
		const rate = body.rate === undefined ? 1 : Number(body.rate);
		if (!(rate >= 0 && rate <= 1)) errors.add('rate', 'must be a number from 0 to 1');
		if (
			body.count !== undefined &&
			body.count !== null &&
			!(Number.isInteger(body.count) && body.count > 0)
		)
			errors.add('count', 'must be a positive integer');
		if (
			body.skip !== undefined &&
			body.skip !== null &&
			!(Number.isInteger(body.skip) && body.skip >= 0)
		)
			errors.add('skip', 'must be a whole number ≥ 0');
		if (kind === 'late_commit' && body.ms !== undefined && !(Number(body.ms) >= 0))
			errors.add('ms', 'must be a number of milliseconds ≥ 0 (when the work is done)');
		if (
			kind === 'late_commit' &&
			body.answer !== undefined &&
			!LATE_COMMIT_ANSWERS.includes(String(body.answer))
		)
			errors.add('answer', `must be one of: ${LATE_COMMIT_ANSWERS.join(', ')}`);
		if (kind === 'late_commit' && body.answer_ms !== undefined && !(Number(body.answer_ms) >= 0))
			errors.add('answer_ms', 'must be a number of milliseconds ≥ 0 (before the 504)');
		if (kind === 'latency' && !(Number(body.ms) >= 0))
			errors.add('ms', "can't be blank for latency (milliseconds)");
		check(errors);
		const fault = {
			id: ++seq,
			route: body.route,
			kind,
			rate,
			ms: body.ms === undefined ? (kind === 'late_commit' ? 3000 : null) : Number(body.ms),
			answer: kind === 'late_commit' ? String(body.answer ?? '504') : null,
			answer_ms: kind === 'late_commit' ? Number(body.answer_ms ?? 0) : null,
			retry_after: body.retry_after === undefined ? null : Number(body.retry_after),
			remaining: body.count ?? null,
			skip: body.skip ?? 0,
			fired: 0,
		};
		faults.push(fault);
		return fault;
	}

	/** Picks the fault that fires for this request, if any (consumes one `count`). */
	function pick(method, routeUrl) {
		const key = `${method} ${routeUrl}`;
		for (const fault of faults) {
			if (fault.route !== '*' && fault.route !== key) continue;
			if (fault.remaining !== null && fault.remaining <= 0) continue;
			if (fault.rate < 1 && random() >= fault.rate) continue;
			if (fault.skip > 0) {
				fault.skip--;
				continue;
			}
			if (fault.remaining !== null) fault.remaining--;
			fault.fired++;
			return fault;
		}
		return null;
	}

	return {
		add,
		pick,
		list: () => faults,
		clear() {
			faults = [];
		},
	};
}
