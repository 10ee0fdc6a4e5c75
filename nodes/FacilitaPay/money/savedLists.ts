import type { IDataObject } from 'n8n-workflow';

import type { KnownList } from './listCache';

/**
 * Points in a subject's transaction list that outlive the process: the workflow's static data
 * (n8n saves it with the workflow after every production execution, on a queue-mode worker too)
 * holds, per list this node read to its end, the list's newest record (`p`) and the Idempotency
 * Keys its records carry up to it (`k`: [identity, record ID]). A keyed lookup in a new process
 * then reads the point's record (is it still this account's?) and only the pages after it: one
 * keyed payout to a subject with 50,000 transactions reads 2–3 pages, not 501.
 *
 * The window of a key after a restart is therefore: the newest 5,000 keyed payments of the
 * subject up to the point, and everything after it; an older key is recognised by n8n's store of
 * this node (an attempt recorded there: never sent again without a known outcome).
 *
 * Why this is safe: a saved entry is one coherent read (every key up to its point); two executions
 * saving at once leave one of them, an older but whole one (more pages next time, never a missed
 * key); past the caps whole entries are dropped, oldest first, never a part of one. Origins (the
 * identities of retries) are not saved: a retry reads from its chain's own points.
 *
 * FacilitaPay's list is oldest first, keyset paged, with no date or order filter (spec
 * `GET /subject/:id/transactions`, service-facts "Lists carry no paging metadata", live-docs-facts
 * "Still found nowhere"), so a list this workflow never read is read from its start once.
 */
export interface SavedList {
	/** The newest record read (the point). */
	p: string;
	/** The Idempotency Keys up to the point: [identity, record ID]. */
	k: Array<[string, string]>;
	/** When it was saved (ms): the oldest entries go first past the caps. */
	a: number;
}

const FIELD = 'facilitapayKnownLists';
/** At most this many lists and key entries are saved (a few hundred kB of static data). */
const MAX_LISTS = 300;
const MAX_KEYS = 5_000;

const isKey = (ref: string) => ref.startsWith('key:');

export class SavedLists {
	constructor(private readonly staticData: IDataObject) {}

	private get all(): Record<string, SavedList> {
		const saved = this.staticData[FIELD];
		if (saved !== null && typeof saved === 'object' && !Array.isArray(saved))
			return saved as unknown as Record<string, SavedList>;
		const fresh: Record<string, SavedList> = {};
		this.staticData[FIELD] = fresh as unknown as IDataObject;
		return fresh;
	}

	get(key: string): SavedList | undefined {
		const entry = this.all[key];
		if (!entry || typeof entry.p !== 'string' || !Array.isArray(entry.k)) return undefined;
		return entry;
	}

	/** Saves what is known of a list (its point and its keys), then applies the caps. */
	save(key: string, known: KnownList | undefined, now = Date.now()): void {
		if (!known?.lastId) return;
		const keys: Array<[string, string]> = [];
		for (const [ref, records] of known.byRef) {
			if (!isKey(ref)) continue;
			for (const record of records) keys.push([ref, String(record.id)]);
		}
		const all = this.all;
		// The newest keys only (the list is oldest first): a key older than the newest MAX_KEYS of
		// the subject is settled by n8n's store of this node (K:<key>), as docs/money.md says.
		all[key] = { p: known.lastId, k: keys.slice(-MAX_KEYS), a: now };
		const entries = Object.entries(all).sort(([, a], [, b]) => a.a - b.a);
		let count = entries.reduce((sum, [, entry]) => sum + entry.k.length, 0);
		let lists = entries.length;
		for (const [name, entry] of entries) {
			if ((count <= MAX_KEYS && lists <= MAX_LISTS) || name === key) break;
			delete all[name];
			count -= entry.k.length;
			lists--;
		}
	}
}
