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
	'document_type',
	'document_number',
	'social_name',
	'fiscal_country',
	'address_street',
	'address_number',
	'address_postal_code',
	'address_city',
	'address_state',
	'address_country',
	'net_monthly_average_income',
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
			errors.add(
				'document_type',
				`the subject's document type (${type}) does not allow an account request; it must be cpf, passport, cnpj or tax_id`,
			);
		}
		check(errors);
		if (owner && !['cpf', 'cnpj'].includes(type)) {
			errors.add('is_subject_account_owner', 'can be true only for a CPF or CNPJ subject');
		}
		const company = type === 'cnpj' || type === 'tax_id';
		const fields = company ? [...PERSON_FIELDS, 'company_name'] : [...PERSON_FIELDS, 'website'];
		for (const field of fields)
			if (isBlank(subject[field]))
				errors.add(
					field,
					`can't be blank (required for an account request; update the subject first)`,
				);
		const docs = subject.documents.length;
		if (!company && docs < 2)
			errors.add('documents', `at least 2 documents are required (the subject has ${docs})`);
		if (type === 'cnpj') {
			const partners = Array.isArray(subject.partners) ? subject.partners : [];
			const needed =
				(isBlank(subject.website) ? 4 : 3) +
				partners.filter((partner) => Number(partner.percentage_share) >= 25).length;
			if (docs < needed)
				errors.add(
					'documents',
					`at least ${needed} documents are required (the subject has ${docs})`,
				);
		}
		check(errors);
		const now = clock.iso();
		const authorization = {
			id: randomUUID(),
			subject_id: subject.id,
			status: 'pending',
			reason: null,
			is_subject_account_owner: owner,
			inserted_at: now,
			updated_at: now,
		};
		state.authorizations.set(authorization.id, authorization);
		return authorization;
	}

	/** Accepts an authorisation id or a subject id (its latest authorisation). */
	function findAuthorization(id) {
		const direct = state.authorizations.get(id);
		if (direct) return direct;
		const list = [...state.authorizations.values()].filter(
			(authorization) => authorization.subject_id === id,
		);
		if (list.length) return list[list.length - 1];
		throw notFound();
	}

	function decide(id, approved, reason) {
		const authorization = findAuthorization(id);
		if (authorization.status !== 'pending')
			throw invalid(
				'status',
				`the authorisation is ${authorization.status}; only a pending one can be decided`,
			);
		authorization.status = approved ? 'approved' : 'reproved';
		authorization.reason = approved ? null : reason || 'documents_rejected';
		authorization.updated_at = clock.iso();
		ctx.emit('subject_account_authorization', {
			subject_id: authorization.subject_id,
			status: authorization.status,
			reason: authorization.reason,
		});
		return authorization;
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
		const approved = [...state.authorizations.values()].find(
			(authorization) =>
				authorization.subject_id === subjectId && authorization.status === 'approved',
		);
		if (!approved)
			throw invalid(
				'subject_id',
				'has no approved account authorisation; request one with POST /subject/:id/account_request and wait for its approval',
			);
		const request = {
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
		state.bankAccountRequests.set(request.id, request);
		request._task = clock.schedule(
			clock.now() + BANK_ACCOUNT_REQUEST_SECONDS * 1000,
			() => complete(request.id, true),
			`bank account request ${request.id}`,
		);
		return request;
	}

	function getRequest(id) {
		const request = state.bankAccountRequests.get(id);
		if (!request) throw notFound();
		return request;
	}

	function complete(id, silentIfDone = false) {
		const request = getRequest(id);
		if (request.status !== 'processing') {
			if (silentIfDone) return request;
			throw invalid('status', `the request is ${request.status}`);
		}
		clock.cancel(request._task);
		const subject = state.subjects.get(request.subject_id);
		const sequence = String(state.bankAccounts.size + 1).padStart(7, '0');
		const account = {
			id: randomUUID(),
			currency: 'BRL',
			bank: BANKS.bs2,
			branch_number: '0001',
			branch_country: 'BR',
			account_number: `2${sequence}`,
			account_type: 'conta-corrente',
			aba: null,
			iban: null,
			routing_number: null,
			nickname: `Pay-in account of ${subject.social_name}`,
			owner_name: request.is_subject_account_owner ? subject.social_name : 'FacilitaPay Sandbox',
			owner_document_number: request.is_subject_account_owner
				? subject.document_number
				: '16727230000197',
			owner_document_type: request.is_subject_account_owner ? subject.document_type : 'cnpj',
			pix_info: { type: 'EVP', key: randomUUID() },
			intermediary_bank_account: null,
			company: null,
			internal: true,
			flow_type: 'cash_in',
		};
		state.bankAccounts.set(account.id, account);
		request.status = 'complete';
		request.bank_account = account;
		request.updated_at = clock.iso();
		ctx.emit('account_request_status', { request_id: request.id, status: request.status });
		return request;
	}

	function view(request) {
		const { _task, ...pub } = request;
		return pub;
	}

	return {
		accountRequest,
		decide,
		requestBankAccount,
		getRequest,
		complete,
		view,
		findAuthorization,
	};
}
