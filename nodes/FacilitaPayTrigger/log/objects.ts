import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest, FacilitaPayContext, RunState } from '../../FacilitaPay/transport';
import { apiRequest, failureFacts } from '../../FacilitaPay/transport';
import { isPathId } from '../../FacilitaPay/validation/pathId';

/*
 * Attach Current Objects, the pure part: which objects an event names (the plan) and the request
 * that reads each. The log already proves the event; these reads only add FacilitaPay's current
 * objects to the item, for a user who asks for them.
 */

/** An event naming more objects than this is not read at all (a forgery could name thousands). */
export const MAX_READS = 500;

export type Target = 'transaction' | 'subscription' | 'invoice' | 'subject' | 'bankAccountRequest';

export interface Read {
	target: Target;
	id: string;
	/** Where the API's object goes in the item. */
	outputKey: string;
	/** For transaction_ids: the position in the `transactions` array. */
	index?: number;
	/** invoice: the subscription whose invoices are listed. */
	subscriptionId?: string;
	/** Money fields (value, currency, subject) the API's object must agree with: a mismatch is proof. */
	money?: IDataObject;
	/** Other fields the event states (a status, a checkout): a mismatch is a doubt, not a proof. */
	expect?: IDataObject;
}

export type Plan =
	| { kind: 'reads'; reads: Read[] }
	/** Nothing the API can return (non_identified_bank_transaction, unknown types without IDs). */
	| { kind: 'nothingToRead' }
	/** The event cannot be true as sent (an ID missing or malformed): proven false without a read. */
	| { kind: 'invalid'; reason: string }
	/** More objects than MAX_READS: not read, delivered unverified (nothing proves it false). */
	| { kind: 'tooMany'; count: number };

function objectField(fields: IDataObject, name: string): IDataObject | undefined {
	const value = fields[name];
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

export function idOf(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function defined(object: IDataObject): IDataObject | undefined {
	const result: IDataObject = {};
	for (const [name, value] of Object.entries(object)) {
		if (value !== undefined && value !== null && value !== '') result[name] = value;
	}
	return Object.keys(result).length > 0 ? result : undefined;
}

const TRANSACTION_EVENTS = new Set([
	'identified',
	'payment_approved',
	'payment_failed',
	'payment_expired',
	'payment_refunded',
]);
const LIST_EVENTS = new Set(['exchange_created', 'wire_created', 'wire_waiting_correction']);
const SUBSCRIPTION_EVENTS = new Set([
	'subscription_activated',
	'subscription_canceled',
	'subscription_completed',
]);
const SUBJECT_EVENTS = new Set([
	'subject_approved',
	'subject_reproved',
	'document_required',
	'subject_account_authorization',
]);
const KNOWN = new Set([
	...TRANSACTION_EVENTS,
	...LIST_EVENTS,
	...SUBSCRIPTION_EVENTS,
	...SUBJECT_EVENTS,
	'invoice_paid',
	'account_request_status',
	'non_identified_bank_transaction',
	'kyc_status',
]);

/**
 * Which reads verify this event (its own fields, `type` included), or why there is nothing to
 * read, or why it cannot be true. Pure.
 */
export function planVerification(fields: IDataObject): Plan {
	const type = String(fields.type);
	if (type === 'non_identified_bank_transaction') return { kind: 'nothingToRead' };
	const known = KNOWN.has(type);
	const reads: Read[] = [];
	const missing = (name: string): Plan => ({
		kind: 'invalid',
		reason: `a notification of type ${type} without ${name}`,
	});

	if (type === 'kyc_status') {
		const data = objectField(fields, 'data') ?? {};
		const id = idOf(data.id);
		if (id === undefined) return missing('data.id');
		reads.push({
			target: 'subject',
			id,
			outputKey: 'subject',
			money: defined({
				document_number: data.document_number,
				document_type: data.document_type,
			}),
			expect: defined({ status: data.status }),
		});
		return checked(type, reads);
	}

	const transactionId = idOf(fields.transaction_id);
	if (TRANSACTION_EVENTS.has(type) || (!known && transactionId !== undefined)) {
		if (transactionId === undefined) return missing('transaction_id');
		reads.push({
			target: 'transaction',
			id: transactionId,
			outputKey: 'transaction',
			expect: defined({ checkout_id: fields.checkout_id }),
		});
	}
	const transactionIds = fields.transaction_ids;
	if (LIST_EVENTS.has(type) || (!known && transactionIds !== undefined)) {
		if (!Array.isArray(transactionIds) || transactionIds.length === 0) {
			return missing('transaction_ids');
		}
		for (const [index, raw] of transactionIds.entries()) {
			const id = idOf(raw);
			if (id === undefined) return missing('a valid transaction ID in transaction_ids');
			reads.push({ target: 'transaction', id, outputKey: 'transactions', index });
		}
	}
	const subscription = objectField(fields, 'subscription');
	if (SUBSCRIPTION_EVENTS.has(type) || (!known && subscription !== undefined)) {
		const id = idOf(subscription?.id);
		if (id === undefined) return missing('subscription.id');
		reads.push({
			target: 'subscription',
			id,
			outputKey: 'subscriptionFromApi',
			money: defined({ subject_id: subscription?.subject_id }),
		});
	}
	const invoice = objectField(fields, 'invoice');
	if (type === 'invoice_paid' || (!known && invoice !== undefined)) {
		const id = idOf(invoice?.id);
		if (id === undefined) return missing('invoice.id');
		reads.push({
			target: 'invoice',
			id,
			outputKey: 'invoiceFromApi',
			subscriptionId: idOf(invoice?.subscription_id),
			money: defined({ subject_id: invoice?.subject_id }),
		});
	}
	const subjectId = idOf(fields.subject_id);
	if (SUBJECT_EVENTS.has(type) || (!known && subjectId !== undefined && reads.length === 0)) {
		if (subjectId === undefined) return missing('subject_id');
		reads.push({ target: 'subject', id: subjectId, outputKey: 'subject' });
	}
	const requestId = idOf(fields.request_id);
	if (type === 'account_request_status' || (!known && requestId !== undefined)) {
		if (requestId === undefined) return missing('request_id');
		reads.push({
			target: 'bankAccountRequest',
			id: requestId,
			outputKey: 'bank_account_request',
			expect: defined({ status: fields.status }),
		});
	}
	if (reads.length === 0) return { kind: 'nothingToRead' };
	return checked(type, reads);
}

function checked(type: string, reads: Read[]): Plan {
	if (reads.length > MAX_READS) return { kind: 'tooMany', count: reads.length };
	for (const read of reads) {
		if (!isPathId(read.id)) {
			return {
				kind: 'invalid',
				reason: `a notification of type ${type} naming an ID FacilitaPay never gives`,
			};
		}
		if (read.subscriptionId !== undefined && !isPathId(read.subscriptionId)) {
			delete read.subscriptionId;
		}
	}
	return { kind: 'reads', reads };
}

/** The request that reads one object. */
export function requestFor(read: Read): ApiRequest {
	const id = encodeURIComponent(read.id);
	let path: string;
	switch (read.target) {
		case 'transaction':
			path = `/transactions/${id}`;
			break;
		case 'subscription':
			path = `/subscriptions/${id}`;
			break;
		case 'invoice':
			// Listed by subscription when the event names it; the same path with the invoice's own ID
			// otherwise (the spec leaves open which ID that path takes).
			path = `/subscriptions/invoices/${encodeURIComponent(read.subscriptionId ?? read.id)}`;
			break;
		case 'subject':
			path = `/subject/people/${id}`;
			break;
		case 'bankAccountRequest':
			path = `/bank/accounts/request/${id}`;
			break;
	}
	return { method: 'GET', path, retry: 'safe' };
}

/** The API's object for a read, out of its answer (an invoice out of its subscription's list). */
function objectOf(read: Read, answer: unknown): IDataObject | undefined {
	let object = answer;
	if (read.target === 'invoice' && Array.isArray(answer)) {
		object = answer.find((entry) => idOf((entry as IDataObject | null)?.id) === read.id);
	}
	return object && typeof object === 'object' && !Array.isArray(object)
		? (object as IDataObject)
		: undefined;
}

/** How many objects of one event are read at once. */
export const ATTACH_CONCURRENCY = 4;

/**
 * Reads the objects the event names and puts each where the item shows it (`transaction`,
 * `transactions[i]`, `subject`, …); a read that fails is said under `objectsNotRead`. Never throws.
 */
export async function attachObjects(
	ctx: FacilitaPayContext,
	fields: IDataObject,
	run: RunState,
): Promise<IDataObject> {
	const plan = planVerification(fields);
	if (plan.kind !== 'reads') return {};
	const attached: IDataObject = {};
	const notRead: IDataObject[] = [];
	const queue = [...plan.reads];
	const worker = async () => {
		for (let read = queue.shift(); read; read = queue.shift()) {
			try {
				const answer = await apiRequest.call(ctx, requestFor(read), undefined, run);
				const object = objectOf(read, answer);
				if (read.index === undefined) attached[read.outputKey] = object ?? null;
				else {
					const list = (attached[read.outputKey] as IDataObject[] | undefined) ?? [];
					list[read.index] = object ?? ({} as IDataObject);
					attached[read.outputKey] = list;
				}
			} catch (error) {
				const facts = failureFacts(error);
				notRead.push({
					target: read.target,
					id: read.id,
					reason: facts.status === undefined ? (error as Error).message : `HTTP ${facts.status}`,
				});
			}
		}
	};
	await Promise.all(Array.from({ length: ATTACH_CONCURRENCY }, worker));
	if (notRead.length > 0) attached.objectsNotRead = notRead;
	return attached;
}
