/**
 * Before a money-moving request whose outcome was unknown in an earlier execution is sent again
 * (n8n's Retry button), looks at FacilitaPay for the record that request created, if it was
 * processed. Only reads, every one with `retry: 'safe'`.
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

import type { ApiRequest } from '../../transport';
import { SERVICE_PAGE_SIZE } from '../../transport/paging';

/** What a lookup found: the record, nothing (send it), or why it cannot tell (do not send). */
export type FindSentResult = { found: IDataObject } | { notFound: true } | { cannotTell: string };

type Read = (request: ApiRequest) => Promise<unknown>;

/** How far FacilitaPay's clock may be behind n8n's. */
export const CLOCK_SKEW_MS = 2 * 60_000;
/** How far a time written without a zone may be from UTC (zones run from UTC-12 to UTC+14). */
const UNZONED_SPREAD_MS = 14 * 3_600_000;
/** The most pages read from one list; a longer list cannot be settled. */
export const MAX_PAGES = 100;
/** How many records a `cannotTell` names. */
const NAMED_RECORDS = 3;

type Comparison = 'same' | 'differs' | 'unreadable';

/** A record that may be the one looked for: `unsure` is empty when it surely is. */
interface Candidate {
	record: IDataObject;
	/** What `taken` holds for it (the first is its identity); empty when it has no ID. */
	ids: string[];
	time?: number;
	position: number;
	/** It shows the kind looked for (a payout's `subject_is_receiver`, a boleto's `bar_code`…). */
	marked: boolean;
	unsure: string[];
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string (trimmed) or a finite number as text; otherwise undefined. */
function textOf(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return text === '' ? undefined : text;
}

function filled(value: unknown): boolean {
	return textOf(value) !== undefined;
}

function messageOf(error: unknown): string {
	if (error instanceof Error) return error.message;
	return textOf(error) ?? 'unknown error';
}

/**
 * An amount as a comparable key: "10.50", "10.5", 10.5 → "10.5"; "10", "10.00" → "10";
 * undefined when it is not a plain non-negative decimal. No float arithmetic.
 */
export function moneyKey(value: unknown): string | undefined {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value) || value < 0) return undefined;
		text = String(value);
	} else if (typeof value === 'string') {
		text = value.trim();
	} else {
		return undefined;
	}
	const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
	if (!match) return undefined;
	const whole = match[1].replace(/^0+(?=\d)/, '');
	const fraction = (match[2] ?? '').replace(/0+$/, '');
	return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * A time FacilitaPay wrote: epoch ms, and whether it carried a zone. ISO 8601 date-times with or
 * without a zone (then read as UTC), with a space or a `T`, any fraction; epoch seconds or ms.
 */
export function parseServiceTime(value: unknown): { ms: number; zoned: boolean } | undefined {
	if (typeof value === 'number') {
		if (!Number.isFinite(value) || value <= 0) return undefined;
		return { ms: value < 1e11 ? value * 1000 : value, zoned: true };
	}
	if (typeof value !== 'string') return undefined;
	const match =
		/^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(
			value.trim(),
		);
	if (!match) return undefined;
	const [, date, clock, fraction, zone] = match;
	let offset = 'Z';
	if (zone && zone.toUpperCase() !== 'Z') {
		const digits = zone.slice(1).replace(':', '').padEnd(4, '0');
		offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4)}`;
	}
	const milliseconds = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
	const ms = Date.parse(
		`${date}T${clock.length === 5 ? `${clock}:00` : clock}${milliseconds}${offset}`,
	);
	return Number.isNaN(ms) ? undefined : { ms, zoned: zone !== undefined };
}

function compareText(expected: string, actual: unknown): Comparison {
	const text = textOf(actual);
	if (text === undefined) return 'unreadable';
	return text.toLowerCase() === expected.toLowerCase() ? 'same' : 'differs';
}

function compareMoney(expected: string, actual: unknown): Comparison {
	const key = moneyKey(actual);
	if (key === undefined) return 'unreadable';
	return key === expected ? 'same' : 'differs';
}

function compareCount(expected: number, actual: unknown): Comparison {
	const text = textOf(actual);
	if (text === undefined || !/^\d+$/.test(text)) return 'unreadable';
	return Number(text) === expected ? 'same' : 'differs';
}

/** The ID of a record's `from` or `to` account: `<side>_bank_account_id`, or the object's `id`. */
function accountOf(record: IDataObject, side: 'from' | 'to'): unknown {
	const direct = record[`${side}_bank_account_id`];
	if (filled(direct)) return direct;
	const nested = record[`${side}_bank_account`];
	return isObject(nested) ? nested.id : undefined;
}

function subjectOf(record: IDataObject): unknown {
	if (filled(record.subject_id)) return record.subject_id;
	return isObject(record.subject) ? record.subject.id : undefined;
}

function lastFour(value: unknown): string | undefined {
	const text = textOf(value);
	const digits = text === undefined ? undefined : /(\d{4})\D*$/.exec(text);
	return digits ? digits[1] : undefined;
}

type Placement = 'in' | 'out' | { unsure: string };

/** Where a record's creation time falls against the window that starts at `start`. */
function placeInWindow(
	record: IDataObject,
	start: number,
): { placement: Placement; time?: number } {
	const raw = record.inserted_at ?? record.created_at;
	const time = parseServiceTime(raw);
	if (!time) {
		return {
			placement: {
				unsure:
					raw === undefined || raw === null
						? 'it shows no creation time'
						: 'its creation time could not be read',
			},
		};
	}
	if (time.ms >= start) return { placement: 'in', time: time.ms };
	if (!time.zoned && time.ms + UNZONED_SPREAD_MS >= start) {
		return {
			placement: {
				unsure: `its creation time (${String(raw)}) has no time zone, so it may be after the first attempt`,
			},
			time: time.ms,
		};
	}
	return { placement: 'out', time: time.ms };
}

/**
 * A record against the request's fields: undefined when a field it shows differs or it is older
 * than the window; otherwise a candidate, sure or not.
 */
function judge(
	record: IDataObject,
	position: number,
	checks: Array<[label: string, comparison: Comparison]>,
	start: number,
	ids: string[],
	marked: boolean,
): Candidate | undefined {
	const unsure: string[] = [];
	for (const [label, comparison] of checks) {
		if (comparison === 'differs') return undefined;
		if (comparison === 'unreadable') unsure.push(`its ${label} could not be read`);
	}
	const { placement, time } = placeInWindow(record, start);
	if (placement === 'out') return undefined;
	if (placement !== 'in') unsure.push(placement.unsure);
	if (ids.length === 0) unsure.push('it has no ID');
	return { record, ids, time, position, marked, unsure };
}

/** Records that show the kind first, then the oldest, then the first listed. */
function byPreference(first: Candidate, second: Candidate): number {
	if (first.marked !== second.marked) return first.marked ? -1 : 1;
	const firstTime = first.time ?? Number.POSITIVE_INFINITY;
	const secondTime = second.time ?? Number.POSITIVE_INFINITY;
	if (firstTime !== secondTime) return firstTime - secondTime;
	return first.position - second.position;
}

function describeCandidate(candidate: Candidate): string {
	const id = candidate.ids[0] ? `ID ${candidate.ids[0]}` : 'a record without an ID';
	return `${id} (${candidate.unsure.join('; ')})`;
}

/**
 * The answer from the candidates, claiming the one found in `taken`. Runs without awaiting, after
 * every read, so concurrent lookups of one run never claim the same record.
 */
function decide(
	candidates: Candidate[],
	taken: Set<string>,
	what: string,
	check: string,
	none: FindSentResult,
): FindSentResult {
	const free = candidates.filter((candidate) => !candidate.ids.some((id) => taken.has(id)));
	const sure = free.filter((candidate) => candidate.unsure.length === 0).sort(byPreference);
	if (sure.length > 0) {
		for (const id of sure[0].ids) taken.add(id);
		return { found: sure[0].record };
	}
	const maybe = free.sort(byPreference);
	if (maybe.length > 0) {
		const named = maybe.slice(0, NAMED_RECORDS).map(describeCandidate).join(', ');
		const more = maybe.length > NAMED_RECORDS ? ` and ${maybe.length - NAMED_RECORDS} more` : '';
		const count = maybe.length === 1 ? '1 record' : `${maybe.length} records`;
		return {
			cannotTell: `FacilitaPay shows ${count} that may be ${what}, but cannot be compared in full: ${named}${more}. ${check}`,
		};
	}
	return none;
}

/**
 * Every record of a list that pages by `last_id`, or why it could not be read to its end.
 */
async function readAll(
	read: Read,
	path: string,
	what: string,
): Promise<{ records: IDataObject[] } | { problem: string }> {
	const records: IDataObject[] = [];
	const seen = new Set<string>();
	let lastId: string | undefined;
	for (let page = 0; page < MAX_PAGES; page++) {
		let answer: unknown;
		try {
			answer = await read({
				method: 'GET',
				path,
				...(lastId === undefined ? {} : { qs: { last_id: lastId } }),
				retry: 'safe',
			});
		} catch (error) {
			return { problem: `${what} could not be read: ${messageOf(error)}.` };
		}
		if (!Array.isArray(answer)) return { problem: `${what} did not come as a list.` };
		if (answer.length === 0) return { records };
		let fresh = 0;
		for (const item of answer) {
			if (!isObject(item)) return { problem: `${what} holds an entry that is not a record.` };
			const id = textOf(item.id);
			if (id !== undefined && seen.has(id)) continue;
			if (id !== undefined) seen.add(id);
			records.push(item);
			fresh++;
		}
		if (fresh === 0) {
			// The same page again: the service ignores last_id and sent the whole list, unless the
			// page may be a full one of a longer list.
			if (answer.length < SERVICE_PAGE_SIZE) return { records };
			return {
				problem: `${what} did not go past its first ${answer.length} records when asked for the next page, so the rest could not be read.`,
			};
		}
		const nextId = textOf((answer[answer.length - 1] as IDataObject).id);
		if (nextId === undefined) {
			return {
				problem: `a page of ${what} ends with a record without an ID, so the next page could not be asked for.`,
			};
		}
		lastId = nextId;
	}
	return { problem: `${what} has more than ${MAX_PAGES} pages; not all were read.` };
}

/** A request the node sends, read back: `undefined` fields make the lookup impossible. */
function required(
	fields: Record<string, string | undefined>,
	what: string,
): { values: Record<string, string> } | { cannotTell: string } {
	const missing = Object.entries(fields)
		.filter(([, value]) => value === undefined)
		.map(([label]) => label);
	if (missing.length > 0) {
		return {
			cannotTell: `The ${what} request has no readable ${missing.join(', ')}, so it cannot be looked up at FacilitaPay.`,
		};
	}
	return { values: fields as Record<string, string> };
}

type PaymentKind = 'payout' | 'dynamicPix' | 'boleto' | 'checkout';

const PAYMENT_NAMES: Record<PaymentKind, string> = {
	payout: 'payout',
	dynamicPix: 'dynamic PIX',
	boleto: 'boleto',
	checkout: 'card checkout',
};

/** The kinds a transaction record shows itself to be. */
function kindsShown(record: IDataObject): Set<PaymentKind> {
	const kinds = new Set<PaymentKind>();
	if (filled(record.dynamic_pix_code) || record.use_dynamic_pix === true) kinds.add('dynamicPix');
	if (
		filled(record.bar_code) ||
		filled(record.digital_line) ||
		filled(record.url_pdf) ||
		isObject(record.from_boleto)
	) {
		kinds.add('boleto');
	}
	if (filled(record.checkout_id) || isObject(record.from_credit_card)) kinds.add('checkout');
	if (record.subject_is_receiver === true) kinds.add('payout');
	return kinds;
}

function paymentKindOf(path: string, transaction: IDataObject): PaymentKind | undefined {
	if (path === '/transactions/checkout') return 'checkout';
	if (transaction.use_dynamic_pix !== undefined && transaction.use_dynamic_pix !== false)
		return 'dynamicPix';
	if (transaction.from_boleto !== undefined) return 'boleto';
	if (filled(transaction.from_bank_account_id) && transaction.from_credit_card === undefined)
		return 'payout';
	return undefined;
}

async function findTransaction(
	kind: PaymentKind,
	transaction: IDataObject,
	sinceMs: number,
	taken: Set<string>,
	read: Read,
): Promise<FindSentResult> {
	const name = PAYMENT_NAMES[kind];
	const hasSource = kind === 'payout' || kind === 'dynamicPix';
	const input = required(
		{
			subject_id: textOf(transaction.subject_id),
			value: moneyKey(transaction.value),
			currency: textOf(transaction.currency),
			exchange_currency: textOf(transaction.exchange_currency),
			to_bank_account_id: textOf(transaction.to_bank_account_id),
			...(hasSource ? { from_bank_account_id: textOf(transaction.from_bank_account_id) } : {}),
		},
		name,
	);
	if ('cannotTell' in input) return input;
	const fields = input.values;
	const what = `the transactions of subject ${fields.subject_id}`;
	const check = `Check them (Subject > Get Transactions, or the FacilitaPay dashboard) before sending this ${name} again.`;
	const list = await readAll(
		read,
		`/subject/${encodeURIComponent(fields.subject_id)}/transactions`,
		what,
	);
	if ('problem' in list) {
		return {
			cannotTell: `Whether this ${name} was processed is unknown: ${list.problem} ${check}`,
		};
	}
	const start = sinceMs - CLOCK_SKEW_MS;
	const candidates: Candidate[] = [];
	list.records.forEach((record, position) => {
		const shown = kindsShown(record);
		if ([...shown].some((other) => other !== kind)) return;
		// A local pay-in (Transaction > Create Local Pay-In) sends the payout's very fields, so a
		// record with subject_is_receiver false (a pay-in) may be what was sent: not ruled out.
		const subject = compareText(fields.subject_id, subjectOf(record));
		const checks: Array<[string, Comparison]> = [
			// The list is the subject's: a record that names no subject is the subject's.
			['subject', subject === 'unreadable' ? 'same' : subject],
			['value', compareMoney(fields.value, record.value)],
			['currency', compareText(fields.currency, record.currency)],
			['exchange currency', compareText(fields.exchange_currency, record.exchange_currency)],
			['destination account', compareText(fields.to_bank_account_id, accountOf(record, 'to'))],
		];
		if (hasSource) {
			checks.push([
				'source account',
				compareText(fields.from_bank_account_id, accountOf(record, 'from')),
			]);
		}
		const id = textOf(record.id);
		const checkoutId = kind === 'checkout' ? textOf(record.checkout_id) : undefined;
		const ids = [checkoutId, id].filter((value): value is string => value !== undefined);
		const candidate = judge(
			record,
			position,
			checks,
			start,
			id === undefined ? [] : ids,
			shown.has(kind),
		);
		if (candidate) candidates.push(candidate);
	});
	const none: FindSentResult =
		kind === 'checkout'
			? {
					cannotTell: `No card payment attempt matching this checkout shows among ${what} since the first attempt, but a checkout page nobody has tried to pay yet is listed nowhere at FacilitaPay, so it may exist. Check the FacilitaPay dashboard (or the payment_failed / payment_approved events) before creating this checkout again.`,
				}
			: { notFound: true };
	return decide(candidates, taken, `this ${name} among ${what}`, check, none);
}

async function findSubscription(
	subscription: IDataObject,
	sinceMs: number,
	taken: Set<string>,
	read: Read,
): Promise<FindSentResult> {
	const card = isObject(subscription.from_card) ? subscription.from_card : undefined;
	const input = required(
		{
			subject_id: textOf(subscription.subject_id),
			value: moneyKey(subscription.value),
			currency: textOf(subscription.currency),
			frequency: textOf(subscription.frequency),
			cycles: /^\d+$/.test(textOf(subscription.cycles) ?? '')
				? textOf(subscription.cycles)
				: undefined,
			to_bank_account_id: textOf(subscription.to_bank_account_id),
			...(card
				? { 'card number': lastFour(card.card_number) }
				: { from_bank_account_id: textOf(subscription.from_bank_account_id) }),
		},
		'subscription',
	);
	if ('cannotTell' in input) return input;
	const fields = input.values;
	const what = "the partner's subscriptions";
	const check =
		'Check them (Subscription > Get Many, or the FacilitaPay dashboard) before creating this subscription again.';
	const list = await readAll(read, '/subscriptions', what);
	if ('problem' in list) {
		return {
			cannotTell: `Whether this subscription was created is unknown: ${list.problem} ${check}`,
		};
	}
	const start = sinceMs - CLOCK_SKEW_MS;
	const candidates: Candidate[] = [];
	list.records.forEach((record, position) => {
		let method: Comparison;
		if (card) {
			const recordCard = isObject(record.from_card) ? record.from_card : undefined;
			const digits = recordCard
				? lastFour(recordCard.last4 ?? recordCard.last_four ?? recordCard.card_number)
				: undefined;
			if (digits !== undefined) method = digits === fields['card number'] ? 'same' : 'differs';
			else if (filled(record.from_bank_account_id)) method = 'differs';
			else method = 'unreadable';
		} else if (filled(record.from_bank_account_id)) {
			method = compareText(fields.from_bank_account_id, record.from_bank_account_id);
		} else {
			method = isObject(record.from_card) ? 'differs' : 'unreadable';
		}
		const checks: Array<[string, Comparison]> = [
			['subject', compareText(fields.subject_id, subjectOf(record))],
			['value', compareMoney(fields.value, record.value)],
			['currency', compareText(fields.currency, record.currency)],
			['frequency', compareText(fields.frequency, record.frequency)],
			['cycles', compareCount(Number(fields.cycles), record.cycles)],
			['destination account', compareText(fields.to_bank_account_id, accountOf(record, 'to'))],
			[card ? 'card' : 'source account', method],
		];
		const id = textOf(record.id);
		const candidate = judge(record, position, checks, start, id === undefined ? [] : [id], true);
		if (candidate) candidates.push(candidate);
	});
	return decide(candidates, taken, `this subscription among ${what}`, check, { notFound: true });
}

/** Reads one record by its path for a status lookup; a failure is a reason. */
async function readOne(
	read: Read,
	path: string,
	what: string,
): Promise<{ record: IDataObject } | { problem: string }> {
	try {
		const answer = await read({ method: 'GET', path, retry: 'safe' });
		if (!isObject(answer)) return { problem: `${what} did not come as a record.` };
		return { record: answer };
	} catch (error) {
		return { problem: `${what} could not be read: ${messageOf(error)}.` };
	}
}

function statusOf(record: IDataObject): string | undefined {
	const status = textOf(record.status)?.toLowerCase();
	return status === 'cancelled' ? 'canceled' : status;
}

async function findSubscriptionState(
	action: 'cancel' | 'threedsChallenge',
	encodedId: string,
	taken: Set<string>,
	read: Read,
): Promise<FindSentResult> {
	const id = safeDecode(encodedId);
	const what = `subscription ${id}`;
	const check = `Check it (Subscription > Get, and its invoices with Invoice > Get Many) before sending the ${
		action === 'cancel' ? 'cancellation' : '3-D Secure challenge'
	} again.`;
	const answer = await readOne(read, `/subscriptions/${encodedId}`, what);
	if ('problem' in answer) return { cannotTell: `${answer.problem} ${check}` };
	const status = statusOf(answer.record);
	const found = (): FindSentResult => {
		taken.add(id);
		return { found: answer.record };
	};
	if (action === 'cancel') {
		if (status === 'canceled') return found();
		if (status === 'pending' || status === 'active' || status === 'completed')
			return { notFound: true };
	} else {
		if (status === 'active' || status === 'completed') return found();
		if (status === 'pending') {
			return {
				cannotTell: `${what} is still pending: whether the 3-D Secure challenge was processed (and the card charged) does not show in it. ${check}`,
			};
		}
	}
	return {
		cannotTell: `${what} ${
			status === undefined ? 'shows no status' : `is ${status}`
		}, which does not tell whether the request was processed. ${check}`,
	};
}

async function findTransactionState(
	action: 'cancel' | 'refund',
	encodedId: string,
	taken: Set<string>,
	read: Read,
): Promise<FindSentResult> {
	const id = safeDecode(encodedId);
	const what = `transaction ${id}`;
	const check = `Check it (Transaction > Get, or the FacilitaPay dashboard) before sending the ${
		action === 'cancel' ? 'cancellation' : 'refund'
	} again.`;
	const answer = await readOne(read, `/transactions/${encodedId}`, what);
	if ('problem' in answer) return { cannotTell: `${answer.problem} ${check}` };
	const status = statusOf(answer.record);
	if (status === 'canceled') {
		taken.add(id);
		return { found: answer.record };
	}
	if (status === 'pending') return { notFound: true };
	const received = status === 'identified' || status === 'exchanged' || status === 'wired';
	if (received && action === 'cancel') return { notFound: true };
	if (received) {
		return {
			cannotTell: `${what} is ${status}: a refund is a record of its own at FacilitaPay, with its own status (it may still be pending), and the transaction does not show whether one was made. ${check}`,
		};
	}
	return {
		cannotTell: `${what} ${
			status === undefined ? 'shows no status' : `is ${status}`
		}, which does not tell whether the request was processed. ${check}`,
	};
}

async function findDocument(
	encodedSubjectId: string,
	document: IDataObject,
	sinceMs: number,
	taken: Set<string>,
	read: Read,
): Promise<FindSentResult> {
	const subjectId = safeDecode(encodedSubjectId);
	const labels = Array.isArray(document.labels)
		? document.labels.map((label) => textOf(label)?.toLowerCase())
		: [];
	const byUrl = filled(document.file_url);
	const input = required(
		{
			labels: labels.length > 0 && labels.every((label) => label !== undefined) ? 'ok' : undefined,
			file_type: textOf(document.file_type),
			...(byUrl
				? { file_url: textOf(document.file_url) }
				: { file_name: textOf(document.file_name) }),
		},
		'document upload',
	);
	if ('cannotTell' in input) return input;
	const fields = input.values;
	const labelKey = [...new Set(labels)].sort().join('\n');
	const what = `the documents of subject ${subjectId}`;
	const check =
		'Check them (Subject > Get, or the FacilitaPay dashboard) before uploading the document again.';
	const answer = await readOne(read, `/subject/people/${encodedSubjectId}`, `subject ${subjectId}`);
	if ('problem' in answer) {
		return {
			cannotTell: `Whether the document was uploaded is unknown: ${answer.problem} (A company subject cannot be read at /subject/people.) ${check}`,
		};
	}
	const documents = answer.record.documents;
	if (!Array.isArray(documents)) {
		return {
			cannotTell: `Whether the document was uploaded is unknown: subject ${subjectId} shows no list of documents. ${check}`,
		};
	}
	const start = sinceMs - CLOCK_SKEW_MS;
	const candidates: Candidate[] = [];
	documents.forEach((record, position) => {
		if (!isObject(record)) return;
		let labelCheck: Comparison = 'unreadable';
		if (Array.isArray(record.labels)) {
			const shown = record.labels.map((label) => textOf(label)?.toLowerCase());
			if (shown.every((label) => label !== undefined)) {
				labelCheck = [...new Set(shown)].sort().join('\n') === labelKey ? 'same' : 'differs';
			}
		}
		const checks: Array<[string, Comparison]> = [
			['labels', labelCheck],
			['file type', compareText(fields.file_type, record.file_type)],
			byUrl
				? ['file URL', compareText(fields.file_url, record.file_url)]
				: ['file name', compareText(fields.file_name, record.file_name)],
		];
		const id = textOf(record.id);
		const candidate = judge(record, position, checks, start, id === undefined ? [] : [id], true);
		if (candidate) candidates.push(candidate);
	});
	return decide(candidates, taken, `this document among ${what}`, check, { notFound: true });
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

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
