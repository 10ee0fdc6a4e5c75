/**
 * Finds at FacilitaPay the record a money-moving request created or changed, by its exact
 * identity, when a retry, an unknown outcome or a re-used Idempotency Key has to be settled. Only
 * reads, every one with `retry: 'safe'`. Never matched on value, accounts or time. Each
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
import { IDENTITY_FIELD } from './rule';
import type { FindSentResult, RecordPlace } from './rule';
import { type Read, readAll } from './reads';
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

/** A transaction create: the subject's transactions, by the identity in `transaction.meta`. */
export function inSubjectTransactions(request: ApiRequest): RecordPlace {
	const subject = textOf(bodyPart(request, 'transaction').subject_id);
	if (subject === undefined)
		return { by: 'none', why: 'The transaction names no subject, so its list cannot be read.' };
	return {
		by: 'meta',
		holder: 'transaction',
		list: `/subject/${encodeURIComponent(subject)}/transactions`,
		what: `the transactions of subject ${subject}`,
		name: 'transaction',
	};
}

/** A subscription create: the partner's subscriptions, by the identity in `subscription.meta`. */
export function inPartnerSubscriptions(): RecordPlace {
	return {
		by: 'meta',
		holder: 'subscription',
		list: '/subscriptions',
		what: "the partner's subscriptions",
		name: 'subscription',
	};
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

/** A list read to its end, indexed by the identity its records carry in `meta`. */
type ListIndex = { byRef: Map<string, IDataObject>; metaShown: boolean } | { problem: string };

/** The identity a record carries in its `meta`, when it carries one. */
export function refOf(record: IDataObject): string | undefined {
	return isObject(record.meta) ? textOf(record.meta[IDENTITY_FIELD]) : undefined;
}

/**
 * The lookups of one run: each list is read at most once (the first item that needs it reads it,
 * the others wait for that read), so a retry of N payouts to S subjects reads the pages of those S
 * lists, not N times. Records created by this run after the read are not in it: a run looks up an
 * identity before it sends it, never after.
 */
export class RecordLookups {
	private readonly lists = new Map<string, Promise<ListIndex>>();

	private readonly taken = new Set<string>();

	constructor(private readonly read: Read) {}

	/** The record made under the identity `ref` at `place`, nothing, or why it cannot tell. */
	async find(place: RecordPlace, ref: string): Promise<FindSentResult> {
		if (place.by === 'none') return { cannotTell: place.why };
		if (place.by === 'state') return await place.find(this.taken, this.read);
		let list = this.lists.get(place.list);
		if (!list) {
			list = this.index(place.list, place.what);
			this.lists.set(place.list, list);
		}
		const index = await list;
		if ('problem' in index)
			return {
				cannotTell: `Whether this ${place.name} was processed is unknown: ${index.problem} Check ${place.what} (or the FacilitaPay dashboard) before sending it again.`,
			};
		const record = index.byRef.get(ref);
		if (record) return { found: record };
		return { notFound: true, metaShown: index.metaShown };
	}

	private async index(path: string, what: string): Promise<ListIndex> {
		const list = await readAll(this.read, path, what);
		if ('problem' in list) return list;
		const byRef = new Map<string, IDataObject>();
		for (const record of list.records) {
			const ref = refOf(record);
			if (ref !== undefined && !byRef.has(ref)) byRef.set(ref, record);
		}
		return { byRef, metaShown: byRef.size > 0 };
	}
}
