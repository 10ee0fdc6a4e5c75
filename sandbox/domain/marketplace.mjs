/**
 * Marketplace collection: account authorisation (pending → approved | reproved) and bank account
 * requests (processing → complete, about 5 s of the sandbox clock, or at once by control endpoint).
 */
import { randomUUID } from 'node:crypto';
import { Errors, isBlank, toBool } from '../validation.mjs';
import { check, invalid, notFound, ApiError } from '../errors.mjs';
import { BANKS } from '../accounts.mjs';

export const BANK_ACCOUNT_REQUEST_SECONDS = 5;
const PERSON_FIELDS = [
	'document_type', 'document_number', 'social_name', 'fiscal_country', 'address_street', 'address_number',
	'address_postal_code', 'address_city', 'address_state', 'address_country', 'net_monthly_average_income',
];

export function createMarketplace(ctx) {
	const { state, clock } = ctx;

	function accountRequest(subjectId, body) {
		const subject = ctx.subjects.get(subjectId);
		const errors = new Errors();
		const raw = body?.is_subject_account_owner;
		const owner = raw === undefined || raw === null ? false : toBool(raw);
		if (owner === undefined) errors.add('is_subject_account_owner', 'must be true or false');
		const type = subject.document_type;
		if (!['cpf', 'passport', 'cnpj', 'tax_id'].includes(type)) {
			errors.add('document_type', `the subject's document type (${type}) does not allow an account request; it must be cpf, passport, cnpj or tax_id`);
		}
		check(errors);
		if (owner && !['cpf', 'cnpj'].includes(type)) {
			errors.add('is_subject_account_owner', 'can be true only for a CPF or CNPJ subject');
		}
		const company = type === 'cnpj' || type === 'tax_id';
		const fields = company ? [...PERSON_FIELDS, 'company_name'] : [...PERSON_FIELDS, 'website'];
		for (const f of fields) if (isBlank(subject[f])) errors.add(f, `can't be blank (required for an account request; update the subject first)`);
		const docs = subject.documents.length;
		if (!company && docs < 2) errors.add('documents', `at least 2 documents are required (the subject has ${docs})`);
		if (type === 'cnpj') {
			const partners = Array.isArray(subject.partners) ? subject.partners : [];
			const needed = (isBlank(subject.website) ? 4 : 3) + partners.filter((p) => Number(p.percentage_share) >= 25).length;
			if (docs < needed) errors.add('documents', `at least ${needed} documents are required (the subject has ${docs})`);
		}
		check(errors);
		const now = clock.iso();
		const a = {
			id: randomUUID(),
			subject_id: subject.id,
			status: 'pending',
			reason: null,
			is_subject_account_owner: owner,
			inserted_at: now,
			updated_at: now,
		};
		state.authorizations.set(a.id, a);
		return a;
	}

	/** Accepts an authorisation id or a subject id (its latest authorisation). */
	function findAuthorization(id) {
		const direct = state.authorizations.get(id);
		if (direct) return direct;
		const list = [...state.authorizations.values()].filter((a) => a.subject_id === id);
		if (list.length) return list[list.length - 1];
		throw notFound();
	}

	function decide(id, approved, reason) {
		const a = findAuthorization(id);
		if (a.status !== 'pending') throw invalid('status', `the authorisation is ${a.status}; only a pending one can be decided`);
		a.status = approved ? 'approved' : 'reproved';
		a.reason = approved ? null : reason || 'documents_rejected';
		a.updated_at = clock.iso();
		ctx.emit('subject_account_authorization', { subject_id: a.subject_id, status: a.status, reason: a.reason });
		return a;
	}

	function requestBankAccount(body) {
		const errors = new Errors();
		const subjectId = body?.subject_id;
		if (isBlank(subjectId)) errors.add('subject_id', "can't be blank");
		else if (!state.subjects.has(subjectId)) errors.add('subject_id', 'was not found');
		const raw = body?.is_subject_account_owner;
		const owner = raw === undefined || raw === null || raw === '' ? false : toBool(raw);
		if (owner === undefined) errors.add('is_subject_account_owner', 'must be true or false');
		check(errors);
		const approved = [...state.authorizations.values()].find((a) => a.subject_id === subjectId && a.status === 'approved');
		if (!approved) throw invalid('subject_id', 'has no approved account authorisation; request one with POST /subject/:id/account_request and wait for its approval');
		const r = {
			id: randomUUID(),
			user_id: ctx.config.userId,
			subject_id: subjectId,
			is_subject_account_owner: owner,
			status: 'processing',
			errors: null,
			bank_account: null,
			inserted_at: clock.iso(),
			updated_at: clock.iso(),
		};
		state.bankAccountRequests.set(r.id, r);
		r._task = clock.schedule(clock.now() + BANK_ACCOUNT_REQUEST_SECONDS * 1000, () => complete(r.id, true), `bank account request ${r.id}`);
		return r;
	}

	function getRequest(id) {
		const r = state.bankAccountRequests.get(id);
		if (!r) throw notFound();
		return r;
	}

	function complete(id, silentIfDone = false) {
		const r = getRequest(id);
		if (r.status !== 'processing') {
			if (silentIfDone) return r;
			throw invalid('status', `the request is ${r.status}`);
		}
		clock.cancel(r._task);
		const subject = state.subjects.get(r.subject_id);
		const n = String(state.bankAccounts.size + 1).padStart(7, '0');
		const account = {
			id: randomUUID(),
			currency: 'BRL',
			bank: BANKS.bs2,
			branch_number: '0001',
			branch_country: 'BR',
			account_number: `2${n}`,
			account_type: 'conta-corrente',
			aba: null, iban: null, routing_number: null,
			nickname: `Pay-in account of ${subject.social_name}`,
			owner_name: r.is_subject_account_owner ? subject.social_name : 'FacilitaPay Sandbox',
			owner_document_number: r.is_subject_account_owner ? subject.document_number : '16727230000197',
			owner_document_type: r.is_subject_account_owner ? subject.document_type : 'cnpj',
			pix_info: { type: 'EVP', key: randomUUID() },
			intermediary_bank_account: null,
			company: null,
			internal: true,
			flow_type: 'cash_in',
		};
		state.bankAccounts.set(account.id, account);
		r.status = 'complete';
		r.bank_account = account;
		r.updated_at = clock.iso();
		ctx.emit('account_request_status', { request_id: r.id, status: r.status });
		return r;
	}

	function view(r) {
		const { _task, ...pub } = r;
		return pub;
	}

	return { accountRequest, decide, requestBankAccount, getRequest, complete, view, findAuthorization };
}
