import type { IDataObject } from 'n8n-workflow';

/**
 * What this process learnt of a list it read from its start (a subject's transactions): the
 * identities its records carry, up to its newest record `lastId`. A later lookup of a key in that
 * list reads only the pages after `lastId` (a keyed payout to a subject with 50,000 transactions
 * reads the list once per process, then one or two pages). Only records carrying an identity are
 * kept, as `{ id, meta }`; bounded by a count of entries (the oldest lists are forgotten first).
 */
export interface KnownList {
	lastId?: string;
	byRef: Map<string, IDataObject[]>;
	entries: number;
	/** How many records of the list were read in all (identities or not). */
	count: number;
}

export class ListCache {
	private readonly lists = new Map<string, KnownList>();

	private entries = 0;

	constructor(private readonly maxEntries = 200_000) {}

	get(key: string): KnownList | undefined {
		return this.lists.get(key);
	}

	/** Adds records read after the list's `lastId` (or from its start) and moves its end. */
	add(
		key: string,
		records: IDataObject[],
		identityOf: (record: IDataObject) => string | undefined,
	): KnownList {
		const known: KnownList = this.lists.get(key) ?? { byRef: new Map(), entries: 0, count: 0 };
		this.lists.delete(key);
		for (const record of records) {
			const ref = identityOf(record);
			if (ref === undefined) continue;
			const same = known.byRef.get(ref) ?? [];
			// Its status as read (a canceled or failed one stays so; others are read again when needed).
			same.push({ id: record.id, meta: record.meta, status: record.status, __partial: true });
			known.byRef.set(ref, same);
			known.entries++;
			this.entries++;
		}
		known.count += records.length;
		const last = records[records.length - 1]?.id;
		if (typeof last === 'string' || typeof last === 'number') known.lastId = String(last);
		this.lists.set(key, known);
		for (const [oldest, list] of this.lists) {
			if (this.entries <= this.maxEntries || oldest === key) break;
			this.lists.delete(oldest);
			this.entries -= list.entries;
		}
		return known;
	}

	clear(): void {
		this.lists.clear();
		this.entries = 0;
	}
}
