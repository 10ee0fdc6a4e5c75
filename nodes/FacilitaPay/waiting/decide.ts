/**
 * Which FacilitaPay record decides a waited charge, as pure tables (no n8n, no HTTP).
 *
 * The transaction as FacilitaPay shows it (`GET /transactions/:id`) decides first; a record of
 * the notification log (`GET /notifications`, FacilitaPay's own list of what it sent, never a
 * delivery) decides what the status alone cannot: a refund of a paid PIX (the status may stay
 * `identified`), a card payment approved while the API still shows `pending`, a checkout
 * (its records carry `checkout_id`).
 */

export type WaitOutcome = 'paid' | 'notPaid' | 'timedOut';

/** Why a charge did not pay: what the user reads on the Not Paid branch. */
export type NotPaidReason = 'expired' | 'failed' | 'refunded' | 'canceled';

export interface Decision {
	outcome: 'paid' | 'notPaid';
	reason?: NotPaidReason;
	/** What decided it: the transaction's status, or a record of the log. */
	decidedBy: 'status' | 'record';
	/** The log record that decided it, when one did. */
	record?: LogRecord;
	/** FacilitaPay's own words (e.g. `canceled_reason`), when it gives them. */
	detail?: string;
}

/** A record of `GET /notifications` as FacilitaPay lists it (only what is read here). */
export interface LogRecord {
	id: string;
	notification: { type?: string; transaction_id?: string; checkout_id?: string } & Record<
		string,
		unknown
	>;
	[key: string]: unknown;
}

/** Statuses that mean the money came in (`identified` first; `exchanged`, `wired` after it). */
export const PAID_STATUSES = ['identified', 'exchanged', 'wired'] as const;

/** What each log record type says about the charge it names. */
export const RECORD_DECISIONS: Record<
	string,
	{ outcome: 'paid' | 'notPaid'; reason?: NotPaidReason }
> = {
	identified: { outcome: 'paid' },
	payment_approved: { outcome: 'paid' },
	payment_expired: { outcome: 'notPaid', reason: 'expired' },
	payment_failed: { outcome: 'notPaid', reason: 'failed' },
	payment_refunded: { outcome: 'notPaid', reason: 'refunded' },
};

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A log record, or undefined when the value is not one (FacilitaPay's page read defensively). */
export function asLogRecord(value: unknown): LogRecord | undefined {
	if (!value || typeof value !== 'object') return undefined;
	const record = value as Record<string, unknown>;
	const notification = record.notification;
	if (text(record.id) === undefined || !notification || typeof notification !== 'object')
		return undefined;
	return record as LogRecord;
}

/**
 * What a waited ID is: a transaction FacilitaPay shows, a card checkout's ID (no transaction of its
 * own until paid), or not known yet (FacilitaPay answered 404: a checkout, or a charge it does not
 * show yet, read-after-write lag). A record decides an unknown ID by the field that names it.
 */
export type ChargeKind = 'transaction' | 'checkout' | 'unknown';

/** The ID a record names: the transaction, or for a checkout's records the checkout. */
export function namedIds(record: LogRecord): string[] {
	const ids = [text(record.notification.transaction_id), text(record.notification.checkout_id)];
	return ids.filter((id): id is string => id !== undefined);
}

/**
 * What one record says about the waited charge `waitedId`, or undefined when it decides nothing:
 * a record of another charge, a type that decides nothing (exchange, wire…), or a failed
 * attempt of a checkout (its page stays active after a failure: only an approval or the limit
 * decides a checkout).
 */
export function recordDecision(
	record: LogRecord,
	waitedId: string,
	kind: ChargeKind,
): Decision | undefined {
	const n = record.notification;
	const type = text(n.type);
	if (type === undefined) return undefined;
	const decision = RECORD_DECISIONS[type];
	if (!decision) return undefined;
	const byTransaction = kind !== 'checkout' && text(n.transaction_id) === waitedId;
	const byCheckout = kind !== 'transaction' && !byTransaction && text(n.checkout_id) === waitedId;
	if (!byTransaction && !byCheckout) return undefined;
	if (byCheckout && decision.outcome === 'notPaid') return undefined;
	return { ...decision, decidedBy: 'record', record };
}

/** Whether a record names `waitedId` as a checkout (its `checkout_id`, not its transaction). */
export function namesCheckout(record: LogRecord, waitedId: string): boolean {
	const n = record.notification;
	return text(n.checkout_id) === waitedId && text(n.transaction_id) !== waitedId;
}

/** What the transaction's status says, or undefined while it is still open (`pending`…). */
export function statusDecision(transaction: Record<string, unknown>): Decision | undefined {
	const status = text(transaction.status);
	if (status === undefined) return undefined;
	if ((PAID_STATUSES as readonly string[]).includes(status))
		return { outcome: 'paid', decidedBy: 'status' };
	if (status === 'canceled') {
		const detail = text(transaction.canceled_reason);
		return {
			outcome: 'notPaid',
			reason: reasonOfCancel(detail),
			decidedBy: 'status',
			...(detail !== undefined && { detail }),
		};
	}
	return undefined;
}

/** A canceled charge's reason, from FacilitaPay's `canceled_reason` where it names one. */
export function reasonOfCancel(canceledReason: string | undefined): NotPaidReason {
	const words = (canceledReason ?? '').toLowerCase();
	if (words.includes('expir')) return 'expired';
	if (words.includes('refund')) return 'refunded';
	if (words.includes('declin') || words.includes('fail')) return 'failed';
	return 'canceled';
}

/**
 * The decision for one waited charge: its transaction as read now (undefined for a checkout,
 * which has no transaction of its own until paid, or an ID FacilitaPay does not show yet) and the records of the log that name it.
 * A refund record wins over a paid status (the money went back); otherwise the status decides,
 * and a record decides what the status leaves open.
 */
export function decide(
	transaction: Record<string, unknown> | undefined,
	records: readonly LogRecord[],
	waitedId: string,
	kind: ChargeKind,
): Decision | undefined {
	const byRecord = records
		.map((record) => recordDecision(record, waitedId, kind))
		.filter((d): d is Decision => d !== undefined);
	const refund = byRecord.find((d) => d.reason === 'refunded');
	if (refund) return refund;
	const byStatus = transaction ? statusDecision(transaction) : undefined;
	if (byStatus) {
		const same = byRecord.find(
			(d) => d.outcome === byStatus.outcome && (d.reason ?? '') === (byStatus.reason ?? ''),
		);
		const record = same?.record ?? byRecord.find((d) => d.outcome === byStatus.outcome)?.record;
		return record ? { ...byStatus, record } : byStatus;
	}
	return byRecord[0];
}
