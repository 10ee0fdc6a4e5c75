/**
 * Registering subjects on the sandbox's state: people (POST /subject/people, which updates the
 * person with the same document number), companies (POST /subject/companies, likewise) and
 * updates of a person (PUT /subject/people/:id).
 */
import { randomUUID } from 'node:crypto';
import { Errors } from '../../validation.mjs';
import { check } from '../../errors.mjs';
import { validatePersonFields } from './personFields.mjs';
import { validateCompanyFields } from './companyFields.mjs';
import {
	applyFields,
	findByDocument,
	newSubject,
	companyOwnFields,
	personOwnFields,
} from './records.mjs';

/** 422 `{field: "can't be blank"}` unless the body is an object. */
function requireObject(input, field) {
	if (!input || typeof input !== 'object' || Array.isArray(input))
		check(new Errors().add(field, "can't be blank"));
}

/**
 * @param {{state: any, clock: any, transactions: any}} ctx
 * @param {(id: string) => any} getPerson the person with this id, or 404
 */
export function createRegistration(ctx, getPerson) {
	const { state, clock } = ctx;

	/** Stores a new subject; bank transactions waiting for its document are identified. */
	function store(input, own) {
		const subject = newSubject(input, own, { id: randomUUID(), now: clock.iso() });
		state.subjects.set(subject.id, subject);
		ctx.transactions.identifyPendingBankTransactions(subject);
		return subject;
	}

	/**
	 * POST /subject/people: creates, or updates the person with the same document number.
	 * @param {any} input @param {{allTypes?: boolean}} [options]
	 * @returns {{subject: any, created: boolean}}
	 */
	function register(input, options = {}) {
		requireObject(input, 'person');
		const errors = new Errors();
		validatePersonFields(errors, input, input, { allTypes: options.allTypes, now: clock.now() });
		check(errors);
		const existing = findByDocument(state.subjects.values(), input.document_number, 'person');
		if (!existing) return { subject: store(input, personOwnFields()), created: true };
		if (existing.document_type !== input.document_type)
			check(
				errors.add(
					'document_type',
					`cannot be updated (the person with this document number has type ${existing.document_type})`,
				),
			);
		applyFields(existing, input, clock.iso());
		return { subject: existing, created: false };
	}

	/** PUT /subject/people/:id */
	function update(id, input) {
		const subject = getPerson(id);
		requireObject(input, 'person');
		const errors = new Errors();
		for (const field of ['document_number', 'document_type']) {
			if (input[field] !== undefined && input[field] !== subject[field])
				errors.add(field, 'cannot be updated');
		}
		check(errors);
		const merged = {
			...subject,
			...input,
			document_number: subject.document_number,
			document_type: subject.document_type,
		};
		validatePersonFields(errors, merged, input, { allTypes: true, now: clock.now() });
		check(errors);
		applyFields(subject, input, clock.iso());
		return subject;
	}

	/**
	 * POST /subject/companies (live docs): creates, or updates the company with the same document
	 * number.
	 * @returns {{subject: any, created: boolean}}
	 */
	function registerCompany(input) {
		requireObject(input, 'company');
		const errors = new Errors();
		validateCompanyFields(errors, input, clock.now());
		check(errors);
		const existing = findByDocument(state.subjects.values(), input.document_number, 'company');
		if (!existing) return { subject: store(input, companyOwnFields()), created: true };
		applyFields(existing, input, clock.iso());
		return { subject: existing, created: false };
	}

	return { register, update, registerCompany };
}
