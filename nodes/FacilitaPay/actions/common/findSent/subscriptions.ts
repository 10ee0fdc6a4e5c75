import type { IDataObject } from 'n8n-workflow';

import { type Candidate, CLOCK_SKEW_MS, decide, type FindSentResult, judge } from './candidates';
import { judgeStatus, type Read, readAll, required } from './reads';
import {
	accountOf,
	type Comparison,
	compareCount,
	compareMoney,
	compareText,
	filled,
	isObject,
	lastFour,
	moneyKey,
	safeDecode,
	subjectOf,
	textOf,
} from './records';

export async function findSubscription(
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

export async function findSubscriptionState(
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
	return await judgeStatus(read, `/subscriptions/${encodedId}`, what, check, (status, record) => {
		const found = (): FindSentResult => {
			taken.add(id);
			return { found: record };
		};
		if (action === 'cancel') {
			if (status === 'canceled') return found();
			if (status === 'pending' || status === 'active' || status === 'completed')
				return { notFound: true };
			return undefined;
		}
		if (status === 'active' || status === 'completed') return found();
		if (status === 'pending') {
			return {
				cannotTell: `${what} is still pending: whether the 3-D Secure challenge was processed (and the card charged) does not show in it. ${check}`,
			};
		}
		return undefined;
	});
}
