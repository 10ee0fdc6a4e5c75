import { sleep } from 'n8n-workflow';

import type { FailureFacts } from './errors';

/**
 * How a request may be repeated after a failure. Every request, whatever its policy, is tried again
 * after 429 (the service did not process it), honouring Retry-After.
 * - `safe`: reads and idempotent updates. Also retried on 502, 503, 504 and connection errors.
 * - `sendOnce`: creates or moves money (transactions, checkout, payouts, subscriptions, refunds,
 *   cancels, even when sent as GET) or is otherwise not idempotent (document upload). Never
 *   repeated once it may have reached the service (timeout, reset, 5xx: the item fails with an
 *   unknown outcome); only a refused connection (nothing was sent) is tried again. See money.ts for
 *   what keeps it from being sent twice across runs and executions (nodes/FacilitaPay/money/).
 * - `lookup`: the money rule's reads (is this payment at FacilitaPay?): as `safe`, and also retried
 *   on 500, so that one transient error does not leave a whole retry "Outcome unknown".
 */
export type RetryPolicy = 'safe' | 'sendOnce' | 'lookup';

export interface RetryOptions {
	/** Attempts in all after failures other than 429, the first included. */
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** The 429 rule: how many tries in all, and the longest Retry-After honoured as given. */
	rateLimit: { maxAttempts: number; maxRetryAfterMs: number };
	/**
	 * A moment (ms since epoch) after which no try starts and no wait runs: a caller that must
	 * answer in time (the trigger's verification) sets it; each try's timeout is cut to it too.
	 */
	deadline?: number;
	/** Injected in tests; defaults to Math.random. */
	random: () => number;
	/** Injected in tests; defaults to n8n-workflow's sleep. */
	wait: (ms: number) => Promise<void>;
	/** Injected in tests; defaults to Date.now. */
	now?: () => number;
}

export const defaultRetryOptions: RetryOptions = {
	maxAttempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 10_000,
	rateLimit: { maxAttempts: 12, maxRetryAfterMs: 60_000 },
	random: Math.random,
	wait: async (ms: number) => await sleep(ms),
};

const RETRYABLE_STATUS = new Set([502, 503, 504]);
const CONNECTION_ERRORS = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'EAI_AGAIN',
	'ECONNREFUSED',
	'ENOTFOUND',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);
/** Connection errors that prove the request never reached the service. */
const NOT_SENT_ERRORS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether the failure proves the request never reached the service. */
export function provesNotSent(facts: FailureFacts): boolean {
	if (facts.signIn) return true;
	return facts.status === undefined && facts.code !== undefined && NOT_SENT_ERRORS.has(facts.code);
}

/**
 * Whether a money-moving request may have been processed although it failed: no answer after it
 * left (timeout, reset), or a 5xx. Such a request is never sent again automatically.
 */
export function isAmbiguous(policy: RetryPolicy, facts: FailureFacts): boolean {
	if (policy !== 'sendOnce' || provesNotSent(facts)) return false;
	if (facts.status === undefined) return true;
	return facts.status >= 500;
}

/** Whether a failure other than 429 may be tried again under this policy. */
export function mayRetry(policy: RetryPolicy, facts: FailureFacts): boolean {
	if (policy === 'sendOnce') return provesNotSent(facts) && facts.status === undefined;
	if (facts.status !== undefined)
		return RETRYABLE_STATUS.has(facts.status) || (policy === 'lookup' && facts.status === 500);
	return facts.code !== undefined && CONNECTION_ERRORS.has(facts.code);
}

/** Retry-After in milliseconds (seconds or an HTTP date), when the service sent one. */
export function retryAfterMs(
	headers: Record<string, unknown>,
	now: () => number = Date.now,
): number | undefined {
	const raw = headers['retry-after'] ?? headers['Retry-After'];
	if (raw === undefined || raw === null) return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(raw));
	return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/** Exponential backoff with full jitter, or the service's Retry-After when it gives one. */
export function retryDelay(attempt: number, facts: FailureFacts, options: RetryOptions): number {
	const fromHeader = retryAfterMs(facts.headers, options.now);
	if (fromHeader !== undefined) return Math.min(fromHeader, options.maxDelayMs * 3);
	const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + (options.random() * ceiling) / 2);
}

/** The wait before trying a 429 again: Retry-After (with up to 20 % jitter) or backoff. */
export function rateLimitDelay(
	attempt: number,
	facts: FailureFacts,
	options: RetryOptions,
): number {
	const fromHeader = retryAfterMs(facts.headers, options.now);
	if (fromHeader !== undefined) {
		const base = Math.min(fromHeader, options.rateLimit.maxRetryAfterMs);
		return Math.round(base + base * 0.2 * options.random());
	}
	return retryDelay(Math.min(attempt, 6), facts, options);
}

/** Milliseconds left before the caller's deadline (Infinity without one). */
export function timeLeft(options: RetryOptions): number {
	if (options.deadline === undefined) return Infinity;
	return options.deadline - (options.now ?? Date.now)();
}
