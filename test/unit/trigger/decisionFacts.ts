import type { IDataObject } from 'n8n-workflow';

import type { Decision, Facts, Received } from '../../../nodes/FacilitaPayTrigger/decision';
import { decide } from '../../../nodes/FacilitaPayTrigger/decision';
import type { ReadResult } from '../../../nodes/FacilitaPayTrigger/verification';
import { ANSWERS } from '../../../nodes/FacilitaPayTrigger/texts';

/*
 * What the decision tests (decision.*.test.ts) share. The decision is pure: facts in, answer and
 * item out. Those tables are the rules of the trigger; the webhook tests only check that n8n's side
 * carries them out.
 */

export const NOW = Date.parse('2025-06-02T10:30:00.000Z');
export const SECRET = '3718';

export function signed(fields: IDataObject): Received {
	return { kind: 'notification', notification: { secret: SECRET, ...fields } };
}

export function facts(over: Partial<Facts> = {}): Facts {
	return {
		now: NOW,
		received: signed({ type: 'identified', transaction_id: 'tx-1' }),
		options: { verifyWithApi: true, acceptUnsignedKycStatus: false, dropDuplicates: false },
		events: ['*'],
		secret: 'right',
		duplicate: 'new',
		payloadKey: 'payload-key',
		...over,
	};
}

export const found = (answer: unknown): ReadResult => ({ kind: 'found', answer });
export const absent: ReadResult = { kind: 'absent', status: 404 };
export const failed: ReadResult = { kind: 'failed', reason: 'HTTP 503' };
export const notRead: ReadResult = { kind: 'notRead' };

/** Decides, and when the decision asks for reads, decides again with these results. */
export function decideWith(input: Partial<Facts>, reads?: ReadResult[]): Decision {
	const first = decide(facts(input));
	if (first.kind !== 'read' || reads === undefined) return first;
	return decide(facts({ ...input, reads }));
}

export type Outcome = 'verified' | 'deliver' | 'retry' | 'provenFalse';

export function outcomeOf(decision: Decision): Outcome {
	if (decision.kind !== 'answer') throw new Error('asked for reads again');
	if (decision.item) return decision.item.verified === true ? 'verified' : 'deliver';
	if (decision.answer === ANSWERS.sendLater) return 'retry';
	if (decision.answer === ANSWERS.received) return 'provenFalse';
	throw new Error(`unexpected answer ${JSON.stringify(decision.answer)}`);
}

export function itemOf(decision: Decision): IDataObject {
	if (decision.kind !== 'answer' || !decision.item) throw new Error('nothing started');
	return decision.item;
}

export const tx = (id: string, status: string, more: IDataObject = {}) => ({
	id,
	status,
	value: '150.00',
	currency: 'BRL',
	...more,
});
export const kycData = {
	id: 'sub-1',
	status: 'approved',
	social_name: 'Ana Souza',
	document_type: 'cpf',
	document_number: '39053344705',
};
