/**
 * Finds at FacilitaPay the record a money-moving request created or changed, by its exact
 * identity, when a retry, an unknown outcome or a re-used Idempotency Key has to be settled. Only
 * reads, every one with `retry: 'safe'`. Never matched on value, accounts or time.
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

import type { ApiRequest } from '../../../transport';
import { IDENTITY_FIELD } from '../../../transport/money';
import type { FindSentResult } from '../../../transport/money';
import { type Read, readAll } from './reads';
import { isObject, textOf } from './records';
import { findSubscriptionState } from './subscriptions';
import { findTransactionState } from './transactions';

/** Where a request's record is found. */
export type RecordPlace =
	| { by: 'meta'; list: string; what: string; name: string }
	| { by: 'state'; find: (taken: Set<string>, read: Read) => Promise<FindSentResult> }
	| { by: 'none'; why: string };

function bodyPart(request: ApiRequest, key: string): IDataObject {
	const body = request.body ?? {};
	return isObject(body[key]) ? (body[key] as IDataObject) : {};
}

/** The one wrapper object of a create body that carries `meta` ("transaction", "subscription"). */
export function metaHolder(request: ApiRequest): string | undefined {
	const method = String(request.method).toUpperCase();
	const path = request.path.split('?')[0].replace(/\/+$/, '');
	if (method === 'POST' && path === '/transactions') return 'transaction';
	if (method === 'POST' && path === '/subscriptions') return 'subscription';
	return undefined;
}

/** Where the record of `request` is found, or why it cannot be. */
export function recordPlaceOf(request: ApiRequest): RecordPlace {
	const method = String(request.method).toUpperCase();
	const path = request.path.split('?')[0].replace(/\/+$/, '');
	let match: RegExpExecArray | null;
	const holder = metaHolder(request);
	if (holder === 'transaction') {
		const subject = textOf(bodyPart(request, 'transaction').subject_id);
		if (subject === undefined)
			return { by: 'none', why: 'The transaction names no subject, so its list cannot be read.' };
		return {
			by: 'meta',
			list: `/subject/${encodeURIComponent(subject)}/transactions`,
			what: `the transactions of subject ${subject}`,
			name: 'transaction',
		};
	}
	if (holder === 'subscription')
		return {
			by: 'meta',
			list: '/subscriptions',
			what: "the partner's subscriptions",
			name: 'subscription',
		};
	if (method === 'PUT' && (match = /^\/subscriptions\/([^/]+)\/cancel$/.exec(path))) {
		const id = match[1];
		return { by: 'state', find: async (t, r) => await findSubscriptionState('cancel', id, t, r) };
	}
	if (method === 'POST' && (match = /^\/subscriptions\/([^/]+)\/threeds_challenge$/.exec(path))) {
		const id = match[1];
		return {
			by: 'state',
			find: async (t, r) => await findSubscriptionState('threedsChallenge', id, t, r),
		};
	}
	if (method === 'GET' && (match = /^\/transactions\/([^/]+)\/refund$/.exec(path))) {
		const id = match[1];
		return { by: 'state', find: async (t, r) => await findTransactionState('cancel', id, t, r) };
	}
	if (
		method === 'GET' &&
		(match = /^\/transactions\/([^/]+)\/refund_received_transaction$/.exec(path))
	) {
		const id = match[1];
		return { by: 'state', find: async (t, r) => await findTransactionState('refund', id, t, r) };
	}
	if (method === 'POST' && path === '/transactions/checkout')
		return {
			by: 'none',
			why: 'A card checkout page cannot be found at FacilitaPay by an identity (it carries no meta and is listed nowhere until a customer pays). Check the FacilitaPay dashboard (or the payment_failed / payment_approved events) before creating it again.',
		};
	if (method === 'POST' && /^\/subject\/[^/]+\/documents$/.test(path))
		return {
			by: 'none',
			why: 'An uploaded document carries no identity FacilitaPay returns. Read the subject (Subject > Get) and look at its documents before uploading it again.',
		};
	if (method === 'POST' && /^\/subject\/[^/]+\/bank_accounts$/.test(path))
		return {
			by: 'none',
			why: 'FacilitaPay publishes no list of a customer’s bank accounts. Check the FacilitaPay dashboard before registering it again.',
		};
	if (method === 'POST' && (path === '/subject/people' || path === '/subject/companies'))
		return {
			by: 'none',
			why: 'A subject sent with documents carries no identity FacilitaPay returns. Read the subject (Subject > Get) before sending it again.',
		};
	if (method === 'POST' && /^\/subject\/[^/]+\/account_request$/.test(path))
		return {
			by: 'none',
			why: 'FacilitaPay has no list of account authorisation requests. Wait for the subject_account_authorization event, or check the FacilitaPay dashboard, before requesting it again.',
		};
	if (method === 'POST' && path === '/bank/accounts/request')
		return {
			by: 'none',
			why: 'FacilitaPay has no list of bank account requests. Wait for the account_request_status event, or check the FacilitaPay dashboard, before requesting it again.',
		};
	if (method === 'PUT' && /^\/wires\/[^/]+\/update_bank_account$/.test(path))
		return {
			by: 'none',
			why: 'FacilitaPay has no way to read a wire. Wait for the wire_created event, or check the FacilitaPay dashboard, before sending the correction again.',
		};
	return {
		by: 'none',
		why: `No record of ${method} ${path} can be found at FacilitaPay. Check the FacilitaPay dashboard before sending it again.`,
	};
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

	/** The record `request` made under the identity `ref`, nothing, or why it cannot tell. */
	async find(request: ApiRequest, ref: string): Promise<FindSentResult> {
		const place = recordPlaceOf(request);
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
