import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from '../transport';

/* The shapes the money rule speaks in: what an item asks, where its record is, what was found. */

/** What a lookup at FacilitaPay found: the record, nothing (and whether `meta` showed), or why it cannot tell. */
export type FindSentResult =
	/** `all`: every record carrying the identity (two: paid twice by overlapping runs). */
	| { found: IDataObject; all?: IDataObject[]; readAt?: number }
	/**
	 * `metaShown` undefined: the record read proves it (a status); false: no record showed the
	 * identity. `readAt`: FacilitaPay's time (epoch ms, its clock) once the lists were read.
	 */
	| { notFound: true; metaShown?: boolean; readAt?: number }
	| { cannotTell: string };

/** Where a money request's record is found at FacilitaPay (declared by its operation module). */
export type RecordPlace =
	/** In the list `list`, by the identity in the `meta` of the body's `holder` object. */
	| {
			by: 'meta';
			holder: string;
			/** The list as the chain names it: the subject's ID, `s` for the subscriptions. */
			key: string;
			list: string;
			/** The path of one record, before its ID. */
			one: string;
			what: string;
			name: string;
	  }
	/** The record the request names: its status tells. */
	| {
			by: 'state';
			find: (
				taken: Set<string>,
				read: (request: ApiRequest) => Promise<unknown>,
			) => Promise<FindSentResult>;
	  }
	/** Nowhere: `why` says what to check instead. */
	| { by: 'none'; why: string };

/**
 * Where in a list to look: from its start, after a record (`after`: not the chain's), or from the
 * chain's own first record there (`first`, read by its ID, then what follows it).
 */
export interface ListWindow {
	place: Extract<RecordPlace, { by: 'meta' }>;
	after?: string;
	first?: string;
}

export type FindSent = (
	place: RecordPlace,
	ref: string,
	windows?: ListWindow[],
) => Promise<FindSentResult>;

/** The records carrying an identity now (after a keyed payment was answered), when they can be read. */
export type Recount = (place: RecordPlace, ref: string) => Promise<IDataObject[] | undefined>;

/** The records again, with their statuses as FacilitaPay shows them now (read by ID where needed). */
export type Judge = (place: RecordPlace, records: IDataObject[]) => Promise<IDataObject[]>;

/** Statuses of a payment that moved no money: it no longer holds its identity. */
const VOID_STATUSES = new Set(['canceled', 'cancelled', 'failed']);

/** Whether FacilitaPay shows this record canceled or failed. */
export function isVoid(record: IDataObject): boolean {
	const status = typeof record.status === 'string' ? record.status.trim().toLowerCase() : '';
	return VOID_STATUSES.has(status);
}

/** One money-moving request of one item. */
export interface MoneyItem {
	itemIndex: number;
	request: ApiRequest;
	/** The user's Idempotency Key for this item, when given. */
	idempotencyKey?: string;
	/** Where its record is found (its operation declares it); nowhere when not given. */
	place?: RecordPlace;
}

/** What to do with an item's money request. */
export type MoneyDecision =
	| { kind: 'send' }
	/** Retry On Fail: the answer this execution already got. */
	| { kind: 'replay'; answer: unknown }
	/** Done before (FacilitaPay holds it under this identity): not sent. */
	| { kind: 'alreadyDone'; json: IDataObject }
	/** Another item of this run carries the same identity: not sent, not a failure. */
	| { kind: 'notSent'; json: IDataObject };

/** Whether FacilitaPay keeps a record this request can be found by (not: card checkout…). */
export function findable(item: MoneyItem): boolean {
	return item.place?.by === 'meta' || item.place?.by === 'state';
}

/** The body object that carries `meta` (transaction, subscription), when the request has one. */
export function holderOf(item: MoneyItem): string | undefined {
	return item.place?.by === 'meta' ? item.place.holder : undefined;
}
