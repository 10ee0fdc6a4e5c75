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

/**
 * FacilitaPay is assumed to wait 10 s for an answer; the trigger answers within 5 s. Every delivery
 * n8n holds open costs it a request and, for a trigger node, an expression isolate of its own
 * (n8n 2.x), and in a burst n8n itself takes seconds to hand a request to the node: held for up to
 * 8 s, a burst of 300 payments had half of its deliveries time out. Reads not back by the answer
 * are not lost: they go on and serve the notification's redelivery (see "Reads kept" below).
 */
export const ANSWER_WITHIN_MS = 5_000;
/** The delivery waits for its reads this long: what follows (the answer) fits in the rest. */
export const READS_WITHIN_MS = 4_000;
/** One read may take this long (it may serve a later delivery, see "Reads kept" below). */
export const READ_TIMEOUT_MS = 7_000;
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
 * Reads of one limiter in the order they were taken up, and how many of them are over: a reading
 * whose first read was taken up as number `place` has `place - over` reads ahead of it, of which
 * the limiter's window is being answered now.
 */
interface Queue {
	taken: number;
	over: number;
}

const queues = new WeakMap<AdaptiveLimiter, Queue>();

function queueOf(limiter: AdaptiveLimiter): Queue {
	let queue = queues.get(limiter);
	if (!queue) {
		queue = { taken: 0, over: 0 };
		queues.set(limiter, queue);
	}
	return queue;
}

/** Reads under way: `results` fills in as they come back (`notRead` until then). */
interface Reading {
	results: ReadResult[];
	/** Settles when every worker stopped (all read, stopped at a result, or the deadline came). */
	done: Promise<void>;
	/** The number its first read was taken up as, in its limiter's queue. */
	place: number;
	limiter: AdaptiveLimiter;
}

/**
 * Whether the reads ahead of this reading, at the pace answers come back now, keep its first read
 * from starting before `deadline` (false while the pace is not known).
 */
function outOfReach(reading: Reading, deadline: number, now: number): boolean {
	const { limiter } = reading;
	const ahead = reading.place - queueOf(limiter).over - limiter.allowed;
	const perSecond = limiter.answersLastSecond();
	return ahead > 0 && perSecond > 0 && (ahead / perSecond) * 1000 > deadline - now;
}

function startReads(ctx: FacilitaPayContext, reads: Read[], options: ReadOptions): Reading {
	const now = options.now ?? Date.now;
	const run = beginRun({ concurrency: READS_PER_PROCESS, timeoutMs: READ_TIMEOUT_MS });
	const limiter = options.stranger
		? strangerLimiter(options.account)
		: processLimiter(options.account);
	run.limiter = limiter;
	if (options.credentials) run.credentials = Promise.resolve({ ...options.credentials });
	const results: ReadResult[] = reads.map(() => ({ kind: 'notRead' }));
	const queue = queueOf(limiter);
	const place = queue.taken;
	let next = 0;
	let stopped = false;
	const worker = async () => {
		while (!stopped && next < reads.length && now() < options.deadline) {
			const index = next++;
			queue.taken++;
			try {
				results[index] = await readOne(ctx, run, reads[index], options.deadline);
			} finally {
				queue.over++;
			}
			if (options.stopAt?.(results[index])) stopped = true;
		}
	};
	const workers = Array.from({ length: Math.min(READS_PER_NOTIFICATION, reads.length) }, worker);
	const done = Promise.all(workers).then(
		() => undefined,
		() => undefined,
	);
	return { results, done, place, limiter };
}

/** Waits for the reading until `deadline` (or until `giveUp` says so, checked every tick). */
async function waitFor(
	reading: Reading,
	deadline: number,
	now: () => number,
	giveUp: () => boolean = () => false,
): Promise<boolean> {
	let finished = false;
	void reading.done.then(() => (finished = true));
	while (!finished) {
		const left = deadline - now();
		if (left <= 0 || giveUp()) return false;
		const abort = new AbortController();
		const tick = sleep(Math.min(left, WAIT_TICK_MS), abort.signal).catch(() => {});
		await Promise.race([reading.done, tick]);
		abort.abort();
	}
	return true;
}

/** How often a held notification looks again whether its reads can still come back in time. */
const WAIT_TICK_MS = 250;

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
	const reading = startReads(ctx, reads, options);
	await waitFor(reading, options.deadline, options.now ?? Date.now);
	return [...reading.results];
}

/*
 * Reads kept, for the redelivery. In a burst (hundreds of payments at once) FacilitaPay's API lets
 * only so many reads a second through, and a notification whose reads cannot come back before the
 * answer is due is answered 503 and sent again. Its reads are not thrown away: they go on after
 * the answer (for KEEP_READING_MS) and what they bring back is kept, in this process, for the next
 * delivery of exactly that notification (the same account, trigger and duplicate key: the same
 * payload), which uses it once instead of reading again. Each object is read once per burst
 * instead of once per delivery, and a notification that will not be reached in time is answered
 * at once instead of being held for nothing. Only notifications whose secret (or FacilitaPay's
 * records) vouch for them are kept: they come from FacilitaPay.
 */

/** Reads of a notification go on this long after it arrived, its answer given or not. */
export const KEEP_READING_MS = 60_000;
/** What they brought back waits this long for the notification's next delivery. */
export const KEPT_FOR_MS = 10 * 60_000;
/** At most this many notifications' reads kept per process (past that, a delivery reads for itself). */
export const KEPT_AT_MOST = 1_000;

interface Kept {
	reading: Reading;
	/** Until when the entry may be used (ms since epoch). */
	until: number;
}

const kept = new Map<string, Kept>();

/** For tests: forgets the reads kept for redeliveries. */
export function clearKeptReads(): void {
	kept.clear();
}

function dropExpired(now: number): void {
	for (const [key, entry] of kept) if (entry.until <= now) kept.delete(key);
}

export interface NotificationReads {
	results: ReadResult[];
	/** Every read was back in time, and they were started for an earlier delivery. */
	earlier: boolean;
}

/**
 * The reads of one delivery of a notification, kept under `keep` (account, trigger, duplicate
 * key): an earlier delivery's reads, finished or still under way, are used (once); otherwise
 * they are started, to go on for KEEP_READING_MS whatever this delivery answers. The delivery
 * is held until its deadline, or answered at once (all `notRead`) when nothing of it has been
 * read and the queue ahead of its reads, at the pace answers come back now, cannot reach them
 * before the deadline.
 */
export async function readForNotification(
	ctx: FacilitaPayContext,
	reads: Read[],
	options: ReadOptions & { keep: string },
): Promise<NotificationReads> {
	const now = options.now ?? Date.now;
	dropExpired(now());
	let entry = kept.get(options.keep);
	const earlier = entry !== undefined;
	if (!entry && kept.size >= KEPT_AT_MOST) {
		return { results: await readAll(ctx, reads, options), earlier: false };
	}
	if (!entry) {
		const reading = startReads(ctx, reads, {
			...options,
			// The delivery's deadline is READS_WITHIN_MS after it arrived.
			deadline: options.deadline - READS_WITHIN_MS + KEEP_READING_MS,
		});
		entry = { reading, until: now() + KEPT_FOR_MS };
		kept.set(options.keep, entry);
		const own = entry;
		void reading.done.then(() => {
			// Kept only when every object was found: anything else is read again next time.
			if (!reading.results.every((result) => result.kind === 'found')) {
				if (kept.get(options.keep) === own) kept.delete(options.keep);
			}
		});
	}
	const { reading } = entry;
	const hopeless = () =>
		reading.results.every((result) => result.kind === 'notRead') &&
		outOfReach(reading, options.deadline, now());
	const finished = await waitFor(reading, options.deadline, now, hopeless);
	// Used once: a later delivery reads again.
	if (finished && kept.get(options.keep) === entry) kept.delete(options.keep);
	return { results: [...reading.results], earlier: earlier && finished };
}
