import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { onLogPage } from '../logFeed';
import type { FacilitaPayContext, RunState } from '../transport';
import { apiRequest, beginRun } from '../transport';
import type { LogRecord } from './decide';
import { asLogRecord, namedIds, recordDecision, statusDecision } from './decide';
import { resumeCallUrl } from './resumeUrl';
import { signedBody } from './signature';

/**
 * The waiter: the executions waiting for a payment in this process, per FacilitaPay account,
 * indexed by the IDs they wait for. It reads the account's notification log ONCE for all of them
 * (forward from a cursor, up to 100 records a page), and not at all while a FacilitaPay Trigger's
 * reader of the same account in this process feeds it the pages it reads (logFeed). When every
 * charge of an execution has a deciding record, or its limit comes, it calls the execution's
 * resume URL once, signed; the node's webhook() decides by re-reading FacilitaPay. Process memory
 * only: after a restart, see durable.ts.
 */

/** Idle pace of the log reads of one account. */
export const READ_INTERVAL_MS = 2_000;
/** A feed (the trigger's reader) this recent replaces our own read. */
export const FED_WITHIN_MS = 5_000;
/** A resume call that found the charge still open (FacilitaPay not caught up) is retried after. */
export const RECALL_AFTER_MS = 3_000;
/**
 * Resume calls in flight at once from this process. Each one makes n8n load the whole waiting
 * execution, run its webhook (one FacilitaPay read) and the rest of the workflow: 300 charges paid
 * in one burst fired 300 at once, and n8n (SQLite, 2 cores) took ~2 minutes for every one of them
 * and grew to 4 GB. A few at a time keep each resume short; the others wait their turn in order.
 */
export const RESUME_IN_FLIGHT = 6;
export const PAGE_SIZE = 100;

export interface WaitRegistration {
	account: string;
	executionId: string;
	resumeUrl: string;
	key: Buffer;
	/** Waited IDs; `true` for a checkout (decided by records naming `checkout_id`). */
	ids: Map<string, boolean>;
	limitAt: number;
}

interface Waiting extends WaitRegistration {
	records: Map<string, LogRecord[]>;
	decided: Set<string>;
	calling: boolean;
	/** Not before (after a call that found the charges still open). */
	nextCallAt: number;
	done: boolean;
}

interface AccountWait {
	byId: Map<string, Set<Waiting>>;
	waiting: Set<Waiting>;
	/** The last record read (our reads); undefined while the log was empty when first read. */
	cursor?: string;
	/** Whether the log was read once to place the cursor (then an undefined cursor: from the start). */
	placed: boolean;
	cursorReady?: Promise<void>;
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

const waiter = {
	accounts: new Map<string, AccountWait>(),
	stats: { logReads: 0, chargeReads: 0, resumeCalls: 0, fedPages: 0 } as WaiterStats,
	stopListening: undefined as (() => void) | undefined,
	now: (): number => Date.now(),
};

function listen(): void {
	if (waiter.stopListening) return;
	waiter.stopListening = onLogPage((account, page) => {
		const wait = waiter.accounts.get(account);
		if (!wait) return;
		wait.lastFedAt = waiter.now();
		waiter.stats.fedPages++;
		offer(wait, page);
	});
}

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

/** The cursor starts at the newest record when the account's first wait registers. */
async function startCursor(wait: AccountWait): Promise<void> {
	const newest = await readLog(wait, { order_by: 'desc', per_page: '1' });
	const record = asLogRecord(newest[0]);
	if (!wait.placed) {
		wait.placed = true;
		if (record) wait.cursor = record.id;
	}
}

/** Offers a page of the log: records naming a waited ID are kept; full waits are called. */
function offer(wait: AccountWait, page: readonly unknown[]): void {
	for (const value of page) {
		const record = asLogRecord(value);
		if (!record) continue;
		for (const id of namedIds(record)) {
			for (const w of wait.byId.get(id) ?? []) {
				const isCheckout = w.ids.get(id) ?? false;
				const kept = w.records.get(id) ?? [];
				if (!kept.some((r) => r.id === record.id)) kept.push(record);
				w.records.set(id, kept);
				if (recordDecision(record, id, isCheckout)) w.decided.add(id);
			}
		}
	}
	for (const w of wait.waiting) if (w.decided.size === w.ids.size) void call(wait, w, false);
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
 * n8n answers it when the resumed run ends, so a slot is held while n8n runs the resumed workflow.
 */
async function call(wait: AccountWait, w: Waiting, final: boolean): Promise<void> {
	if (w.calling || w.done || waiter.now() < w.nextCallAt) return;
	w.calling = true;
	await takeResumeSlot();
	try {
		if (w.done) return;
		const records = [...w.records.values()].flat();
		const body = signedBody(w.key, {
			executionId: w.executionId,
			records,
			final,
		});
		waiter.stats.resumeCalls++;
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
			body?: IDataObject;
		};
		const answer = response.body ?? {};
		if (response.statusCode === 200 && answer.waiting === true) {
			w.nextCallAt = waiter.now() + RECALL_AFTER_MS;
		} else if (response.statusCode >= 500) {
			w.nextCallAt = waiter.now() + RECALL_AFTER_MS;
		} else {
			// Resumed (200), finished or running elsewhere (409), gone (404), refused (401): done here.
			forget(wait, w);
		}
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
		if (now >= w.limitAt) await call(wait, w, true);
		else if (w.decided.size === w.ids.size) await call(wait, w, false);
	}
	if (wait.waiting.size === 0) return;
	if (now - wait.lastFedAt < FED_WITHIN_MS) return;
	if (!wait.placed) await startCursor(wait);
	for (;;) {
		const qs: IDataObject = { per_page: String(PAGE_SIZE) };
		// An undefined cursor: the log was empty when first read, so all of it is new.
		if (wait.cursor !== undefined) qs.last_id = wait.cursor;
		const page = await readLog(wait, qs);
		const last = asLogRecord(page[page.length - 1]);
		if (last) wait.cursor = last.id;
		offer(wait, page);
		if (wait.cursor === undefined) {
			// The account's log is empty: FacilitaPay notifies no URL (nothing registered). The
			// charges themselves are read instead, one per tick in turn.
			await readOneCharge(wait);
			break;
		}
		if (page.length < PAGE_SIZE || wait.waiting.size === 0) break;
	}
}

/** Without a log: one waited transaction read (in turn); decided by its status → the call. */
async function readOneCharge(wait: AccountWait): Promise<void> {
	const candidates: Array<[Waiting, string]> = [];
	for (const w of wait.waiting)
		for (const [id, isCheckout] of w.ids)
			if (!isCheckout && !w.decided.has(id)) candidates.push([w, id]);
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
		if (w.decided.size === w.ids.size) await call(wait, w, false);
	}
}

async function loop(account: string, wait: AccountWait): Promise<void> {
	wait.looping = true;
	try {
		while (wait.waiting.size > 0) {
			try {
				await tick(wait);
			} catch {
				// A failed read is tried again at the next tick; the webhook re-reads anyway.
			}
			if (wait.waiting.size === 0) break;
			await sleep(READ_INTERVAL_MS);
		}
	} finally {
		wait.looping = false;
		if (wait.waiting.size === 0 && waiter.accounts.get(account) === wait)
			waiter.accounts.delete(account);
	}
}

/**
 * Prepares the account's reading before the charges are read (so that a record listed between
 * the read of a charge and its registration is not missed): the cursor is set to the newest
 * record now, unless the account is already read.
 */
export async function prepareAccount(ctx: IExecuteFunctions, account: string): Promise<void> {
	const wait = accountWait(ctx, account);
	if (!wait.placed) {
		wait.cursorReady ??= startCursor(wait).catch(() => {
			wait.cursorReady = undefined;
		});
		await wait.cursorReady;
	}
}

function accountWait(ctx: IExecuteFunctions, account: string): AccountWait {
	let wait = waiter.accounts.get(account);
	if (!wait) {
		wait = {
			byId: new Map(),
			waiting: new Set(),
			lastFedAt: 0,
			looping: false,
			turn: 0,
			placed: false,
			context: ctx,
			run: beginRun({ concurrency: 2, timeoutMs: 30_000 }),
		};
		waiter.accounts.set(account, wait);
	}
	// The newest context reads for the account (an older one's execution may be long gone).
	wait.context = ctx;
	return wait;
}

/** Registers a waiting execution; the account's reading starts if it is not running. */
export function register(ctx: IExecuteFunctions, registration: WaitRegistration): void {
	listen();
	const wait = accountWait(ctx, registration.account);
	const w: Waiting = {
		...registration,
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
	if (!wait.looping) void loop(registration.account, wait);
}

/** Whether an execution of this process waits for `id` on `account`. */
export function isWaited(account: string, id: string): boolean {
	return waiter.accounts.get(account)?.byId.has(id) ?? false;
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

/** Forgets everything (tests; never called by n8n). Running loops end at their next tick. */
export function resetWaiter(): void {
	for (const wait of waiter.accounts.values()) for (const w of wait.waiting) w.done = true;
	for (const wait of waiter.accounts.values()) wait.waiting.clear();
	waiter.accounts.clear();
	waiter.stats = { logReads: 0, chargeReads: 0, resumeCalls: 0, fedPages: 0 };
	waiter.stopListening?.();
	for (const next of resumeSlots.queue.splice(0)) next();
	resumeSlots.inFlight = 0;
	waiter.stopListening = undefined;
}
