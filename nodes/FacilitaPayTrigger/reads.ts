import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { credentialBaseUrl } from '../FacilitaPay/transport/tokenTarget';
import type { FacilitaPayContext, RetryOptions, RunState } from '../FacilitaPay/transport';
import { apiRequest, beginRun, defaultRetryOptions, failureFacts } from '../FacilitaPay/transport';
import { AdaptiveLimiter } from '../FacilitaPay/transport/limiter';
import type { Read, ReadResult } from './verification';
import { requestFor } from './verification';

/*
 * Verify With API, the reads: bounded in parallel per notification, shared with every other
 * notification of this n8n process through one 429-aware limiter per FacilitaPay account, and
 * over by a deadline whatever FacilitaPay does (429 with a long Retry-After, hanging).
 */

/** FacilitaPay is assumed to wait 10 s for an answer: the trigger answers within 8 s. */
export const ANSWER_WITHIN_MS = 8_000;
/** The reads stop this long before: what follows (static data, the answer) fits in the rest. */
export const READS_WITHIN_MS = 7_000;
/** Reads of one notification in flight at once (a wire naming 200 transactions). */
export const READS_PER_NOTIFICATION = 8;
/** Verification reads of the whole process in flight at once, per account, at most. */
export const READS_PER_PROCESS = 16;

/**
 * Reads of the whole process per account, at most, for what the trigger cannot verify (unsigned KYC
 * payloads, notifications under a secret it does not hold, and their notification records):
 * anyone who knows the URL can send those, so they never take the signed events' share.
 */
export const STRANGER_READS_PER_PROCESS = 2;

/** Statuses of a read that mean "no such object in this account", not "could not ask". */
const ABSENT = new Set([404, 410]);

/**
 * One limiter per FacilitaPay account for every webhook call of this process: a 429 halves how
 * many reads run at once and pauses them all for the Retry-After; successes widen it again.
 */
const limiters = new Map<string, AdaptiveLimiter>();
const strangerLimiters = new Map<string, AdaptiveLimiter>();

/** For tests: forgets the process's limiters. */
export function clearProcessLimiters(): void {
	limiters.clear();
	strangerLimiters.clear();
}

function limiterOf(
	map: Map<string, AdaptiveLimiter>,
	account: string,
	max: number,
): AdaptiveLimiter {
	let limiter = map.get(account);
	if (!limiter) {
		limiter = new AdaptiveLimiter(max);
		map.set(account, limiter);
	}
	return limiter;
}

export function processLimiter(account: string): AdaptiveLimiter {
	return limiterOf(limiters, account, READS_PER_PROCESS);
}

/** The strangers' small share of an account's reads (see STRANGER_READS_PER_PROCESS). */
export function strangerLimiter(account: string): AdaptiveLimiter {
	return limiterOf(strangerLimiters, account, STRANGER_READS_PER_PROCESS);
}

/** Which account a credential reaches: its base URL and a hash of who signs in (never the token). */
export function accountOf(credentials: ICredentialDataDecryptedObject): string {
	const who =
		credentials.authentication === 'usernamePassword'
			? String(credentials.username ?? '')
			: String(credentials.accessToken ?? '');
	const digest = createHash('sha256').update(who).digest('hex').slice(0, 16);
	return `${credentialBaseUrl(credentials)}|${digest}`;
}

/** Reads retried once at most after a failure; 429s as long as the deadline allows. */
export function readRetryOptions(deadline: number): RetryOptions {
	return {
		...defaultRetryOptions,
		maxAttempts: 2,
		baseDelayMs: 250,
		maxDelayMs: 1_000,
		rateLimit: { maxAttempts: 20, maxRetryAfterMs: 5_000 },
		deadline,
		// Looked up at each call, so the transport's waiting (n8n's sleep) stays the one place to fake.
		wait: async (ms: number) => await defaultRetryOptions.wait(ms),
	};
}

async function readOne(
	ctx: FacilitaPayContext,
	run: RunState,
	read: Read,
	deadline: number,
): Promise<ReadResult> {
	try {
		const answer = await apiRequest.call(ctx, requestFor(read), readRetryOptions(deadline), run);
		return { kind: 'found', answer };
	} catch (error) {
		const facts = failureFacts(error);
		if (facts.status !== undefined && ABSENT.has(facts.status)) {
			return { kind: 'absent', status: facts.status };
		}
		return {
			kind: 'failed',
			reason: facts.status === undefined ? (error as Error).message : `HTTP ${facts.status}`,
		};
	}
}

export interface ReadOptions {
	/** No read starts after this moment (ms since epoch), and the answer is back by then. */
	deadline: number;
	account: string;
	/** The credentials the call already read: the reads use them instead of reading them again. */
	credentials?: ICredentialDataDecryptedObject;
	/** Reads for what the trigger cannot verify go through the strangers' share. */
	stranger?: boolean;
	/** Stop starting reads once one result settles the event (a missing object proves it false). */
	stopAt?: (result: ReadResult) => boolean;
	now?: () => number;
}

/**
 * Reads the objects, READS_PER_NOTIFICATION at a time, through the process's limiter. Whatever is
 * back at the deadline is returned (the rest `notRead`); reads still running then are left to end
 * on their own deadline, their answers unused.
 */
export async function readAll(
	ctx: FacilitaPayContext,
	reads: Read[],
	options: ReadOptions,
): Promise<ReadResult[]> {
	const now = options.now ?? Date.now;
	const run = beginRun({ concurrency: READS_PER_PROCESS, timeoutMs: READS_WITHIN_MS });
	run.limiter = options.stranger
		? strangerLimiter(options.account)
		: processLimiter(options.account);
	if (options.credentials) run.credentials = Promise.resolve({ ...options.credentials });
	const results: ReadResult[] = reads.map(() => ({ kind: 'notRead' }));
	let next = 0;
	let done = false;
	const worker = async () => {
		while (!done && next < reads.length && now() < options.deadline) {
			const index = next++;
			results[index] = await readOne(ctx, run, reads[index], options.deadline);
			if (options.stopAt?.(results[index])) done = true;
		}
	};
	const workers = Array.from({ length: Math.min(READS_PER_NOTIFICATION, reads.length) }, worker);
	const abort = new AbortController();
	const bell = sleep(Math.max(0, options.deadline - now()), abort.signal).catch(() => {});
	await Promise.race([Promise.all(workers).catch(() => {}), bell]);
	abort.abort();
	done = true;
	return [...results];
}
