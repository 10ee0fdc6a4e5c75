import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { LogSource } from '../logFeed';
import { onLogPage } from '../logFeed';
import type { FacilitaPayContext, RunState } from '../transport';
import { apiRequest, beginRun } from '../transport';
import type { ChargeKind, LogRecord } from './decide';
import { asLogRecord, namedIds, recordDecision, statusDecision } from './decide';
import { mayCall, renewDue } from './lease';
import { utcTime } from './limit';
import { LOG_START, LogChain } from './logChain';
import { resumeCallUrl } from './resumeUrl';
import type { ResumePayload } from './signature';
import { keyOf, signedBody } from './signature';

/**
 * The waiter: the waits of this process, per FacilitaPay account, indexed by the IDs they wait
 * for. It reads the account's notification log ONCE for all of them (forward, up to 100 records a
 * page), and not at all while a FacilitaPay Trigger's reader of the same account in this process
 * feeds it the pages it reads (logFeed). When every charge of a wait has a deciding record it calls
 * the execution's resume URL, signed with the wait's own secret; before n8n's time of the wait
 * comes it renews it (lease.ts). The node's code decides, by re-reading FacilitaPay. Process
 * memory only: the wait itself is in n8n's database and its own code runs at its time
 * (waitForPayment's fallback) when this memory is gone.
 */

/** Idle pace of the log reads of one account. */
export const READ_INTERVAL_MS = 2_000;
/** A feed (the trigger's reader) this recent replaces our own read. */
export const FED_WITHIN_MS = 5_000;
/** A resume call that failed (n8n busy, 5xx) is tried again after this, while the lease allows. */
export const RECALL_AFTER_MS = 3_000;
/**
 * Resume calls in flight at once from this process. n8n answers a call when the resumed run ends,
 * so this bounds the resumed runs n8n works on at once; the others wait their turn in order.
 */
export const RESUME_IN_FLIGHT = 6;
export const PAGE_SIZE = 100;
/** A catch-up reads at most this many pages at once (then it is a read error: tried again later). */
export const CATCH_UP_PAGES = 200;

export interface WaitRegistration {
	account: string;
	executionId: string;
	/** The wait of the execution (a new one at each wait of n8n). */
	generation: number;
	resumeUrl: string;
	/** The wait's secret (hex). */
	secret: string;
	/** Open waited IDs and what they are. */
	ids: Map<string, ChargeKind>;
	limitAt: number;
	/** n8n's time of this wait (lease.ts). */
	waitTill: number;
	/** The log record the wait's records are complete up to. */
	cursor: string;
}

interface Waiting extends WaitRegistration {
	key: Buffer;
	records: Map<string, LogRecord[]>;
	decided: Set<string>;
	calling: boolean;
	nextCallAt: number;
	done: boolean;
}

interface AccountWait {
	byId: Map<string, Set<Waiting>>;
	waiting: Set<Waiting>;
	chain: LogChain;
	/** Where the waiter's own reading goes on from (undefined while nothing waits). */
	position?: string;
	/** Forward reads in flight, by the position they start from (shared by every catch-up). */
	reads: Map<string, Promise<void>>;
	lastFedAt: number;
	looping: boolean;
	/** Whose charge is read next when the log is empty. */
	turn: number;
	context: FacilitaPayContext;
	run: RunState;
}

/** Counters the tests and the bench read. */
export interface WaiterStats {
	logReads: number;
	/** Transactions read because the log is empty. */
	chargeReads: number;
	resumeCalls: number;
	renewals: number;
	fedPages: number;
}

/** The turns of resume calls (RESUME_IN_FLIGHT at once, the rest in the order they came). */
const resumeSlots = { inFlight: 0, queue: [] as Array<() => void> };

async function takeResumeSlot(): Promise<void> {
	if (resumeSlots.inFlight < RESUME_IN_FLIGHT) {
		resumeSlots.inFlight++;
		return;
	}
	await new Promise<void>((resolve) => resumeSlots.queue.push(resolve));
}

function giveResumeSlot(): void {
	const next = resumeSlots.queue.shift();
	if (next) next();
	else resumeSlots.inFlight = Math.max(0, resumeSlots.inFlight - 1);
}

const newStats = (): WaiterStats => ({
	logReads: 0,
	chargeReads: 0,
	resumeCalls: 0,
	renewals: 0,
	fedPages: 0,
});

const waiter = {
	accounts: new Map<string, AccountWait>(),
	/** Every account's reading loop running now (resetWaiter waits for them to end). */
	loops: new Set<Promise<void>>(),
	/** Resolved by resetWaiter: a loop's pause ends at once. */
	stopped: undefined as Promise<void> | undefined,
	stop: undefined as (() => void) | undefined,
	stats: newStats(),
	stopListening: undefined as (() => void) | undefined,
	now: (): number => Date.now(),
};

function list(answer: unknown): unknown[] {
	if (Array.isArray(answer)) return answer;
	const data = (answer as IDataObject | undefined)?.data;
	return Array.isArray(data) ? data : [];
}

async function readLog(wait: AccountWait, qs: IDataObject): Promise<unknown[]> {
	waiter.stats.logReads++;
	const answer = await apiRequest.call(
		wait.context,
		{ method: 'GET', path: '/notifications', qs, retry: 'safe' },
		undefined,
		wait.run,
	);
	return list(answer);
}

/** A forward page was read (ours or a Trigger's): linked, and its deciding records offered. */
function received(wait: AccountWait, after: string, page: readonly unknown[]): void {
	wait.chain.link(after, page, page.length < PAGE_SIZE, waiter.now());
	offer(wait, page);
}

function listen(): void {
	if (waiter.stopListening) return;
	waiter.stopListening = onLogPage((account, page, source?: LogSource) => {
		const wait = waiter.accounts.get(account);
		if (!wait || source?.after === undefined || (source.order ?? 'asc') !== 'asc') return;
		wait.lastFedAt = waiter.now();
		waiter.stats.fedPages++;
		received(wait, source.after ?? LOG_START, page);
	});
}

/** Reads the log forward from `from` to its end (shared with any read from the same place). */
async function readForward(wait: AccountWait, from: string): Promise<void> {
	const running = wait.reads.get(from);
	if (running) return await running;
	const reading = (async () => {
		let position = from;
		for (let pages = 0; pages < CATCH_UP_PAGES; pages++) {
			const qs: IDataObject = { per_page: String(PAGE_SIZE) };
			if (position !== LOG_START) qs.last_id = position;
			const page = await readLog(wait, qs);
			received(wait, position, page);
			const last = asLogRecord(page[page.length - 1]);
			if (page.length < PAGE_SIZE || !last) return;
			position = last.id;
		}
		throw new Error(`FacilitaPay's notification log is over ${CATCH_UP_PAGES} pages behind`);
	})();
	wait.reads.set(from, reading);
	try {
		await reading;
	} finally {
		wait.reads.delete(from);
	}
}

/**
 * The deciding records of the account's log after `from` (a wait's cursor) and where they end:
 * from this process's memory of the log where it has read it, else read now.
 */
export async function catchUp(
	ctx: FacilitaPayContext,
	account: string,
	from: string,
): Promise<{ records: LogRecord[]; cursor: string }> {
	const wait = accountWait(ctx, account);
	const known = wait.chain.walk(from);
	const fresh =
		known !== undefined &&
		known.end === wait.chain.tail &&
		waiter.now() - wait.chain.tailReadAt < READ_INTERVAL_MS;
	if (!fresh) await readForward(wait, known?.end ?? from);
	const walked = wait.chain.walk(from) ?? { records: [], end: from };
	return { records: walked.records, cursor: walked.end };
}

/**
 * Where a new wait's records start: the newest record now (one read, newest first), and the
 * deciding records of the waited IDs listed since `sinceMs` (a card payment approved within its
 * create call is listed before the wait begins), read back at most 3 pages. Then read forward
 * from there, so that the wait's cursor is a place this process knows.
 */
export async function startingPoint(
	ctx: FacilitaPayContext,
	account: string,
	ids: readonly string[],
	sinceMs: number,
): Promise<{ records: LogRecord[]; cursor: string }> {
	const wait = accountWait(ctx, account);
	const wanted = new Set(ids);
	const records: LogRecord[] = [];
	let newest: string | undefined;
	let before: string | undefined;
	for (let pages = 0; pages < 3; pages++) {
		const qs: IDataObject = { order_by: 'desc', per_page: String(PAGE_SIZE) };
		if (before !== undefined) qs.last_id = before;
		const page = (await readLog(wait, qs)).map(asLogRecord).filter((r) => r !== undefined);
		newest ??= page[0]?.id;
		for (const record of page)
			if (namedIds(record).some((id) => wanted.has(id))) records.unshift(record);
		const oldest = page[page.length - 1];
		const oldestAt = utcTime(oldest?.inserted_at) ?? NaN;
		if (page.length < PAGE_SIZE || !oldest || !(oldestAt >= sinceMs - 120_000)) break;
		before = oldest.id;
	}
	const start = newest ?? LOG_START;
	wait.chain.place(start);
	const after = await catchUp(ctx, account, start);
	return { records: [...records, ...after.records], cursor: after.cursor };
}

/** Offers a page of the log: records naming a waited ID are kept; full waits are called. */
function offer(wait: AccountWait, page: readonly unknown[]): void {
	for (const value of page) {
		const record = asLogRecord(value);
		if (record) for (const id of namedIds(record)) keep(wait, id, record);
	}
	for (const w of wait.waiting) if (w.decided.size === w.ids.size) void call(wait, w, 'records');
}

function keep(wait: AccountWait, id: string, record: LogRecord): void {
	for (const w of wait.byId.get(id) ?? []) {
		const kept = w.records.get(id) ?? [];
		if (!kept.some((r) => r.id === record.id)) kept.push(record);
		w.records.set(id, kept);
		if (recordDecision(record, id, w.ids.get(id) ?? 'unknown')) w.decided.add(id);
	}
}

function forget(wait: AccountWait, w: Waiting): void {
	w.done = true;
	wait.waiting.delete(w);
	for (const id of w.ids.keys()) {
		const set = wait.byId.get(id);
		set?.delete(w);
		if (set && set.size === 0) wait.byId.delete(id);
	}
}

/**
 * The one HTTP call not to FacilitaPay: to n8n's own resume URL, without the FacilitaPay token.
 * Never while n8n may have armed its own timer for the wait (lease.ts: mayCall).
 */
async function call(wait: AccountWait, w: Waiting, kind: ResumePayload['kind']): Promise<void> {
	if (w.calling || w.done || waiter.now() < w.nextCallAt) return;
	w.calling = true;
	await takeResumeSlot();
	try {
		if (w.done || !mayCall(w.waitTill, waiter.now())) return;
		const body = signedBody(w.key, {
			executionId: w.executionId,
			generation: w.generation,
			kind,
			records: [...w.records.values()].flat(),
			cursor: wait.chain.tail ?? w.cursor,
		});
		waiter.stats[kind === 'renew' ? 'renewals' : 'resumeCalls']++;
		const options: IHttpRequestOptions = {
			method: 'POST',
			url: resumeCallUrl(w.resumeUrl),
			body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 30_000,
		};
		const response = (await wait.context.helpers.httpRequest(options)) as {
			statusCode: number;
		};
		if (response.statusCode >= 500) w.nextCallAt = waiter.now() + RECALL_AFTER_MS;
		// Resumed (200), running or finished (409), gone (404), refused (401): this wait is over here.
		else forget(wait, w);
	} catch {
		w.nextCallAt = waiter.now() + RECALL_AFTER_MS;
	} finally {
		giveResumeSlot();
		w.calling = false;
	}
}

async function tick(wait: AccountWait): Promise<void> {
	const now = waiter.now();
	for (const w of [...wait.waiting]) {
		// Past its guard: n8n resumes it at its time and the node's code reads then.
		if (!mayCall(w.waitTill, now)) {
			if (now > w.waitTill) forget(wait, w);
		} else if (w.decided.size === w.ids.size) void call(wait, w, 'records');
		else if (renewDue(w.waitTill, w.limitAt, now)) void call(wait, w, 'renew');
	}
	if (wait.waiting.size === 0) return;
	const position = wait.position ?? LOG_START;
	// Where every page read so far (ours, a catch-up's, a Trigger's) has taken the reading.
	const from = wait.chain.walk(position)?.end ?? position;
	if (now - wait.lastFedAt >= FED_WITHIN_MS) await readForward(wait, from);
	wait.position = wait.chain.walk(from)?.end ?? from;
	// The account's log is empty: FacilitaPay notifies no URL (nothing registered). The charges
	// themselves are read instead, one per tick in turn.
	if (wait.position === LOG_START) await readOneCharge(wait);
}

/** Without a log: one waited transaction read (in turn); decided by its status → the call. */
async function readOneCharge(wait: AccountWait): Promise<void> {
	const candidates: Array<[Waiting, string]> = [];
	for (const w of wait.waiting)
		for (const [id, kind] of w.ids)
			if (kind !== 'checkout' && !w.decided.has(id)) candidates.push([w, id]);
	if (candidates.length === 0) return;
	const [w, id] = candidates[wait.turn++ % candidates.length];
	waiter.stats.chargeReads++;
	const transaction = await apiRequest.call(
		wait.context,
		{ method: 'GET', path: `/transactions/${encodeURIComponent(id)}`, retry: 'safe' },
		undefined,
		wait.run,
	);
	if (
		transaction &&
		typeof transaction === 'object' &&
		statusDecision(transaction as IDataObject)
	) {
		for (const other of wait.byId.get(id) ?? []) other.decided.add(id);
		if (w.decided.size === w.ids.size) void call(wait, w, 'records');
	}
}

function stopped(): Promise<void> {
	waiter.stopped ??= new Promise<void>((resolve) => {
		waiter.stop = resolve;
	});
	return waiter.stopped;
}

async function loop(account: string, wait: AccountWait): Promise<void> {
	wait.looping = true;
	try {
		while (wait.waiting.size > 0) {
			try {
				await tick(wait);
			} catch {
				// A failed read is tried again at the next tick; the node re-reads anyway.
			}
			if (wait.waiting.size === 0) break;
			await Promise.race([sleep(READ_INTERVAL_MS), stopped()]);
		}
	} finally {
		wait.looping = false;
		if (wait.waiting.size === 0) wait.position = undefined;
	}
}

function accountWait(ctx: FacilitaPayContext, account: string): AccountWait {
	let wait = waiter.accounts.get(account);
	if (!wait) {
		wait = {
			byId: new Map(),
			waiting: new Set(),
			chain: new LogChain(),
			reads: new Map(),
			lastFedAt: 0,
			looping: false,
			turn: 0,
			context: ctx,
			run: beginRun({ concurrency: 2, timeoutMs: 30_000 }),
		};
		waiter.accounts.set(account, wait);
	}
	listen();
	// The newest context reads for the account (an older one's execution may be long gone).
	wait.context = ctx;
	return wait;
}

/**
 * Registers a wait; the account's reading starts if it is not running. The records after the
 * wait's cursor that this process read already are offered to it first (catchUp: none are missed
 * between the node's reads and this registration).
 */
export async function register(
	ctx: FacilitaPayContext,
	registration: WaitRegistration,
): Promise<void> {
	const wait = accountWait(ctx, registration.account);
	for (const w of [...wait.waiting])
		if (w.executionId === registration.executionId) forget(wait, w);
	const w: Waiting = {
		...registration,
		key: keyOf(registration.secret),
		records: new Map(),
		decided: new Set(),
		calling: false,
		nextCallAt: 0,
		done: false,
	};
	wait.waiting.add(w);
	for (const id of w.ids.keys()) {
		const set = wait.byId.get(id) ?? new Set();
		set.add(w);
		wait.byId.set(id, set);
	}
	wait.position ??= registration.cursor;
	let walked = wait.chain.walk(registration.cursor);
	if (!walked) {
		// A cursor this process never read around (the wait moved here from another process, a
		// queue worker): the records after it are read once, so that none is missed.
		walked = await catchUp(ctx, registration.account, registration.cursor).then(
			() => wait.chain.walk(registration.cursor),
			() => undefined,
		);
	}
	if (walked)
		for (const record of walked.records)
			for (const id of namedIds(record)) if (w.ids.has(id)) keep(wait, id, record);
	if (!wait.looping) {
		const running = loop(registration.account, wait);
		waiter.loops.add(running);
		void running.finally(() => waiter.loops.delete(running));
	}
}

/** How many executions wait in this process (all accounts). */
export function waitingCount(): number {
	let n = 0;
	for (const wait of waiter.accounts.values()) n += wait.waiting.size;
	return n;
}

export function waiterStats(): WaiterStats {
	return { ...waiter.stats };
}

/**
 * Forgets everything (tests; never called by n8n); resolves once every reading loop has ended (a
 * read in flight is answered first), so that no read of one test reaches the next.
 */
export async function resetWaiter(): Promise<void> {
	for (const wait of waiter.accounts.values()) for (const w of wait.waiting) w.done = true;
	for (const wait of waiter.accounts.values()) wait.waiting.clear();
	waiter.accounts.clear();
	waiter.stats = newStats();
	waiter.stopListening?.();
	for (const next of resumeSlots.queue.splice(0)) next();
	resumeSlots.inFlight = 0;
	waiter.stopListening = undefined;
	waiter.stop?.();
	waiter.stopped = undefined;
	waiter.stop = undefined;
	await Promise.allSettled([...waiter.loops]);
}
