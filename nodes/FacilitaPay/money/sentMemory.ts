/**
 * This process's memory of money-moving requests, by identity: a fast path in front of
 * FacilitaPay's record (money.ts), never the only truth. It replays an answer to n8n's Retry On
 * Fail and says "done" without a read; what it forgets is looked up at FacilitaPay. Bounded by
 * bytes only, never by time or by a count:
 * - answers kept to replay them take up to `maxAnswerBytes` (64 MB) in all; past that an entry
 *   keeps only the record's ID;
 * - entries take up to `maxEntryBytes` (32 MB, ~160,000 entries); past that the oldest answered
 *   ones are forgotten (entries being sent are kept: they are bounded by the requests in flight).
 * An unknown outcome is a flag: the error (a 100 kB 503 page) is not kept.
 */
export type SentOutcome =
	| { state: 'sending' }
	| { state: 'done'; answer?: unknown; recordId?: string; fingerprint?: string }
	/** `at`: when its try failed, by FacilitaPay's clock (epoch ms). */
	| { state: 'unknown'; at?: number }
	/** FacilitaPay refused it (a clear failure): nothing was processed, it may be sent again. */
	| { state: 'refused' };

interface Entry {
	outcome: SentOutcome;
	/** Bytes of the answer this entry keeps (estimated). */
	bytes: number;
}

/** A rough size of a parsed JSON answer in bytes (strings by length, the rest by a flat cost). */
export function estimateBytes(value: unknown, budget = Infinity): number {
	let total = 0;
	const stack: unknown[] = [value];
	while (stack.length > 0 && total <= budget) {
		const next = stack.pop();
		if (typeof next === 'string') total += next.length + 16;
		else if (Buffer.isBuffer(next)) total += next.length + 16;
		else if (next && typeof next === 'object') {
			for (const [key, inner] of Object.entries(next as Record<string, unknown>)) {
				total += key.length + 16;
				stack.push(inner);
			}
		} else total += 16;
	}
	return total;
}

/** The ID of the record an answer describes, when it names one. */
export function recordIdOf(answer: unknown): string | undefined {
	let value = answer;
	if (value && typeof value === 'object' && 'data' in (value as object))
		value = (value as { data: unknown }).data;
	if (value && typeof value === 'object' && !Array.isArray(value)) {
		const id =
			(value as Record<string, unknown>).id ?? (value as Record<string, unknown>).subject_id;
		if (typeof id === 'string' || typeof id === 'number') return String(id);
	}
	return undefined;
}

/** What one entry costs besides its answer: its key, its outcome, the map's slot. */
const ENTRY_OVERHEAD = 200;

import { ListCache } from './listCache';

/** The most lists whose newest record is remembered (a cursor is ~100 bytes). */
const MAX_CURSORS = 100_000;

export class SentMemory {
	private readonly entries = new Map<string, Entry>();

	/** Runs waiting for an identity another run of this process is sending (the in-flight lock). */
	private readonly waiting = new Map<string, Array<() => void>>();

	/** Per list (credential and path): the newest record this process knows there. */
	private readonly cursors = new Map<string, string>();

	/** Per list read from its start: the identities its records carry (keys' lookups). */
	readonly lists = new ListCache();

	private answerBytes = 0;

	private keyBytes = 0;

	constructor(
		private readonly maxAnswerBytes = 64 * 1024 * 1024,
		private readonly maxEntryBytes = 32 * 1024 * 1024,
	) {}

	get(key: string): SentOutcome | undefined {
		return this.entries.get(key)?.outcome;
	}

	/** Resolves once `key` is no longer being sent (at once when it is not). */
	async whenSettled(key: string): Promise<void> {
		if (this.get(key)?.state !== 'sending') return;
		await new Promise<void>((resolve) => {
			const list = this.waiting.get(key) ?? [];
			list.push(resolve);
			this.waiting.set(key, list);
		});
	}

	private wake(key: string): void {
		const list = this.waiting.get(key);
		if (!list || this.get(key)?.state === 'sending') return;
		this.waiting.delete(key);
		for (const resolve of list) resolve();
	}

	/** The newest record this process knows in a list (a point every later request comes after). */
	cursor(list: string): string | undefined {
		return this.cursors.get(list);
	}

	setCursor(list: string, recordId: string): void {
		this.cursors.delete(list);
		this.cursors.set(list, recordId);
		if (this.cursors.size > MAX_CURSORS) this.cursors.delete(this.cursors.keys().next().value!);
	}

	set(key: string, outcome: SentOutcome): void {
		this.remove(key);
		let kept = outcome;
		let bytes = 0;
		if (outcome.state === 'done' && outcome.answer !== undefined) {
			const room = this.maxAnswerBytes - this.answerBytes;
			bytes = estimateBytes(outcome.answer, room);
			if (bytes > room) {
				kept = { state: 'done', recordId: outcome.recordId ?? recordIdOf(outcome.answer) };
				bytes = 0;
			}
		}
		this.entries.set(key, { outcome: kept, bytes });
		this.answerBytes += bytes;
		this.keyBytes += key.length + ENTRY_OVERHEAD;
		this.prune();
		this.wake(key);
	}

	forget(key: string): void {
		this.remove(key);
		this.wake(key);
	}

	private remove(key: string): void {
		const entry = this.entries.get(key);
		if (!entry) return;
		this.entries.delete(key);
		this.answerBytes -= entry.bytes;
		this.keyBytes -= key.length + ENTRY_OVERHEAD;
	}

	/** Forgets everything (what a new process knows). */
	clear(): void {
		this.entries.clear();
		this.cursors.clear();
		this.lists.clear();
		for (const list of this.waiting.values()) for (const resolve of list) resolve();
		this.waiting.clear();
		this.answerBytes = 0;
		this.keyBytes = 0;
	}

	get size(): number {
		return this.entries.size;
	}

	/** Estimated bytes held: the answers kept plus the entries. */
	get bytes(): number {
		return this.answerBytes + this.keyBytes;
	}

	/** Entries are kept in the order they were last set: the oldest are forgotten first. */
	private prune(): void {
		if (this.keyBytes <= this.maxEntryBytes) return;
		for (const [key, entry] of this.entries) {
			if (this.keyBytes <= this.maxEntryBytes) break;
			if (entry.outcome.state !== 'sending') this.remove(key);
		}
	}
}

/** One memory per process, shared by every run of the node. */
export const sentMemory = new SentMemory();
