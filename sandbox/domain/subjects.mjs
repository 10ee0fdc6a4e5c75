/**
 * Subjects (people and companies). People are registered at /subject/people, companies at
 * /subject/companies (live docs); a company is a subject of its own, not read or listed at
 * /subject/people, and both kinds pay, are paid and receive subject events alike. The rules live
 * in subjects/: personFields.mjs and companyFields.mjs (registration rules), documents.mjs,
 * records.mjs (the subject record), kyc.mjs (approval status and the 20k USD annual rule),
 * registration.mjs. This module binds them to the sandbox's state, clock and events.
 */
import { randomUUID } from 'node:crypto';
import { Errors } from '../validation.mjs';
import { check, notFound } from '../errors.mjs';
import { missingMandatory, storedDocument, validateDocument } from './subjects/documents.mjs';
import { findByDocument, isCompany, subjectView } from './subjects/records.mjs';
import {
	annualUsdCents,
	approveSubject,
	documentAdded,
	paymentClearance,
	releaseHeldTransactions,
	reproveForAnnualLimit,
	reproveSubject,
} from './subjects/kyc.mjs';
import { createRegistration } from './subjects/registration.mjs';

export function createSubjects(ctx) {
	const { state, clock } = ctx;

	function get(id) {
		const subject = state.subjects.get(id);
		if (!subject) throw notFound();
		return subject;
	}

	/** A person (a company is not found at /subject/people/:id, as at the service). */
	function getPerson(id) {
		const subject = get(id);
		if (isCompany(subject)) throw notFound();
		return subject;
	}

	/** POST /subject/:id/documents (400 on errors, as the service) */
	function addDocument(id, doc) {
		const subject = get(id);
		const errors = new Errors();
		const size = validateDocument(errors, doc, '');
		check(errors, 400);
		const stored = storedDocument(doc, size, { id: randomUUID(), now: clock.iso() });
		subject.documents.push(stored);
		documentAdded(subject, clock.iso());
		return stored;
	}

	/** Transacted amount (funds moved) in USD cents over the current calendar year (sandbox clock). */
	function annualUsdCentsOf(subject) {
		return annualUsdCents(subject.id, state.transactions.values(), clock.iso().slice(0, 4));
	}

	/**
	 * Called before a new payment of the subject is recorded. Returns its `cleared` flag and applies
	 * the 20k USD rule (reprove + events).
	 */
	function clearanceForNewPayment(subject) {
		const { cleared, reproval } = paymentClearance(subject, annualUsdCentsOf(subject));
		if (!reproval) return cleared;
		reproveForAnnualLimit(subject, clock.iso());
		ctx.emit('subject_reproved', {
			subject_id: subject.id,
			reason: 'annual_limit_reached',
			items: reproval.items,
		});
		ctx.emit('document_required', {
			subject_id: subject.id,
			required_documents: reproval.required_documents,
		});
		return cleared;
	}

	/** Back office approves (again): releases held transactions. */
	function approve(id) {
		const subject = get(id);
		approveSubject(subject, clock.iso());
		ctx.emit('subject_approved', { subject_id: subject.id });
		const released = releaseHeldTransactions(subject.id, state.transactions.values());
		if (released.length && ctx.config.autoSettle) ctx.transactions.settle({});
		return { subject, released_transaction_ids: released };
	}

	/** Back office rejects documents. */
	function reprove(id, body = {}) {
		const subject = get(id);
		ctx.emit('subject_reproved', reproveSubject(subject, body, clock.iso()));
		return subject;
	}

	return {
		get,
		getPerson,
		isCompany,
		findByDocument: (number, kind) => findByDocument(state.subjects.values(), number, kind),
		...createRegistration(ctx, getPerson),
		addDocument,
		approve,
		reprove,
		view: subjectView,
		annualUsdCents: annualUsdCentsOf,
		clearanceForNewPayment,
		missingMandatory,
	};
}
