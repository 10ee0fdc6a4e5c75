/**
 * This process's memory of money-moving requests, for n8n running the node again within one
 * execution (Retry On Fail) and for an AI agent calling the same tool twice. Bounded by time and by
 * bytes, never by a count that busy neighbours could exhaust:
 * - every entry lives `ttlMs` (1 hour) from its last change, then is forgotten;
 * - the answers kept to replay them are limited to `maxAnswerBytes` (64 MB) in all: past that, an
 *   entry keeps only the record's ID (about 200 bytes), enough to say "already done (ID …)"
 *   instead of paying again. 50,000 payouts remembered this way take about 10 MB.
 * Nothing is ever dropped before its hour because memory is short: only the answer's body is.
 */
export type SentOutcome =
	| { state: 'sending' }
	| { state: 'done'; answer?: unknown; recordId?: string }
	| { state: 'unknown'; error: Error };

interface Entry {
	outcome: SentOutcome;
	at: number;
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

const ENTRY_OVERHEAD = 200;

export class SentMemory {
	private readonly entries = new Map<string, Entry>();

	private answerBytes = 0;

	constructor(
		private readonly maxAnswerBytes = 64 * 1024 * 1024,
		readonly ttlMs = 60 * 60 * 1000,
		private readonly now: () => number = Date.now,
	) {}

	get(key: string): SentOutcome | undefined {
		const entry = this.entries.get(key);
		if (!entry) return undefined;
		if (this.now() - entry.at > this.ttlMs) {
			this.drop(key, entry);
			return undefined;
		}
		return entry.outcome;
	}

	set(key: string, outcome: SentOutcome): void {
		const old = this.entries.get(key);
		if (old) this.drop(key, old);
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
		this.entries.set(key, { outcome: kept, at: this.now(), bytes });
		this.answerBytes += bytes;
		this.prune();
	}

	forget(key: string): void {
		const entry = this.entries.get(key);
		if (entry) this.drop(key, entry);
	}

	get size(): number {
		return this.entries.size;
	}

	/** Estimated bytes held: the answers kept plus a flat cost per entry. */
	get bytes(): number {
		return this.answerBytes + this.entries.size * ENTRY_OVERHEAD;
	}

	private drop(key: string, entry: Entry): void {
		this.entries.delete(key);
		this.answerBytes -= entry.bytes;
	}

	/** Entries are kept in the order they were last set: the expired ones are at the front. */
	private prune(): void {
		const now = this.now();
		for (const [key, entry] of this.entries) {
			if (now - entry.at <= this.ttlMs) break;
			this.drop(key, entry);
		}
	}
}

/** One memory per process, shared by every run of the node. */
export const sentMemory = new SentMemory();
