import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { FacilitaPayContext, RunState } from '../FacilitaPay/transport';
import { apiRequest, beginRun } from '../FacilitaPay/transport';
import { duplicateKey } from './duplicates';
import { readRetryOptions, strangerLimiter } from './reads';
import { canonicalSecret } from './secret';

/*
 * FacilitaPay's notification records (GET /notifications) settle what the secret cannot: a
 * notification under a secret this trigger does not hold (an older registration, a token changed
 * since) is genuine exactly when a record lists the same payload (and the same secret, where the
 * records carry it: the sandbox's do, the live service's may not).
 *
 * What is read: the newest records (order_by=desc) and the newest failed ones (failed=true: a
 * redelivery is of a record whose delivery failed), RECORD_PAGES pages of RECORDS_PER_PAGE each at
 * most. How far back is measured on FacilitaPay's own clock, from its newest record (whatever zone
 * its timestamps are in, they are compared with each other, never with n8n's clock): the newest
 * records back FIRST_DELIVERY_WINDOW_MS (a first delivery's record was written moments before it),
 * the failed ones back REDELIVERY_WINDOW_MS (FacilitaPay's last redelivery comes about 7.5 hours
 * after the first attempt). A record not found within that is unlisted; a lookup that could not
 * look that far back, or failed, says so (the notification is then asked again, never counted as a
 * forgery).
 *
 * The reads are strangers' reads: through the small share of the account's reads kept for what
 * the trigger cannot verify (reads.ts), and coalesced: every request waiting on the records of one
 * account is answered by one lookup started after it arrived, so a flood of forgeries costs one
 * lookup at a time, never the signed events' reads.
 */

export const RECORDS_PER_PAGE = 100;
export const RECORD_PAGES = 5;
/** How far back, from FacilitaPay's newest record, a notification delivered for the first time is. */
export const FIRST_DELIVERY_WINDOW_MS = 10 * 60 * 1000;
/** How far back a notification being redelivered can have been recorded (1+5+15+60+360 min, rounded up). */
export const REDELIVERY_WINDOW_MS = 8 * 60 * 60 * 1000;

/** One record's payload and secret, as compared. */
export interface ListedRecord {
	key: string;
	/** The canonical secret the record carries, or undefined when records carry none. */
	secret?: string;
}

export type Listing = 'listed' | 'unlisted' | 'unread';

export interface Snapshot {
	records: ListedRecord[];
	/** Whether the pages reached back RECORD_WINDOW_MS (or the end of the records). */
	complete: boolean;
}

/** A record's payload and secret (in `notification.secret`, or beside it), comparable. Pure. */
export function listedRecord(record: unknown): ListedRecord | undefined {
	if (!record || typeof record !== 'object') return undefined;
	const { notification, secret } = record as IDataObject;
	if (!notification || typeof notification !== 'object' || Array.isArray(notification)) {
		return undefined;
	}
	const payload = notification as IDataObject;
	const carried = payload.secret ?? secret;
	return {
		key: duplicateKey(payload),
		secret: carried === undefined || carried === null ? undefined : canonicalSecret(carried),
	};
}

/** Whether the records list this payload under this secret. Pure. */
export function listingOf(snapshot: Snapshot, payload: IDataObject): Listing {
	const key = duplicateKey(payload);
	const secret = canonicalSecret(payload.secret);
	for (const record of snapshot.records) {
		if (record.key !== key) continue;
		if (record.secret === undefined || record.secret === secret) return 'listed';
	}
	return snapshot.complete ? 'unlisted' : 'unread';
}

/** A record's time: FacilitaPay writes timestamps without a zone; they are read as UTC. */
export function recordTime(record: unknown): number | undefined {
	const at = (record as IDataObject | null)?.inserted_at;
	if (typeof at !== 'string') return undefined;
	const zoned = /[zZ]|[+-]\d\d:?\d\d$/.test(at) ? at : `${at}Z`;
	const time = Date.parse(zoned);
	return Number.isFinite(time) ? time : undefined;
}

interface ListRead {
	records: ListedRecord[];
	/** Whether the pages reached back far enough (or to the end of the records). */
	complete: boolean;
	/** FacilitaPay's time of its newest record (ms), when readable. */
	newest?: number;
}

/**
 * Reads one list of records, newest first, paging on while the oldest record of a page is younger
 * than `windowMs` before `anchor` (FacilitaPay's newest record; this list's own newest when not
 * given).
 */
async function readList(
	ctx: FacilitaPayContext,
	run: RunState,
	failed: boolean,
	deadline: number,
	windowMs: number,
	anchor?: number,
): Promise<ListRead> {
	const records: ListedRecord[] = [];
	let newest = anchor;
	let lastId: string | undefined;
	for (let page = 0; page < RECORD_PAGES; page++) {
		const qs: IDataObject = { order_by: 'desc', per_page: String(RECORDS_PER_PAGE) };
		if (failed) qs.failed = 'true';
		if (lastId) qs.last_id = lastId;
		const answer = await apiRequest.call(
			ctx,
			{ method: 'GET', path: '/notifications', qs, retry: 'safe' },
			readRetryOptions(deadline),
			run,
		);
		const list = Array.isArray(answer) ? answer : [];
		for (const record of list) {
			const listed = listedRecord(record);
			if (listed) records.push(listed);
			const time = recordTime(record);
			if (newest === undefined && time !== undefined) newest = time;
		}
		if (list.length < RECORDS_PER_PAGE) return { records, complete: true, newest };
		const oldest = recordTime(list[list.length - 1]);
		if (oldest !== undefined && newest !== undefined && oldest < newest - windowMs) {
			return { records, complete: true, newest };
		}
		const id = (list[list.length - 1] as IDataObject | null)?.id;
		if (typeof id !== 'string' || id === '') break;
		lastId = id;
	}
	return { records, complete: false, newest };
}

/** Reads the newest and the newest failed records of the account. Throws when a read fails. */
export async function readSnapshot(
	ctx: FacilitaPayContext,
	account: string,
	deadline: number,
	credentials?: ICredentialDataDecryptedObject,
): Promise<Snapshot> {
	const run = beginRun({ concurrency: 2, timeoutMs: Math.max(1, deadline - Date.now()) });
	run.limiter = strangerLimiter(account);
	// The credentials the call already read: n8n reads them from its database each time.
	if (credentials) run.credentials = Promise.resolve({ ...credentials });
	const newest = await readList(ctx, run, false, deadline, FIRST_DELIVERY_WINDOW_MS);
	const failed = await readList(ctx, run, true, deadline, REDELIVERY_WINDOW_MS, newest.newest);
	return {
		records: [...newest.records, ...failed.records],
		complete: newest.complete && failed.complete,
	};
}

interface Lookup {
	/** The lookup in flight, and the one queued behind it for requests that came meanwhile. */
	current?: Promise<Snapshot>;
	next?: Promise<Snapshot>;
}

const lookups = new Map<string, Lookup>();

/** For tests: forgets the lookups of this process. */
export function clearRecordLookups(): void {
	lookups.clear();
}

/**
 * The records as read by a lookup that started after this call: the one queued behind the lookup
 * in flight (shared by every request that arrives meanwhile), or a new one. Undefined when the
 * lookup failed or did not end by the deadline.
 */
export async function recordsAfterNow(
	ctx: FacilitaPayContext,
	account: string,
	deadline: number,
	credentials?: ICredentialDataDecryptedObject,
): Promise<Snapshot | undefined> {
	let lookup = lookups.get(account);
	if (!lookup) {
		lookup = {};
		lookups.set(account, lookup);
	}
	const state = lookup;
	const start = (): Promise<Snapshot> => {
		const promise = readSnapshot(ctx, account, deadline, credentials);
		state.current = promise;
		const done = () => {
			if (state.current === promise) state.current = undefined;
		};
		promise.then(done, done);
		return promise;
	};
	let mine: Promise<Snapshot>;
	if (!state.current) mine = start();
	else if (state.next) mine = state.next;
	else {
		// Requests arriving once it started wait for the one after: it must start after them.
		const begin = (): Promise<Snapshot> => {
			state.next = undefined;
			return start();
		};
		const queued = state.current.then(begin, begin);
		state.next = queued;
		mine = queued;
	}
	const abort = new AbortController();
	const bell = sleep(Math.max(0, deadline - Date.now()), abort.signal).then(
		() => undefined,
		() => undefined,
	);
	try {
		return await Promise.race([mine.catch(() => undefined), bell]);
	} finally {
		abort.abort();
	}
}
