/**
 * KYC: the subject approval status (spec "Subject approval status") and the 20k USD annual rule,
 * as plain functions of the subject, its transactions and the time.
 *
 *   approved ── annual limit reached, a mandatory document missing (next payment) ──▶ reproved
 *   any ─────── back office rejects documents ──────────────────────────────────────▶ reproved
 *   reproved ── a document is uploaded ─────────────────────────────────────────────▶ waiting_approval
 *   any ─────── approval granted (back office) ─────────────────────────────────────▶ approved
 */
import { convertCents, toCents } from '../../money.mjs';
import { missingMandatory } from './documents.mjs';

/** Statuses of a transaction whose funds have moved (what counts as "transacted"). */
export const MONEY_MOVED = ['identified', 'exchanged', 'wired'];
export const ANNUAL_LIMIT_USD_CENTS = 2000000n; // 20 000.00 USD
export const KYC_STATUSES = ['approved', 'reproved', 'waiting_approval'];

/** For each KYC event, the status it moves a subject to, by the subject's status. */
export const KYC_TRANSITIONS = {
	annual_limit_reached: { approved: 'reproved' },
	documents_rejected: {
		approved: 'reproved',
		reproved: 'reproved',
		waiting_approval: 'reproved',
	},
	document_added: { reproved: 'waiting_approval' },
	approval_granted: {
		approved: 'approved',
		reproved: 'approved',
		waiting_approval: 'approved',
	},
};

/**
 * The status a KYC event moves a subject in `status` to, or null when the event does not move
 * a subject in that status.
 * @param {string} status @param {keyof typeof KYC_TRANSITIONS} event
 */
export function kycTransition(status, event) {
	const transitions = KYC_TRANSITIONS[event];
	if (!transitions) throw new Error(`unknown KYC event: ${event}`);
	return transitions[status] ?? null;
}

/**
 * Amount the subject transacted (funds moved) in USD cents during `year`.
 * @param {string} subjectId @param {Iterable<any>} transactions @param {string} year e.g. "2026"
 */
export function annualUsdCents(subjectId, transactions, year) {
	let total = 0n;
	for (const transaction of transactions) {
		if (
			transaction.subject_id !== subjectId ||
			!MONEY_MOVED.includes(transaction.status) ||
			!transaction.inserted_at.startsWith(year)
		)
			continue;
		total += convertCents(toCents(transaction.value), transaction.currency, 'USD');
	}
	return total;
}

/**
 * Whether a new payment of the subject is cleared, given what it transacted this year. At or
 * above 20k USD with a mandatory document missing, the subject is to be reproved (`reproval`:
 * the events' items and required documents) and the payment is held.
 * @param {any} subject @param {bigint} annualCents
 * @returns {{cleared: boolean, reproval?: {items: string[], required_documents: string[]}}}
 */
export function paymentClearance(subject, annualCents) {
	if (subject.status !== 'approved') return { cleared: false };
	if (annualCents < ANNUAL_LIMIT_USD_CENTS) return { cleared: true };
	const missing = missingMandatory(subject);
	if (missing.length === 0) return { cleared: true };
	return {
		cleared: false,
		reproval: {
			items: missing.map((mandatory) => mandatory.item),
			required_documents: missing.map((mandatory) => mandatory.required),
		},
	};
}

/** The annual rule reproves the subject: clearance level 2 is now required. @param {string} now ISO */
export function reproveForAnnualLimit(subject, now) {
	subject.status = kycTransition(subject.status, 'annual_limit_reached');
	subject.required_clearance_level = Math.max(subject.required_clearance_level, 2);
	subject.updated_at = now;
}

/** A document was uploaded: a reproved subject now waits for approval. @param {string} now ISO */
export function documentAdded(subject, now) {
	subject.status = kycTransition(subject.status, 'document_added') ?? subject.status;
	subject.updated_at = now;
}

/**
 * The back office approves (again): the subject reaches its required clearance level and its
 * documents under analysis are approved. @param {string} now ISO
 */
export function approveSubject(subject, now) {
	subject.status = kycTransition(subject.status, 'approval_granted');
	subject.clearance_level = Math.max(subject.clearance_level, subject.required_clearance_level);
	for (const document of subject.documents)
		if (document.status === 'pending_analysis') document.status = 'approved';
	subject.updated_at = now;
}

/**
 * The back office rejects documents: the subject is reproved and its documents under analysis
 * are rejected. Returns the `subject_reproved` event's fields.
 * @param {{items?: string[], reason?: string}} body @param {string} now ISO
 */
export function reproveSubject(subject, body, now) {
	const items =
		Array.isArray(body.items) && body.items.length ? body.items : ['proof_of_address_rejected'];
	subject.status = kycTransition(subject.status, 'documents_rejected');
	for (const document of subject.documents)
		if (document.status === 'pending_analysis') document.status = 'rejected';
	subject.updated_at = now;
	const event = { subject_id: subject.id, items };
	if (body.reason) event.reason = body.reason;
	return event;
}

/**
 * Releases the subject's held transactions (not cleared, not canceled): they become cleared.
 * @param {string} subjectId @param {Iterable<any>} transactions @returns {string[]} their ids
 */
export function releaseHeldTransactions(subjectId, transactions) {
	const released = [];
	for (const transaction of transactions) {
		if (
			transaction.subject_id === subjectId &&
			!transaction.cleared &&
			transaction.status !== 'canceled'
		) {
			transaction.cleared = true;
			released.push(transaction.id);
		}
	}
	return released;
}
