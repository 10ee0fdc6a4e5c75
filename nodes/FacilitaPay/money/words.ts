import type { IDataObject, INode } from 'n8n-workflow';

import type { FacilitaPayError } from '../transport';
import { errorFromFacts, factsOf } from '../transport';
import { IDENTITY_FIELD, paymentText, recordText } from './identity';
import type { MoneyItem } from './types';
import { holderOf } from './types';
import { SETTLE_WINDOW_MS, utcText } from './settle';

/* The words of the money rule, composed once from its facts: what a person reads. */

export function alreadyDone(note: string, ref: string, record?: IDataObject): IDataObject {
	return { ...(record ?? {}), alreadyDone: true, alreadyDoneNote: note, [IDENTITY_FIELD]: ref };
}

/** Whether a refusal's body names `meta`: FacilitaPay refused the identity. */
export function refusesMeta(error: unknown): boolean {
	const facts = factsOf(error);
	if (facts?.status === undefined || facts.status < 400 || facts.status >= 500) return false;
	return /\bmeta\b/i.test(`${facts.detail ?? ''} ${facts.head}`);
}

export function unknownError(node: INode, item: MoneyItem, why: string): FacilitaPayError {
	return errorFromFacts(node, {
		itemIndex: item.itemIndex,
		outcome: 'unknown',
		head: why.charAt(0).toUpperCase() + why.slice(1),
		request: `${item.request.method} ${item.request.path}`,
		movesMoney: true,
		fix: 'It creates or moves money, so it is sent at most once, also when n8n runs the node again. Check it at FacilitaPay (Transaction > Get, Subject > Get Transactions, Transaction > Find By Idempotency Key) before sending it again.',
	});
}

/** One Idempotency Key, two payments: refused, both named, nothing sent. */
export function keyReusedError(node: INode, item: MoneyItem, other: string): FacilitaPayError {
	return errorFromFacts(node, {
		itemIndex: item.itemIndex,
		outcome: 'notSent',
		invalidInput: true,
		head: `The Idempotency Key "${item.idempotencyKey}" already names another payment: ${other}. This request (${paymentText(item.request, holderOf(item))}) differs from it, so it was not sent`,
		request: `${item.request.method} ${item.request.path}`,
		movesMoney: true,
		fix: 'One key names one payment. If this is a new payment, give it a new Idempotency Key; if it is the same one, send it with the parameters it was sent with.',
	});
}

/** Two records under one identity (overlapping runs on two workers): named, with how to cancel one. */
export function paidTwiceError(
	node: INode,
	item: MoneyItem,
	ref: string,
	records: IDataObject[],
	voided: IDataObject[] = [],
): FacilitaPayError {
	const named = records.map(recordText).join(' and ');
	return errorFromFacts(node, {
		itemIndex: item.itemIndex,
		outcome: 'done',
		head: `${records.length} payments carry ${IDENTITY_FIELD} "${ref}" at FacilitaPay: ${named}. Two runs sent it at the same time; nothing more was sent${voidedNote(voided).replace(/\.$/, '')}`,
		request: `${item.request.method} ${item.request.path}`,
		recordId: String(records[0]?.id ?? ''),
		movesMoney: true,
		fix: `Keep one and cancel the other while it is pending: Transaction > Cancel with its ID (GET /transactions/<id>/refund), or refund it once received (Transaction > Refund). Once FacilitaPay shows ${records.length > 2 ? 'all but one' : 'one of them'} canceled (or failed), the next run with this identity sends nothing and outputs the one left as its payment (alreadyDone).`,
	});
}

/** The payments under an identity FacilitaPay shows canceled or failed, as a sentence (or nothing). */
export function voidedNote(voided: IDataObject[]): string {
	if (voided.length === 0) return '';
	const named = voided.map(recordText).join(', ');
	return ` ${voided.length === 1 ? 'Payment' : 'Payments'} ${named} under the same identity ${
		voided.length === 1 ? 'is' : 'are'
	} canceled or failed at FacilitaPay and no longer ${voided.length === 1 ? 'counts' : 'count'}.`;
}

/**
 * Why an item whose earlier try has no known outcome is not sent although FacilitaPay shows no
 * record of it: FacilitaPay may still be writing it (a 504 does not stop the payment behind it).
 */
export function notYetSettled(
	ref: string,
	atMs: number | undefined,
	readAt: number | undefined,
	metaKept: boolean,
): string {
	const at = atMs === undefined ? 'at a moment not known' : `at ${utcText(atMs)}`;
	const seen =
		atMs !== undefined && readAt !== undefined
			? `only ${Math.max(0, Math.round((readAt - atMs) / 1000))} s later by FacilitaPay's clock`
			: 'but the time passed since cannot be told';
	const window = Math.round(SETTLE_WINDOW_MS / 60_000);
	const when =
		atMs === undefined
			? 'Check it with Subject > Get Transactions or Transaction > Find By Idempotency Key'
			: metaKept
				? `Retry after ${utcText(atMs + SETTLE_WINDOW_MS)} (${window} minutes after that try, by FacilitaPay's clock): if FacilitaPay still shows no record of it then, the retry sends it; or check it now with Subject > Get Transactions`
				: 'Check it with Subject > Get Transactions';
	return `its earlier try (${at}) has no known outcome and FacilitaPay shows no record under ${IDENTITY_FIELD} "${ref}", ${seen}${
		metaKept ? '' : ', and nothing read since that try shows FacilitaPay keeping meta'
	}: FacilitaPay may still be writing it (a gateway's 504 or a timeout does not stop the payment behind it), so "not found" does not prove "not sent" yet, and it was not sent. ${when}`;
}

/** A key's other payment as n8n's store knows it (its parameters differ; its record is elsewhere). */
export function otherPayment(item: MoneyItem): string {
	return `a payment this node sent earlier with other parameters (not in ${item.place?.by === 'meta' ? item.place.what : 'this list'}; Transaction > Find By Idempotency Key with its subject shows it)`;
}

export function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

export function recordFrom(answer: unknown, recordId?: string): IDataObject | undefined {
	let value = answer;
	if (value && typeof value === 'object' && 'data' in (value as object))
		value = (value as { data: unknown }).data;
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	return recordId ? { id: recordId } : undefined;
}

/** A second item of one run with the same key (and the same parameters): not sent, not a failure. */
export function sameKeyInRun(item: MoneyItem, first: number): IDataObject {
	return {
		notSent: true,
		idempotencyKey: item.idempotencyKey,
		notSentNote: `Not sent: item ${first} of this run carries the same Idempotency Key "${item.idempotencyKey}", and one key names one payment.`,
	};
}
