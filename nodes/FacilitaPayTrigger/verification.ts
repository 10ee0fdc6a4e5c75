import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest, FacilitaPayContext, RetryOptions } from '../FacilitaPay/transport';
import { apiRequest, defaultRetryOptions, failureFacts } from '../FacilitaPay/transport';

/*
 * Verify With API: before a notification starts the workflow, every object it names is read back
 * from FacilitaPay, and the event must agree with what the API says. "Verified" means: each object
 * the event names exists in this FacilitaPay account, its status does not contradict the event,
 * and the item carries the API's objects (money fields from the API, never from the notification).
 */

/** The whole verification (every read, retries included) ends within this time. */
export const VERIFY_BUDGET_MS = 25_000;
/** One read waits at most this long. */
export const READ_TIMEOUT_MS = 10_000;
/** An event naming more objects than this is not read (a forgery could name thousands). */
export const MAX_READS = 25;
/** IDs FacilitaPay gives (UUIDs and similar): anything else is never sent into a path. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** Reads retried once at most, quickly: FacilitaPay waits for the answer to its notification. */
export const verifyRetryOptions: RetryOptions = {
	...defaultRetryOptions,
	maxAttempts: 2,
	baseDelayMs: 250,
	maxDelayMs: 1_000,
	// Looked up at each call, so the transport's waiting (n8n's sleep) stays the one place to fake.
	wait: async (ms: number) => await defaultRetryOptions.wait(ms),
};

type Target = 'transaction' | 'subscription' | 'invoice' | 'subject' | 'bankAccountRequest';

interface StatusRule {
	/** The statuses that agree with the event (anything else contradicts it). */
	allow?: readonly string[];
	/** The statuses that contradict the event (anything else agrees). */
	deny?: readonly string[];
}

export interface Read {
	target: Target;
	id: string;
	/** Where the API's object goes in the item. */
	outputKey: string;
	/** For transaction_ids: the position in the `transactions` array. */
	index?: number;
	status?: StatusRule;
	/** Fields of the API's object that must equal the event's value when both have one. */
	match?: IDataObject;
	/** invoice: the subscription whose invoices are listed. */
	subscriptionId?: string;
}

export type Plan =
	| { kind: 'reads'; reads: Read[] }
	/** Nothing the API can return (non_identified_bank_transaction, unknown types without IDs). */
	| { kind: 'unverifiable' }
	/** The event cannot be true as sent (an ID missing or malformed). */
	| { kind: 'invalid'; reason: string };

/** Money arrived: the only statuses a payment_approved or identified transaction can have. */
const MONEY_IN = ['identified', 'exchanged', 'wired'] as const;
const MOVING_ON = { deny: ['pending', 'canceled'] } as const;

const TRANSACTION_RULES: Record<string, StatusRule> = {
	identified: { allow: MONEY_IN },
	payment_approved: { allow: MONEY_IN },
	// A failed, expired or refunded payment ends canceled (with canceled_reason).
	payment_failed: { allow: ['canceled'] },
	payment_expired: { allow: ['canceled'] },
	payment_refunded: { allow: ['canceled'] },
};
const TRANSACTION_LIST_RULES: Record<string, StatusRule> = {
	exchange_created: MOVING_ON,
	wire_created: MOVING_ON,
	wire_waiting_correction: MOVING_ON,
};
const SUBSCRIPTION_RULES: Record<string, StatusRule> = {
	subscription_activated: { deny: ['pending'] },
	subscription_canceled: { allow: ['canceled'] },
	subscription_completed: { allow: ['completed'] },
};
const SUBJECT_RULES: Record<string, StatusRule> = {
	subject_approved: { allow: ['approved'] },
	subject_reproved: { allow: ['reproved'] },
	document_required: {},
	subject_account_authorization: {},
};
/** Types whose payload names nothing the API can return. */
const UNVERIFIABLE = new Set(['non_identified_bank_transaction']);

function objectField(fields: IDataObject, name: string): IDataObject | undefined {
	const value = fields[name];
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

function idOf(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Which reads verify this event, or why it cannot be verified. Pure. */
export function planVerification(fields: IDataObject): Plan {
	const type = String(fields.type);
	const known =
		type in TRANSACTION_RULES ||
		type in TRANSACTION_LIST_RULES ||
		type in SUBSCRIPTION_RULES ||
		type in SUBJECT_RULES ||
		type === 'invoice_paid' ||
		type === 'account_request_status';
	if (UNVERIFIABLE.has(type)) return { kind: 'unverifiable' };

	const reads: Read[] = [];
	const transactionId = idOf(fields.transaction_id);
	const transactionIds = fields.transaction_ids;
	const subscription = objectField(fields, 'subscription');
	const invoice = objectField(fields, 'invoice');
	const subjectId = idOf(fields.subject_id);
	const requestId = idOf(fields.request_id);

	const missing = (name: string): Plan => ({
		kind: 'invalid',
		reason: `a notification of type ${type} without ${name}`,
	});

	if (type in TRANSACTION_RULES || (!known && transactionId !== undefined)) {
		if (transactionId === undefined) return missing('transaction_id');
		reads.push({
			target: 'transaction',
			id: transactionId,
			outputKey: 'transaction',
			status: TRANSACTION_RULES[type],
			match: fields.checkout_id === undefined ? undefined : { checkout_id: fields.checkout_id },
		});
	}
	if (type in TRANSACTION_LIST_RULES || (!known && transactionIds !== undefined)) {
		if (!Array.isArray(transactionIds) || transactionIds.length === 0) {
			return missing('transaction_ids');
		}
		for (const [index, raw] of transactionIds.entries()) {
			const id = idOf(raw);
			if (id === undefined) return missing('a valid transaction ID in transaction_ids');
			reads.push({
				target: 'transaction',
				id,
				outputKey: 'transactions',
				index,
				status: TRANSACTION_LIST_RULES[type],
			});
		}
	}
	if (type in SUBSCRIPTION_RULES || (!known && subscription !== undefined)) {
		const id = idOf(subscription?.id);
		if (id === undefined) return missing('subscription.id');
		reads.push({
			target: 'subscription',
			id,
			outputKey: 'subscription',
			status: SUBSCRIPTION_RULES[type],
			match:
				subscription?.subject_id === undefined
					? undefined
					: { subject_id: subscription.subject_id },
		});
	}
	if (type === 'invoice_paid' || (!known && invoice !== undefined)) {
		const id = idOf(invoice?.id);
		if (id === undefined) return missing('invoice.id');
		reads.push({
			target: 'invoice',
			id,
			outputKey: 'invoice',
			status: type === 'invoice_paid' ? { allow: ['paid'] } : undefined,
			subscriptionId: idOf(invoice?.subscription_id),
		});
	}
	if (type in SUBJECT_RULES || (!known && subjectId !== undefined && reads.length === 0)) {
		if (subjectId === undefined) return missing('subject_id');
		reads.push({
			target: 'subject',
			id: subjectId,
			outputKey: 'subject',
			status: SUBJECT_RULES[type],
		});
	}
	if (type === 'account_request_status' || (!known && requestId !== undefined)) {
		if (requestId === undefined) return missing('request_id');
		reads.push({
			target: 'bankAccountRequest',
			id: requestId,
			outputKey: 'bank_account_request',
			match: fields.status === undefined ? undefined : { status: fields.status },
		});
	}
	if (reads.length === 0) return { kind: 'unverifiable' };
	for (const read of [...reads]) {
		if (!ID_PATTERN.test(read.id)) {
			return {
				kind: 'invalid',
				reason: `a notification of type ${type} naming an ID FacilitaPay never gives`,
			};
		}
		if (read.subscriptionId !== undefined && !ID_PATTERN.test(read.subscriptionId)) {
			delete read.subscriptionId;
		}
	}
	return { kind: 'reads', reads };
}

/** The request that reads one object. */
export function requestFor(read: Read): ApiRequest & { timeout?: number } {
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
	return { method: 'GET', path, retry: 'safe', timeout: READ_TIMEOUT_MS };
}

/** Why the API's answer contradicts the event, or undefined when it agrees. Pure. */
export function contradiction(read: Read, answer: unknown): string | undefined {
	let object: unknown = answer;
	if (read.target === 'invoice' && Array.isArray(answer)) {
		object = answer.find((entry) => idOf((entry as IDataObject | null)?.id) === read.id);
	}
	if (!object || typeof object !== 'object' || Array.isArray(object)) {
		return `FacilitaPay does not know ${read.target} ${read.id}`;
	}
	const found = object as IDataObject;
	if (idOf(found.id) !== undefined && idOf(found.id) !== read.id) {
		return `${read.target} ${read.id} was answered with another one (${String(found.id)})`;
	}
	const status = typeof found.status === 'string' ? found.status : undefined;
	if (read.status?.allow && (status === undefined || !read.status.allow.includes(status))) {
		return `${read.target} ${read.id} is ${status ?? 'without status'} at FacilitaPay`;
	}
	if (read.status?.deny && status !== undefined && read.status.deny.includes(status)) {
		return `${read.target} ${read.id} is ${status} at FacilitaPay`;
	}
	for (const [name, expected] of Object.entries(read.match ?? {})) {
		const actual = found[name];
		if (actual === undefined || actual === null || expected === null) continue;
		if (String(actual) !== String(expected)) {
			return `${read.target} ${read.id} has ${name} ${String(actual)} at FacilitaPay, not ${String(expected)}`;
		}
	}
	return undefined;
}

/** The API's object for a read, out of its answer (an invoice out of its subscription's list). */
function objectOf(read: Read, answer: unknown): IDataObject {
	if (read.target === 'invoice' && Array.isArray(answer)) {
		return answer.find(
			(entry) => idOf((entry as IDataObject | null)?.id) === read.id,
		) as IDataObject;
	}
	return answer as IDataObject;
}

export type Verification =
	| { kind: 'verified'; objects: IDataObject }
	/** The API contradicts the event or does not know an object it names. */
	| { kind: 'contradicted'; reason: string }
	/** FacilitaPay could not be asked (down, too slow, credentials refused): ask again later. */
	| { kind: 'unreachable'; reason: string };

/**
 * The timeout of one read attempt, given the time left: two attempts and the delay between them
 * must fit in it, so the whole check never outlasts VERIFY_BUDGET_MS.
 */
export function readTimeout(remainingMs: number): number {
	const perAttempt = Math.floor(
		(remainingMs - verifyRetryOptions.maxDelayMs) / verifyRetryOptions.maxAttempts,
	);
	return Math.min(READ_TIMEOUT_MS, perAttempt);
}

/** Statuses of a read that mean "no such object here", not "could not ask". */
const UNKNOWN_OBJECT = new Set([400, 404, 410, 422]);

/**
 * Reads every object of the plan, one after the other, within VERIFY_BUDGET_MS in all; stops at
 * the first contradiction. `now` is injected (tests move a fake clock).
 */
export async function verify(
	ctx: FacilitaPayContext,
	reads: Read[],
	now: () => number = Date.now,
): Promise<Verification> {
	if (reads.length > MAX_READS) {
		return {
			kind: 'unreachable',
			reason: `the event names ${reads.length} objects, more than ${MAX_READS}`,
		};
	}
	const deadline = now() + VERIFY_BUDGET_MS;
	const objects: IDataObject = {};
	for (const read of reads) {
		const timeout = readTimeout(deadline - now());
		if (timeout < 1_000) return { kind: 'unreachable', reason: 'FacilitaPay answered too slowly' };
		const request = { ...requestFor(read), timeout };
		let answer: unknown;
		try {
			answer = await apiRequest.call(ctx, request, verifyRetryOptions);
		} catch (error) {
			const facts = failureFacts(error);
			if (facts.status !== undefined && UNKNOWN_OBJECT.has(facts.status)) {
				return {
					kind: 'contradicted',
					reason: `FacilitaPay does not know ${read.target} ${read.id} (HTTP ${facts.status})`,
				};
			}
			return { kind: 'unreachable', reason: (error as Error).message };
		}
		const reason = contradiction(read, answer);
		if (reason !== undefined) return { kind: 'contradicted', reason };
		const object = objectOf(read, answer);
		if (read.index === undefined) objects[read.outputKey] = object;
		else {
			const list = (objects[read.outputKey] as IDataObject[] | undefined) ?? [];
			list[read.index] = object;
			objects[read.outputKey] = list;
		}
	}
	return { kind: 'verified', objects };
}
