/**
 * Before a money-moving request whose outcome was unknown in an earlier execution is sent again
 * (n8n's Retry button), looks at FacilitaPay for the record that request created, if it was
 * processed. Only reads, every one with `retry: 'safe'`.
 *
 * Split by job: this file says which lookup a request gets; `transactions.ts`, `subscriptions.ts`
 * and `documents.ts` are the lookups; `reads.ts` reads lists and records, `records.ts` reads
 * fields out of them, `candidates.ts` judges each record and decides the answer.
 *
 * What is read and matched, per request the node sends with `retry: 'sendOnce'`:
 *
 * - POST /transactions (payout, dynamic PIX, boleto) and POST /transactions/checkout: the
 *   subject's transactions, `GET /subject/:subject_id/transactions`, every page (`last_id`). A
 *   record matches when its value (compared as money: "10.5" = "10.50" = 10.5), `currency`,
 *   `exchange_currency`, destination account and, for a payout or a dynamic PIX, source account
 *   equal the request's, and it was created (`inserted_at`) at or after the first attempt, less
 *   2 minutes of clock skew. Records that show another kind are left out (a `dynamic_pix_code`, a
 *   boleto's `bar_code` / `digital_line` / `url_pdf` / `from_boleto`, a card's `checkout_id` /
 *   `from_credit_card`). A payout and a local pay-in (Create Local Pay-In) send the same fields,
 *   so `subject_is_receiver` rules neither out: a pay-in record may be the payout sent, and the
 *   reverse. The PIX expiry and the
 *   boleto due date are not compared: an expression such as `$now.plus(…)` gives a new one on
 *   every execution.
 * - POST /transactions/checkout, in addition: a checkout page shows up in that list only through
 *   the card attempts made on it (transactions carrying its `checkout_id`). Found when an attempt
 *   matches; otherwise `cannotTell`, never `notFound` (a page nobody has tried to pay yet is listed
 *   nowhere, and two open pages can both be paid). The record returned is the attempt; its
 *   `checkout_id` is what `taken` holds.
 * - POST /subscriptions: the partner's subscriptions, `GET /subscriptions`, every page. Matched:
 *   `subject_id`, value, `currency`, `frequency`, `cycles`, `to_bank_account_id`, and the payment
 *   method: `from_bank_account_id` (automatic PIX) or the card's last four digits (card), created
 *   at or after the first attempt less the skew.
 * - PUT /subscriptions/:id/cancel: `GET /subscriptions/:id`. `canceled` → found; `pending`,
 *   `active`, `completed` → not found (a processed cancellation leaves it `canceled`, a final
 *   status); anything else → cannotTell.
 * - POST /subscriptions/:id/threeds_challenge: `GET /subscriptions/:id`. `active` or `completed`
 *   (the first invoice was paid) → found; `pending` or `canceled` → cannotTell: the subscription
 *   does not show whether the challenge was processed (the same card looks the same).
 * - GET /transactions/:id/refund (Cancel): `GET /transactions/:id`. `canceled` → found; `pending`,
 *   `identified`, `exchanged`, `wired` → not found (a processed cancellation leaves it `canceled`;
 *   a second one moves no money); anything else → cannotTell.
 * - GET /transactions/:id/refund_received_transaction (Refund): `GET /transactions/:id`.
 *   `canceled` → found; `pending` → not found (nothing was received to give back); `identified`,
 *   `exchanged`, `wired` → cannotTell: a refund is a record of its own with its own status (the
 *   payment-orchestrator connector reads it at `…/refund_received_transaction/:refund_id`), may
 *   still be pending, and the transaction does not show it.
 * - POST /subject/:id/documents: the person, `GET /subject/people/:id`, its `documents`. Matched:
 *   `labels` (as a set), `file_type`, and `file_name` or `file_url` as sent, created at or after
 *   the first attempt less the skew. A company subject is not readable there → cannotTell.
 * - POST /subject/:id/bank_accounts (Register Bank Account), and POST /subject/people or
 *   /subject/companies sent once because they carry documents: no list shows a customer's bank
 *   accounts, and a subject's documents do not show which send added them → always cannotTell.
 * - POST /subject/:id/account_request, POST /bank/accounts/request, PUT
 *   /wires/:id/update_bank_account: nothing lists authorisation requests or bank account requests,
 *   or reads a wire → always cannotTell.
 *
 * A record field that is absent or unreadable never rules a record out: the record then "may be
 * it", and when no record surely is, the answer is `cannotTell` (so is any failed read, a list
 * that cannot be read to its end, and a record without an ID). `notFound` means: every record
 * that could be it was read and each differs in a field it shows, or is older.
 *
 * Guessed, because neither the spec nor the docs show it (from service-facts.md and the sandbox),
 * each chosen so that a wrong guess withholds a request rather than sends it twice:
 * - The subject's transaction list holds the same transaction objects as `GET /transactions/:id`
 *   (service-facts.md: `value` in the transaction's own `currency`, `to_bank_account` and
 *   `from_bank_account` objects with an `id`, `inserted_at`), pages by `last_id` like every other
 *   list, and lists the subject's payouts as well as its pay-ins. The spec only says it "returns
 *   the subject's transactions in local currency": if it converted values or left out
 *   foreign-currency payouts, a processed payout would not be recognised. Nothing in an answer can
 *   show that; the sandbox lists them as `GET /transactions/:id` shows them.
 * - `GET /subscriptions` pages by `last_id` and shows `value`, `currency`, `frequency`, `cycles`,
 *   `to_bank_account_id`, `from_bank_account_id`, `from_card.last4`, `inserted_at` (the spec shows
 *   only `id`, `status`, `subject_id`, `from_pix`): when they are absent the answer is cannotTell.
 * - A person's `documents` entries carry `labels`, `file_type`, `file_name` / `file_url`,
 *   `inserted_at` (the spec shows a Document's request fields only).
 * - A list ends with an empty page. A page that brings nothing new means the service ignored
 *   `last_id` and sent the whole list, unless it holds a full page or more (SERVICE_PAGE_SIZE,
 *   100): then the rest could not be read → cannotTell.
 * - Times: `inserted_at` (else `created_at`), ISO 8601. One written without a zone is read as UTC
 *   (the documented times, such as the PIX expiry, end in `Z`), but it counts as sure only when it
 *   is inside the window read that way; up to 14 hours before, it may be it (→ cannotTell);
 *   earlier, it is not.
 * - Cancel and Refund leave the transaction `canceled` (the connector: a transaction "reversed" is
 *   canceled); a cancelled subscription is `canceled`.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiRequest } from '../../../transport';
import type { FindSentResult } from './candidates';
import { findDocument } from './documents';
import { isObject } from './records';
import { findSubscription, findSubscriptionState } from './subscriptions';
import { findTransaction, findTransactionState, paymentKindOf } from './transactions';

export type { FindSentResult } from './candidates';

function bodyPart(request: ApiRequest, key?: string): IDataObject {
	const body = request.body ?? {};
	if (key === undefined) return body;
	return isObject(body[key]) ? (body[key] as IDataObject) : {};
}

/**
 * Looks at FacilitaPay for the record a money-moving `request` (as the node would send it)
 * created, if it was processed: created at or after `sinceMs` (epoch ms), matching the request's
 * money fields, and not one of the record ids in `taken` (ids another item of the same run already
 * claimed; the one returned is added to it). `read` sends a read and returns the answer's `data`.
 */
export async function findSent(
	this: IExecuteFunctions,
	request: ApiRequest,
	sinceMs: number,
	taken: Set<string>,
	read: (request: ApiRequest) => Promise<unknown>,
): Promise<FindSentResult> {
	const method = String(request.method).toUpperCase();
	const path = request.path.split('?')[0].replace(/\/+$/, '');
	let match: RegExpExecArray | null;

	if (method === 'POST' && (path === '/transactions' || path === '/transactions/checkout')) {
		const transaction =
			path === '/transactions' ? bodyPart(request, 'transaction') : bodyPart(request);
		const kind = paymentKindOf(path, transaction);
		if (kind === undefined) {
			return {
				cannotTell:
					'This transaction is neither a payout, a dynamic PIX nor a boleto, so no lookup at FacilitaPay exists for it. Check the subject’s transactions (Subject > Get Transactions) before sending it again.',
			};
		}
		return await findTransaction(kind, transaction, sinceMs, taken, read);
	}
	if (method === 'POST' && path === '/subscriptions') {
		return await findSubscription(bodyPart(request, 'subscription'), sinceMs, taken, read);
	}
	if (method === 'PUT' && (match = /^\/subscriptions\/([^/]+)\/cancel$/.exec(path))) {
		return await findSubscriptionState('cancel', match[1], taken, read);
	}
	if (method === 'POST' && (match = /^\/subscriptions\/([^/]+)\/threeds_challenge$/.exec(path))) {
		return await findSubscriptionState('threedsChallenge', match[1], taken, read);
	}
	if (method === 'GET' && (match = /^\/transactions\/([^/]+)\/refund$/.exec(path))) {
		return await findTransactionState('cancel', match[1], taken, read);
	}
	if (
		method === 'GET' &&
		(match = /^\/transactions\/([^/]+)\/refund_received_transaction$/.exec(path))
	) {
		return await findTransactionState('refund', match[1], taken, read);
	}
	if (method === 'POST' && (match = /^\/subject\/([^/]+)\/documents$/.exec(path))) {
		return await findDocument(match[1], bodyPart(request, 'document'), sinceMs, taken, read);
	}
	if (method === 'POST' && /^\/subject\/[^/]+\/bank_accounts$/.test(path)) {
		return {
			cannotTell:
				'FacilitaPay publishes no list of a customer’s bank accounts, so whether this one was registered cannot be looked up. Check the FacilitaPay dashboard before registering it again.',
		};
	}
	if (method === 'POST' && (path === '/subject/people' || path === '/subject/companies')) {
		return {
			cannotTell:
				'The subject was sent with documents, which every send adds again, and nothing shows whether this send was processed. Read the subject (Subject > Get, for a person) and look at its documents before sending it again.',
		};
	}
	if (method === 'POST' && /^\/subject\/[^/]+\/account_request$/.test(path)) {
		return {
			cannotTell:
				'FacilitaPay has no list of account authorisation requests, so whether this one was made cannot be looked up. Wait for the subject_account_authorization event, or check the FacilitaPay dashboard, before requesting it again.',
		};
	}
	if (method === 'POST' && path === '/bank/accounts/request') {
		return {
			cannotTell:
				'FacilitaPay has no list of bank account requests, so whether this one was made cannot be looked up. Wait for the account_request_status event, or check the FacilitaPay dashboard, before requesting it again.',
		};
	}
	if (method === 'PUT' && /^\/wires\/[^/]+\/update_bank_account$/.test(path)) {
		return {
			cannotTell:
				'FacilitaPay has no way to read a wire, so whether its bank account was corrected cannot be looked up. Wait for the wire_created event, or check the FacilitaPay dashboard, before sending the correction again.',
		};
	}
	if (request.retry === 'safe') return { notFound: true };
	return {
		cannotTell: `No lookup at FacilitaPay exists for ${method} ${path}, so whether it was processed cannot be told. Check the FacilitaPay dashboard before sending it again.`,
	};
}
