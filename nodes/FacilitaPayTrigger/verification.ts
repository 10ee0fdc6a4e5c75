import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from '../FacilitaPay/transport';
import { isPathId } from '../FacilitaPay/validation/pathId';
import type { Doubt, EventRule } from './rules';
import { ruleFor } from './rules';

/*
 * Verify With API, the pure part: which objects an event names (the plan), and what the API's
 * answer for each means for the event (the assessment). The reads themselves are in reads.ts, the
 * verdict over all of them in decision.ts.
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

/** What a read brought back. */
export type ReadResult =
	| { kind: 'found'; answer: unknown }
	/** FacilitaPay answered that the object does not exist (404, 410, 400, 422). */
	| { kind: 'absent'; status: number }
	/** The read failed (down, 5xx, 429 until the deadline, credentials refused). */
	| { kind: 'failed'; reason: string }
	/** Not read: the deadline came first, or an earlier read already proved the event false. */
	| { kind: 'notRead' };

/** What one object's answer means for the event. */
export type Finding =
	| { kind: 'confirms'; object: IDataObject }
	| { kind: 'moneyDiffers'; object: IDataObject; field: string }
	| { kind: 'before'; object: IDataObject; status: string }
	| { kind: 'other'; object: IDataObject; note: string }
	| { kind: 'absent'; proof: boolean }
	| { kind: 'unread'; reason: string };

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

function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value);
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

/** What one read means for the event, by the event's rule. Pure. */
export function assess(read: Read, result: ReadResult, rule: EventRule): Finding {
	if (result.kind === 'notRead') return { kind: 'unread', reason: 'not read in time' };
	if (result.kind === 'failed') return { kind: 'unread', reason: result.reason };
	if (result.kind === 'absent') {
		// An invoice read by its own ID uses a path whose meaning the spec leaves open: no proof.
		// A subject may be a company, which /subject/people does not read: never a proof either.
		const proof =
			rule.whenAbsent === 'provenFalse' &&
			read.target !== 'subject' &&
			!(read.target === 'invoice' && !read.subscriptionId);
		return { kind: 'absent', proof };
	}
	const object = objectOf(read, result.answer);
	if (!object) {
		if (read.target === 'invoice' && Array.isArray(result.answer)) {
			return { kind: 'absent', proof: false };
		}
		return { kind: 'other', object: {}, note: 'FacilitaPay answered without an object' };
	}
	const foundId = idOf(object.id);
	if (foundId !== undefined && foundId !== read.id) {
		return { kind: 'other', object, note: `FacilitaPay answered with ${read.target} ${foundId}` };
	}
	for (const [field, expected] of Object.entries(read.money ?? {})) {
		const actual = object[field];
		if (actual === undefined || actual === null) continue;
		if (text(actual) !== text(expected)) {
			// The values stay out of the finding: they end in n8n's log, and anyone can send an
			// unsigned payload naming someone's document number.
			return { kind: 'moneyDiffers', object, field };
		}
	}
	for (const [field, expected] of Object.entries(read.expect ?? {})) {
		const actual = object[field];
		if (text(actual) !== text(expected)) {
			return {
				kind: 'other',
				object,
				note: `${field} is ${actual === undefined ? 'not given' : text(actual)} at FacilitaPay, ${text(expected)} in the event`,
			};
		}
	}
	const status = typeof object.status === 'string' ? object.status : undefined;
	if (rule.confirms === undefined || (status !== undefined && rule.confirms.includes(status))) {
		return { kind: 'confirms', object };
	}
	if (status !== undefined && rule.before?.includes(status)) {
		return { kind: 'before', object, status };
	}
	return {
		kind: 'other',
		object,
		note: `status is ${status ?? 'not given'} at FacilitaPay (${rule.confirms.join(', ')} would confirm the event)`,
	};
}

/** The verdict over every object of an event. */
export type Verdict =
	| { kind: 'verified' }
	| { kind: 'provenFalse'; reason: string }
	| { kind: Doubt; reason: string };

/**
 * The verdict for the event from its findings, by the event's rule: proof beats every doubt; a doubt
 * that redelivery may settle beats one that is delivered; verified only when every object confirms.
 */
export function verdict(reads: Read[], findings: Finding[], rule: EventRule): Verdict {
	const named = (index: number) => `${reads[index].target} ${reads[index].id}`;
	const doubts: Array<{ doubt: Doubt; reason: string }> = [];
	let unread = 0;
	let firstUnread = '';
	for (const [index, finding] of findings.entries()) {
		switch (finding.kind) {
			case 'moneyDiffers':
				return {
					kind: 'provenFalse',
					reason: `${named(index)} has another ${finding.field} at FacilitaPay than in the event`,
				};
			case 'absent':
				if (finding.proof) {
					return { kind: 'provenFalse', reason: `FacilitaPay does not know ${named(index)}` };
				}
				doubts.push({
					doubt: rule.whenAbsent === 'provenFalse' ? 'deliver' : rule.whenAbsent,
					reason: `FacilitaPay's API does not show ${named(index)}`,
				});
				break;
			case 'before':
				doubts.push({
					doubt: rule.whenBefore,
					reason: `${named(index)} is still ${finding.status} at FacilitaPay`,
				});
				break;
			case 'other':
				doubts.push({ doubt: rule.whenOther, reason: `${named(index)}: ${finding.note}` });
				break;
			case 'unread':
				unread += 1;
				if (firstUnread === '') firstUnread = `${named(index)}: ${finding.reason}`;
				break;
			case 'confirms':
				break;
		}
	}
	if (unread > 0) {
		const partly = unread < findings.length;
		doubts.push({
			doubt: partly ? rule.whenPartlyRead : rule.whenUnread,
			reason: partly
				? `${unread} of ${findings.length} objects could not be read in time (${firstUnread})`
				: `could not be read (${firstUnread})`,
		});
	}
	const retry = doubts.find((entry) => entry.doubt === 'retry');
	if (retry) return { kind: 'retry', reason: retry.reason };
	if (doubts.length > 0) {
		return { kind: 'deliver', reason: doubts.map((entry) => entry.reason).join('; ') };
	}
	return { kind: 'verified' };
}

/** One line per object of the `verification` output: what was read and what it showed. */
export function findingSummary(read: Read, finding: Finding): IDataObject {
	const line: IDataObject = { object: read.target, id: read.id };
	switch (finding.kind) {
		case 'confirms':
			return { ...line, found: true, status: finding.object.status ?? null, confirms: true };
		case 'before':
			return { ...line, found: true, status: finding.status, confirms: false };
		case 'other':
			return {
				...line,
				found: true,
				status: finding.object.status ?? null,
				confirms: false,
				note: finding.note,
			};
		case 'moneyDiffers':
			return { ...line, found: true, confirms: false, note: `${finding.field} differs` };
		case 'absent':
			return { ...line, found: false, confirms: false };
		case 'unread':
			return { ...line, found: null, confirms: null, note: finding.reason };
	}
}

/** Re-exported for callers that need the rule with the plan. */
export { ruleFor };
