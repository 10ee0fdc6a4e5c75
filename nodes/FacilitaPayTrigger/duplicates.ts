import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** How long an emitted event is remembered by Drop Duplicates. */
export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** At most this many events are remembered; the oldest are forgotten first. */
export const DUPLICATES_KEPT = 1000;
/** A claim of a notification being checked lapses after this long (the check ends within 8 s). */
export const CLAIM_MS = 60_000;
/**
 * What Drop Duplicates remembers is written to the static data at most this often per trigger and
 * process: n8n saves the whole static data to its database after every call that changed it, and
 * during a burst one save per event is what saturates that database. The process's memory holds
 * every event at once; the static data catches up at the next call after this interval.
 */
export const SAVE_EVERY_MS = 2_000;

/** A value in a canonical form: keys sorted, arrays of plain values sorted. */
function canonical(value: unknown): unknown {
	if (Array.isArray(value)) {
		const items = value.map(canonical);
		const plain = items.every((item) => item === null || typeof item !== 'object');
		return plain ? [...items].sort((a, b) => String(a).localeCompare(String(b))) : items;
	}
	if (value && typeof value === 'object') {
		const result: IDataObject = {};
		for (const name of Object.keys(value).sort()) {
			result[name] = canonical((value as IDataObject)[name]) as IDataObject;
		}
		return result;
	}
	return value;
}

/**
 * What makes two notifications the same event: everything they carry but the secret (type, IDs,
 * error code, items, required documents, reason, status, accounts, and fields the spec does not
 * list). A redelivery is identical; the same wire corrected twice (AC03, then AC14) is not.
 * Hashed, so the static data holds no IDs and each entry stays small.
 */
export function duplicateKey(payload: IDataObject): string {
	const rest = { ...payload };
	delete rest.secret;
	return createHash('sha256')
		.update(JSON.stringify(canonical(rest)))
		.digest('hex')
		.slice(0, 24);
}

export type DuplicateState = 'new' | 'checking' | 'emitted';

interface Memory {
	/** Keys of events that started the workflow, and until when they are remembered. */
	emitted: Record<string, number>;
	/** When `emitted` was last written to the static data, and whether it changed since. */
	savedAt: number;
	unsaved: boolean;
	/** Keys of notifications being checked right now, and until when the claim holds. */
	checking: Map<string, number>;
}

/**
 * What this n8n process remembers, per trigger. The static data alone is not enough: n8n reads it
 * from the database when a request starts and writes it back whole when it ends, so requests in
 * parallel would not see each other. The static data carries the emitted events over a restart
 * (and, as well as n8n's last-writer-wins saving allows, to other webhook processes).
 */
const memory = new Map<string, Memory>();

/** For tests: forgets what this process remembered. */
export function clearDuplicateMemory(): void {
	memory.clear();
}

function memoryOf(owner: string): Memory {
	let found = memory.get(owner);
	if (!found) {
		found = { emitted: {}, checking: new Map(), savedAt: 0, unsaved: false };
		memory.set(owner, found);
	}
	return found;
}

function remembered(staticData: IDataObject, now: number, owner: string): Record<string, number> {
	const result: Record<string, number> = {};
	for (const stored of [staticData.emittedEvents, memoryOf(owner).emitted]) {
		if (!stored || typeof stored !== 'object' || Array.isArray(stored)) continue;
		for (const [key, until] of Object.entries(stored as IDataObject)) {
			if (typeof until === 'number' && until > now) {
				result[key] = Math.max(until, result[key] ?? 0);
			}
		}
	}
	return result;
}

/** Whether this event started the workflow within 24 h, is being checked right now, or is new. */
export function duplicateState(
	staticData: IDataObject,
	key: string,
	now: number,
	owner: string,
): DuplicateState {
	const claim = memoryOf(owner).checking.get(key);
	if (claim !== undefined && claim > now) return 'checking';
	return remembered(staticData, now, owner)[key] !== undefined ? 'emitted' : 'new';
}

/**
 * Checks and claims in one step (no await between them, so two identical notifications arriving
 * together cannot both find it new): 'new' means this caller now holds the claim.
 */
export function checkAndClaim(
	staticData: IDataObject,
	key: string,
	now: number,
	owner: string,
): DuplicateState {
	const state = duplicateState(staticData, key, now, owner);
	if (state === 'new') claim(key, now, owner);
	return state;
}

/** Whether an event with this key started the workflow within 24 h. */
export function isEmitted(
	staticData: IDataObject,
	key: string,
	now: number,
	owner: string,
): boolean {
	return remembered(staticData, now, owner)[key] !== undefined;
}

/** Claims a notification while it is checked: the same one arriving meanwhile starts nothing. */
export function claim(key: string, now: number, owner: string): void {
	const { checking } = memoryOf(owner);
	for (const [other, until] of checking) if (until <= now) checking.delete(other);
	checking.set(key, now + CLAIM_MS);
}

/** Gives the claim up (the notification did not start the workflow: a redelivery may). */
export function release(key: string, owner: string): void {
	memoryOf(owner).checking.delete(key);
}

/** Remembers an emitted event for 24 hours, keeping at most DUPLICATES_KEPT entries. */
export function rememberEmitted(
	staticData: IDataObject,
	key: string,
	now: number,
	owner = '',
): void {
	const entries = Object.entries(remembered(staticData, now, owner)).filter(([k]) => k !== key);
	entries.push([key, now + DUPLICATE_WINDOW_MS]);
	entries.sort((a, b) => a[1] - b[1]);
	const own = memoryOf(owner);
	own.emitted = Object.fromEntries(entries.slice(-DUPLICATES_KEPT));
	own.checking.delete(key);
	own.unsaved = true;
	saveEmitted(staticData, now, owner);
}

/**
 * Writes what this process remembers to the static data when it changed and SAVE_EVERY_MS passed
 * since the last write (merged with what the static data holds from other processes).
 */
export function saveEmitted(staticData: IDataObject, now: number, owner = ''): void {
	const own = memoryOf(owner);
	if (!own.unsaved || now - own.savedAt < SAVE_EVERY_MS) return;
	const entries = Object.entries(remembered(staticData, now, owner)).sort((a, b) => a[1] - b[1]);
	staticData.emittedEvents = Object.fromEntries(entries.slice(-DUPLICATES_KEPT));
	own.savedAt = now;
	own.unsaved = false;
}
