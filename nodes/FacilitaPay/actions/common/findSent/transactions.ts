import type { IDataObject } from 'n8n-workflow';

import { type Candidate, CLOCK_SKEW_MS, decide, type FindSentResult, judge } from './candidates';
import { judgeStatus, type Read, readAll, required } from './reads';
import {
	accountOf,
	type Comparison,
	compareMoney,
	compareText,
	filled,
	isObject,
	moneyKey,
	safeDecode,
	subjectOf,
	textOf,
} from './records';

export type PaymentKind = 'payout' | 'dynamicPix' | 'boleto' | 'checkout';

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

export function paymentKindOf(path: string, transaction: IDataObject): PaymentKind | undefined {
	if (path === '/transactions/checkout') return 'checkout';
	if (transaction.use_dynamic_pix !== undefined && transaction.use_dynamic_pix !== false)
		return 'dynamicPix';
	if (transaction.from_boleto !== undefined) return 'boleto';
	if (filled(transaction.from_bank_account_id) && transaction.from_credit_card === undefined)
		return 'payout';
	return undefined;
}

export async function findTransaction(
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

export async function findTransactionState(
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
	return await judgeStatus(read, `/transactions/${encodedId}`, what, check, (status, record) => {
		if (status === 'canceled') {
			taken.add(id);
			return { found: record };
		}
		if (status === 'pending') return { notFound: true };
		const received = status === 'identified' || status === 'exchanged' || status === 'wired';
		if (received && action === 'cancel') return { notFound: true };
		if (received) {
			return {
				cannotTell: `${what} is ${status}: a refund is a record of its own at FacilitaPay, with its own status (it may still be pending), and the transaction does not show whether one was made. ${check}`,
			};
		}
		return undefined;
	});
}
