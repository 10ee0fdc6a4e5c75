import type { IDataObject } from 'n8n-workflow';

import type { Read } from '../../money/reads';
import { readAll, readOne } from '../../money/reads';
import { isObject, textOf } from '../../money/records';

/**
 * A money request described in words for the person who approves it (n8n's human review of tool
 * calls), from the request and FacilitaPay's records: the amount and currency, who receives it (the
 * bank account's holder as FacilitaPay's earlier transactions to that account name it), the
 * customer, the account it leaves, the reference that keeps it once. The same text is computed
 * again right before the request is sent (review.fields.ts): what the reviewer approved is what is
 * sent, or nothing is.
 */

/** The operations a review text describes. */
export const REVIEW_KINDS = ['createPayout', 'createDynamicPix', 'refund', 'cancel'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export interface ReviewRequest {
	kind: ReviewKind;
	/** The transaction body the operation would send (payout, dynamic PIX). */
	transaction?: IDataObject;
	/** The transaction a refund or cancel is about. */
	transactionId?: string;
	/** The Idempotency Key, when the request has one. */
	key?: string;
}

export interface Review {
	/** The sentence a person reads and approves. */
	review: string;
	/** The facts it was written from. */
	facts: IDataObject;
	/**
	 * Earlier words that still approve this request: for a payout to an account FacilitaPay had
	 * never paid (its holder unreadable then), the same words with the holder unknown. The payment
	 * itself, once made, names the holder: a retry of an approved payout must not read as changed.
	 */
	alsoAccepted?: string[];
}

/** Why a review text could not be written (a read failed): nothing can be checked against it. */
class ReviewUnreadable extends Error {}

/** "1500.00" → "1,500.00": the digits as given (never a float), thousands grouped. */
export function amountWords(currency: unknown, value: unknown): string {
	const text = String(value ?? '');
	const [whole, cents] = text.split('.');
	const grouped = /^\d+$/.test(whole) ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
	return `${String(currency ?? '').toUpperCase()} ${cents === undefined ? grouped : `${grouped}.${cents}`}`;
}

/** The last four characters of an ID or number, the rest hidden: "…0003". */
export function tail(value: unknown): string {
	const text = String(value ?? '');
	return text.length <= 4 ? text : `…${text.slice(-4)}`;
}

/** A person's or company's document, masked as Brazilian receipts do (CPF ***.533.447-**). */
export function documentWords(type: unknown, number: unknown): string | undefined {
	const digits = String(number ?? '').replace(/[^0-9A-Za-z]/g, '');
	if (digits === '') return undefined;
	const kind = String(type ?? '').toUpperCase() || 'document';
	if (kind === 'CPF' && digits.length === 11)
		return `CPF ***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
	return `${kind} ${'*'.repeat(Math.max(0, Math.min(digits.length, 12) - 4))}${digits.slice(-4)}`;
}

function customerWords(person: IDataObject | undefined, subjectId: string): string {
	if (!person) return `the customer with ID ${subjectId} (not found among FacilitaPay's people)`;
	const name = textOf(person.social_name) ?? textOf(person.name) ?? `ID ${subjectId}`;
	const document = documentWords(person.document_type, person.document_number);
	return document ? `${name} (${document})` : name;
}

/** The holder and bank details of a bank account object, masked. */
function accountWords(account: IDataObject): string {
	const bank = isObject(account.bank) ? account.bank : {};
	const bankName = [textOf(bank.name), textOf(bank.code)].filter(Boolean).join(' ');
	const parts = [
		bankName || undefined,
		textOf(account.branch_number) ? `branch ${textOf(account.branch_number)}` : undefined,
		textOf(account.account_number) ? `account ${tail(account.account_number)}` : undefined,
		textOf(account.iban) ? `IBAN ${tail(account.iban)}` : undefined,
	].filter(Boolean);
	const owner =
		textOf(account.owner_name) ??
		(isObject(account.owner_company) ? textOf(account.owner_company.social_name) : undefined) ??
		'an unnamed holder';
	return parts.length > 0 ? `${owner} (${parts.join(', ')})` : owner;
}

async function person(read: Read, subjectId: string): Promise<IDataObject | undefined> {
	const answer = await readOne(
		read,
		`/subject/people/${encodeURIComponent(subjectId)}`,
		'The customer',
	);
	if ('record' in answer) return answer.record;
	if (answer.status === 404) return undefined;
	throw new ReviewUnreadable(answer.problem);
}

/** The newest earlier transaction of the customer that went to `accountId`, for its holder. */
async function knownAccount(
	read: Read,
	subjectId: string,
	accountId: string,
): Promise<IDataObject | undefined> {
	const list = await readAll(
		read,
		`/subject/${encodeURIComponent(subjectId)}/transactions`,
		"The customer's transactions",
	);
	if ('problem' in list) throw new ReviewUnreadable(list.problem);
	let found: IDataObject | undefined;
	for (const record of list.records) {
		const account = record.to_bank_account;
		if (isObject(account) && textOf(account.id) === accountId) found = account;
	}
	return found;
}

function referenceWords(key: string | undefined): string {
	return key === undefined
		? 'Reference: none (every call without one is another payment).'
		: `Reference: ${key} (paid once, however often it is asked).`;
}

async function payout(read: Read, request: ReviewRequest): Promise<Review> {
	const t = request.transaction ?? {};
	const subjectId = String(t.subject_id ?? '');
	const toId = String(t.to_bank_account_id ?? '');
	const [customer, account] = await Promise.all([
		person(read, subjectId),
		knownAccount(read, subjectId, toId),
	]);
	const unknownHolder = `bank account ${tail(toId)} (FacilitaPay has paid nothing to it before, so its holder cannot be read; FacilitaPay pays out only to the customer's registered accounts)`;
	const converted =
		String(t.exchange_currency ?? '').toUpperCase() !== String(t.currency ?? '').toUpperCase()
			? `, converted to ${String(t.exchange_currency ?? '').toUpperCase()},`
			: '';
	const words = (recipient: string) =>
		`Payout of ${amountWords(t.currency, t.value)}${converted} from your account ${tail(t.from_bank_account_id)} to ${recipient}, for customer ${customerWords(customer, subjectId)}. ${referenceWords(request.key)}`;
	const review = words(account ? accountWords(account) : unknownHolder);
	return {
		review,
		facts: {
			amount: String(t.value ?? ''),
			currency: String(t.currency ?? ''),
			exchangeCurrency: String(t.exchange_currency ?? ''),
			recipient: account ? accountWords(account) : null,
			toBankAccountId: toId,
			customer: customer ? customerWords(customer, subjectId) : null,
			subjectId,
			reference: request.key ?? null,
		},
		...(account ? { alsoAccepted: [words(unknownHolder)] } : {}),
	};
}

async function dynamicPix(read: Read, request: ReviewRequest): Promise<Review> {
	const t = request.transaction ?? {};
	const subjectId = String(t.subject_id ?? '');
	const customer = await person(read, subjectId);
	// The expiry is not in the words: its default is "an hour from now", another time at each call.
	const review = `PIX charge of ${amountWords(t.currency, t.value)} to be paid by customer ${customerWords(customer, subjectId)}, into your account ${tail(t.from_bank_account_id)}, credited as ${String(t.exchange_currency ?? '').toUpperCase()} to account ${tail(t.to_bank_account_id)}. ${referenceWords(request.key)}`;
	return {
		review,
		facts: {
			amount: String(t.value ?? ''),
			currency: String(t.currency ?? ''),
			customer: customer ? customerWords(customer, subjectId) : null,
			subjectId,
			expiresAt: textOf(t.dynamic_pix_expires_at) ?? null,
			reference: request.key ?? null,
		},
	};
}

async function onTransaction(read: Read, request: ReviewRequest): Promise<Review> {
	const id = request.transactionId ?? '';
	const answer = await readOne(read, `/transactions/${encodeURIComponent(id)}`, 'The transaction');
	if (!('record' in answer)) {
		if (answer.status === 404) throw new ReviewUnreadable(`FacilitaPay has no transaction ${id}.`);
		throw new ReviewUnreadable(answer.problem);
	}
	const t = answer.record;
	const subject = isObject(t.subject) ? t.subject : undefined;
	const subjectId = textOf(t.subject_id) ?? textOf(subject?.id) ?? '';
	const payer =
		textOf(t.source_name) !== undefined
			? `${textOf(t.source_name)}${documentWords(t.source_document_type, t.source_document_number) ? ` (${documentWords(t.source_document_type, t.source_document_number)})` : ''}`
			: customerWords(subject, subjectId);
	// The status is a fact, not part of the words: the request itself changes it, and a retry of an
	// approved refund must not read as another request.
	const status = textOf(t.status) ?? 'unknown';
	const amount = amountWords(t.currency, t.value);
	const made = textOf(t.inserted_at)?.slice(0, 10);
	const review =
		request.kind === 'refund'
			? `Refund of ${amount}, the whole of transaction ${id}${made ? ` of ${made}` : ''}, given back to its payer ${payer}. ${referenceWords(request.key)}`
			: `Cancel transaction ${id}${made ? ` of ${made}` : ''}: ${amount} for customer ${customerWords(subject, subjectId)}; FacilitaPay will not process it. ${referenceWords(request.key)}`;
	return {
		review,
		facts: {
			transactionId: id,
			amount: String(t.value ?? ''),
			currency: String(t.currency ?? ''),
			status,
			payer,
			reference: request.key ?? null,
		},
	};
}

/** The request in words, from FacilitaPay's records, or why a read needed for it failed. */
export async function describeRequest(
	read: Read,
	request: ReviewRequest,
): Promise<Review | { problem: string }> {
	try {
		if (request.kind === 'createPayout') return await payout(read, request);
		if (request.kind === 'createDynamicPix') return await dynamicPix(read, request);
		return await onTransaction(read, request);
	} catch (error) {
		return { problem: error instanceof Error ? error.message : String(error) };
	}
}

/** Two review texts are the same when they differ at most in spacing. */
export function sameReview(a: string, b: string): boolean {
	const norm = (text: string) => text.replace(/\s+/g, ' ').trim();
	return norm(a) === norm(b);
}
