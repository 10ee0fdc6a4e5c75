/**
 * Finds at FacilitaPay the record a money-moving request created or changed, by its exact
 * identity, when a retry, an unknown outcome or a re-used Idempotency Key has to be settled. Only
 * reads, every one with `retry: 'lookup'` (a 500 is read again). Never matched on value, accounts or time. Each
 * money-moving operation module declares where its record is, once (`export const money`, with one
 * of the places below); the router hands that place to `RecordLookups.find`.
 *
 * - POST /transactions (payout, dynamic PIX, boleto, local pay-in): the node writes the payment's
 *   identity in the transaction's `meta` (`meta.n8n_facilitapay_ref`, beside the user's own meta).
 *   The subject's transactions, `GET /subject/:subject_id/transactions`, are read to their end once
 *   per run (every item of that subject shares the read) and the record whose
 *   `meta.n8n_facilitapay_ref` equals the identity is it.
 * - POST /subscriptions: the same with the partner's subscriptions, `GET /subscriptions`, and
 *   `subscription.meta.n8n_facilitapay_ref`.
 * - Cancel (`GET /transactions/:id/refund`), Refund (`GET /transactions/:id/refund_received_transaction`),
 *   Subscription Cancel and Submit 3DS Challenge change a record the request names: that record is
 *   read and its status tells (transactions.ts, subscriptions.ts).
 * - Everything else (card checkout, subject creates with documents, Upload Document, Register Bank
 *   Account, the marketplace requests, Wire > Update Bank Account): FacilitaPay keeps nothing a
 *   client can find it by → always `cannotTell`, with what to check.
 *
 * `notFound` carries whether the list read shows FacilitaPay keeping the identity in `meta` (some
 * record of it carries `n8n_facilitapay_ref`): where it does not, "not found" cannot mean "not sent".
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from '../transport';
import { serviceNow } from '../transport';
import { IDENTITY_FIELD } from './identity';
import type { FindSentResult, ListWindow, RecordPlace } from './types';
import { isVoid } from './types';
import type { ListCache } from './listCache';
import { sentMemory } from './sentMemory';
import { memoryScope } from './scope';
import { type Read, readAll, readOne } from './reads';
import { isObject, textOf } from './records';
import { findSubscriptionState } from './subscriptions';
import { findTransactionState } from './transactions';

function bodyPart(request: ApiRequest, key: string): IDataObject {
	const body = request.body ?? {};
	return isObject(body[key]) ? (body[key] as IDataObject) : {};
}

/** The path segment at `position` of a request's path (`/transactions/:id/refund` → 2: the ID). */
function segment(request: ApiRequest, position: number): string {
	return request.path.split('?')[0].split('/')[position] ?? '';
}

/*
 * Where a money request's record is found: each money-moving operation module declares one of
 * these once, as `export const money: MoneyDeclaration` (node.type.ts).
 */

/** The place of a subject's transactions (`key`: the subject's ID, as the chain keeps it). */
export function subjectTransactions(subject: string): RecordPlace {
	return {
		by: 'meta',
		holder: 'transaction',
		key: subject,
		list: `/subject/${encodeURIComponent(subject)}/transactions`,
		one: '/transactions/',
		what: `the transactions of subject ${subject}`,
		name: 'transaction',
	};
}

/** A transaction create: the subject's transactions, by the identity in `transaction.meta`. */
export function inSubjectTransactions(request: ApiRequest): RecordPlace {
	const subject = textOf(bodyPart(request, 'transaction').subject_id);
	if (subject === undefined)
		return { by: 'none', why: 'The transaction names no subject, so its list cannot be read.' };
	return subjectTransactions(subject);
}

/** A subscription create: the partner's subscriptions, by the identity in `subscription.meta`. */
export function inPartnerSubscriptions(): RecordPlace {
	return {
		by: 'meta',
		holder: 'subscription',
		key: 's',
		list: '/subscriptions',
		one: '/subscriptions/',
		what: "the partner's subscriptions",
		name: 'subscription',
	};
}

/** The place a chain's list key names (`s`: the subscriptions, else a subject's transactions). */
export function placeOfKey(key: string): RecordPlace {
	return key === 's' ? inPartnerSubscriptions() : subjectTransactions(key);
}

/** Cancel or Refund of the transaction the path names (`/transactions/:id/…`): its status. */
export function transactionStatus(action: 'cancel' | 'refund', request: ApiRequest): RecordPlace {
	const id = segment(request, 2);
	return { by: 'state', find: async (t, r) => await findTransactionState(action, id, t, r) };
}

/** Cancel or 3-D Secure of the subscription the path names (`/subscriptions/:id/…`): its status. */
export function subscriptionStatus(
	action: 'cancel' | 'threedsChallenge',
	request: ApiRequest,
): RecordPlace {
	const id = segment(request, 2);
	return { by: 'state', find: async (t, r) => await findSubscriptionState(action, id, t, r) };
}

/** A request FacilitaPay keeps nothing to find by: `why` says what to check instead. */
export function nowhere(why: string): RecordPlace {
	return { by: 'none', why };
}

/** For a request sent once by an operation that declares no record (a subject sent with documents). */
export function undeclared(request: ApiRequest): RecordPlace {
	return nowhere(
		`No record of ${request.method} ${request.path.split('?')[0]} can be found at FacilitaPay. Check the FacilitaPay dashboard before sending it again.`,
	);
}

/** A list read from a point to its end, indexed by the identity its records carry in `meta`. */
type ListIndex =
	| { byRef: Map<string, IDataObject[]>; metaShown: boolean; lastId?: string }
	| { problem: string };

/** The identity a record carries in its `meta`, when it carries one. */
export function refOf(record: IDataObject): string | undefined {
	return isObject(record.meta) ? textOf(record.meta[IDENTITY_FIELD]) : undefined;
}

/**
 * The lookups of one run: each window of a list is read at most once (the first item that needs
 * it reads it, the others wait for that read), so a retry of N payouts to S subjects reads the
 * pages of those S lists since the chain's point, not N times. Records created by this run after
 * the read are not in it: a run looks up an identity before it sends it, never after.
 */
export class RecordLookups {
	private readonly lists = new Map<string, Promise<ListIndex>>();

	private readonly taken = new Set<string>();

	/** Pages read by this run's lookups (for the bench and the output's note). */
	pages = 0;

	/**
	 * `cache`: what this process learnt of lists read from their start, under `scope` (the account
	 * the credentials reach, transport's accountOf): a key's lookup then reads only what came after.
	 */
	constructor(
		private readonly read: Read,
		private readonly cache?: {
			lists: ListCache;
			/** The account the lists are read at (transport's accountOf). */
			account: string | Promise<string>;
			/** The credential's ID: the memory is kept per credential and account. */
			credentialId?: string;
		},
	) {}

	/** The memory's scope of the lists (undefined without a cache). */
	private async scope(): Promise<string | undefined> {
		if (!this.cache) return undefined;
		return memoryScope(this.cache.credentialId ?? '', await this.cache.account);
	}

	/** FacilitaPay's time now, by its clock (the Date of the answers just read). */
	private async readAt(): Promise<number | undefined> {
		return this.cache ? serviceNow(await this.cache.account) : undefined;
	}

	/**
	 * Records known only from an earlier read of this process (`__partial`: their ID and meta, the
	 * status they had) read again by ID: a record this account does not hold (404: the credential
	 * now reaches another account) is dropped, never taken as found; one that cannot be read is a
	 * problem. Records FacilitaPay showed canceled or failed stay so (those statuses are final).
	 */
	async judge(
		place: RecordPlace,
		records: IDataObject[],
		all = false,
	): Promise<IDataObject[] | { problem: string }> {
		if (place.by !== 'meta') return records;
		const judged: IDataObject[] = [];
		for (const record of records) {
			if (isVoid(record) || (!all && !record.__partial)) {
				judged.push(record);
				continue;
			}
			const id = String(record.id);
			const one = await readOne(
				this.read,
				`${place.one}${encodeURIComponent(id)}`,
				`${place.name} ${id}`,
			);
			this.pages++;
			if ('problem' in one) {
				if (one.status === 404) continue;
				return { problem: one.problem };
			}
			// The record read must carry the identity it was indexed by.
			if (refOf(record) !== undefined && refOf(one.record) !== refOf(record)) continue;
			judged.push(one.record);
		}
		return judged;
	}

	/**
	 * The record made under the identity `ref` in one of `windows` (the place's list from its start
	 * when none are given), nothing, or why it cannot tell. `metaShown`: a record read after a point
	 * the chain recorded carries an identity (evidence that FacilitaPay keeps `meta` today).
	 */
	async find(place: RecordPlace, ref: string, windows?: ListWindow[]): Promise<FindSentResult> {
		if (place.by === 'none') return { cannotTell: place.why };
		if (place.by === 'state') return await place.find(this.taken, this.read);
		const looked = windows && windows.length > 0 ? windows : [{ place }];
		let metaShown = false;
		const found: IDataObject[] = [];
		for (const window of looked) {
			const index = await this.windowOf(window);
			if ('problem' in index)
				return {
					cannotTell: `Whether this ${window.place.name} was processed is unknown: ${index.problem} Check ${window.place.what} (or the FacilitaPay dashboard) before sending it again.`,
				};
			found.push(...(index.byRef.get(ref) ?? []));
			metaShown ||= index.metaShown;
		}
		const readAt = await this.readAt();
		if (found.length === 0) return { notFound: true, metaShown, readAt };
		const judged = await this.judge(looked[0].place, found);
		if ('problem' in judged)
			return {
				cannotTell: `Whether this ${looked[0].place.name} was processed is unknown: ${judged.problem} Check ${looked[0].place.what} (or the FacilitaPay dashboard) before sending it again.`,
			};
		// Known from an earlier read but not held by this account now: not found here.
		if (judged.length === 0) return { notFound: true, metaShown, readAt };
		return { found: judged.find((record) => !isVoid(record)) ?? judged[0], all: judged, readAt };
	}

	/**
	 * Every record of `place`'s list carrying `ref`, as FacilitaPay shows them now, and how many
	 * records of the list this process has read in all (Transaction > Find By Idempotency Key): the
	 * list is read whole once per process and account, then only what came after its newest record.
	 */
	async findEvery(
		place: Extract<RecordPlace, { by: 'meta' }>,
		ref: string,
	): Promise<{ records: IDataObject[]; count?: number } | { problem: string }> {
		const result = await this.find(place, ref);
		if ('cannotTell' in result) return { problem: result.cannotTell };
		const records = 'found' in result ? (result.all ?? [result.found]) : [];
		const scope = await this.scope();
		const known =
			scope === undefined ? undefined : this.cache!.lists.get(`${scope}\u0000${place.list}`);
		return { records, count: known?.count };
	}

	private recounting = new Map<string, { started: boolean; done: Promise<IDataObject[][]> }>();

	/**
	 * After a keyed payment was answered: the records that carry its identity now, read after the
	 * newest record this process knew of the list (one read for every item that asks meanwhile).
	 * Undefined when the list was never read from its start in this process (no point to read from).
	 */
	async recount(place: RecordPlace, ref: string): Promise<IDataObject[] | undefined> {
		if (place.by !== 'meta' || !this.cache) return undefined;
		const key = `${await this.scope()}\u0000${place.list}`;
		if (!this.cache.lists.get(key)) return undefined;
		let next = this.recounting.get(key);
		if (!next || next.started) {
			const previous = next?.done;
			const entry = { started: false, done: Promise.resolve([] as IDataObject[][]) };
			entry.done = (async () => {
				await previous?.catch(() => undefined);
				entry.started = true;
				const known = this.cache!.lists.get(key);
				const since = await readAll(
					this.read,
					place.list,
					place.what,
					known?.lastId,
					() => this.pages++,
				);
				if ('problem' in since) return [];
				this.cache!.lists.add(key, since.records, refOf);
				return [];
			})();
			this.recounting.set(key, entry);
			next = entry;
		}
		await next.done;
		return this.cache.lists.get(key)?.byRef.get(ref);
	}

	private windowOf(window: ListWindow): Promise<ListIndex> {
		const id = `${window.place.list}\u0000${window.after ?? ''}\u0000${window.first ?? ''}`;
		let list = this.lists.get(id);
		if (!list) {
			list = this.index(window);
			this.lists.set(id, list);
		}
		return list;
	}

	private async index(window: ListWindow): Promise<ListIndex> {
		const { place } = window;
		const records: IDataObject[] = [];
		// The point is a record of this list read by its ID first: a point this account does not
		// hold (the credential now reaches another account) is no point, the list is read whole.
		let point = window.first ?? window.after;
		const cacheKey =
			this.cache && point === undefined ? `${await this.scope()}\u0000${place.list}` : undefined;
		const known = cacheKey === undefined ? undefined : this.cache!.lists.get(cacheKey);
		if (cacheKey !== undefined && known) {
			const since = await readAll(
				this.read,
				place.list,
				place.what,
				known.lastId,
				() => this.pages++,
			);
			if ('problem' in since) return since;
			const list = this.cache!.lists.add(cacheKey, since.records, refOf);
			return { byRef: list.byRef, metaShown: false };
		}
		if (point !== undefined) {
			const one = await readOne(
				this.read,
				`${place.one}${encodeURIComponent(point)}`,
				`${place.name} ${point}`,
			);
			this.pages++;
			if ('problem' in one) point = undefined;
			else if (window.first !== undefined) records.push(one.record);
		}
		const list = await readAll(this.read, place.list, place.what, point, () => this.pages++);
		if ('problem' in list) return list;
		records.push(...list.records);
		const byRef = new Map<string, IDataObject[]>();
		for (const record of records) {
			const ref = refOf(record);
			if (ref === undefined) continue;
			const same = byRef.get(ref) ?? [];
			same.push(record);
			byRef.set(ref, same);
		}
		if (cacheKey !== undefined) this.cache!.lists.add(cacheKey, records, refOf);
		const fromPoint = point !== undefined;
		const lastId = textOf(records[records.length - 1]?.id);
		return { byRef, metaShown: fromPoint && byRef.size > 0, lastId };
	}
}

/**
 * The lookups of one run of the node, with this process's memory of lists (per account: the
 * base URL and who signs in, so a credential edited from Sandbox to Production is another one).
 * Nothing is kept in the workflow's static data: see docs/money.md ("How far back a lookup reads")
 * for why a node that moves money must not write it.
 */
export function lookupsFor(
	read: Read,
	account: string | Promise<string>,
	credentialId = '',
): RecordLookups {
	return new RecordLookups(read, { lists: sentMemory.lists, account, credentialId });
}
