import type { LogRecord } from './decide';
import { asLogRecord, RECORD_DECISIONS } from './decide';

/**
 * What this process knows of one account's notification log, in FacilitaPay's order (pure: no
 * n8n, no HTTP): which record follows which (`next`, keyed by the record before it; '' = the start
 * of the log), the deciding records read (a payment's records), and the newest record known
 * (`tail`). Built from every forward page read here (the waiter's, a FacilitaPay Trigger's). A wait
 * keeps the record it read up to (its cursor, in n8n's database); when it is resumed the records
 * after its cursor come from here, read only where this process has not read them (catchUp).
 * Positions are record IDs, never times: FacilitaPay's order is the log's own.
 */

/** The start of the log (a cursor when the log was empty: everything is after it). */
export const LOG_START = '';

/** How many links are kept (then the oldest half is forgotten: those are read again if needed). */
export const CHAIN_MEMORY = 50_000;

export class LogChain {
	private readonly next = new Map<string, string>();
	private readonly kept = new Map<string, LogRecord>();
	/** The newest record known; undefined until the log was read once. */
	tail?: string;
	/** When a read last reached the end of the log from `tail`. */
	tailReadAt = 0;

	/** Whether a position is known (a catch-up from it needs no read to find its place). */
	knows(position: string): boolean {
		return position === this.tail || this.next.has(position);
	}

	/**
	 * A page read forward after `after` (FacilitaPay's order): links it, keeps its deciding
	 * records. `complete`: the page was shorter than asked (the end of the log then).
	 */
	link(after: string, page: readonly unknown[], complete: boolean, now: number): void {
		let previous = after;
		for (const value of page) {
			const record = asLogRecord(value);
			if (!record) continue;
			this.next.set(previous, record.id);
			const type = record.notification.type;
			if (typeof type === 'string' && RECORD_DECISIONS[type]) this.kept.set(record.id, record);
			previous = record.id;
		}
		// A page that reached the end of the log, or continued from the newest known, ends at the newest.
		if (complete || this.tail === undefined || this.tail === after) {
			this.tail = previous;
			if (complete) this.tailReadAt = now;
		}
		this.forgetOldest();
	}

	/** The newest record when the log was first read (`order_by=desc&per_page=1`). */
	place(newest: string | undefined): void {
		if (this.tail === undefined) this.tail = newest ?? LOG_START;
	}

	/**
	 * The deciding records after `from` up to the newest known, and where that ends; undefined when
	 * `from` is not a known position (then the log must be read from it).
	 */
	walk(from: string): { records: LogRecord[]; end: string } | undefined {
		if (!this.knows(from)) return undefined;
		const records: LogRecord[] = [];
		let position = from;
		const seen = new Set<string>();
		for (;;) {
			const following = this.next.get(position);
			if (following === undefined || seen.has(following)) break;
			seen.add(following);
			const record = this.kept.get(following);
			if (record) records.push(record);
			position = following;
		}
		return { records, end: position };
	}

	private forgetOldest(): void {
		if (this.next.size <= CHAIN_MEMORY) return;
		let drop = this.next.size - CHAIN_MEMORY / 2;
		for (const [key, value] of this.next) {
			if (drop-- <= 0) break;
			this.next.delete(key);
			this.kept.delete(value);
		}
	}
}
