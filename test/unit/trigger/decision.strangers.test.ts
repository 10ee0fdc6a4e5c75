import type { IDataObject } from 'n8n-workflow';

import type { Decision, Facts, Received } from '../../../nodes/FacilitaPayTrigger/decision';
import { decide } from '../../../nodes/FacilitaPayTrigger/decision';
import { ANSWERS } from '../../../nodes/FacilitaPayTrigger/texts';
import {
	absent,
	decideWith,
	facts,
	found,
	itemOf,
	kycData,
	outcomeOf,
	signed,
	tx,
} from './decisionFacts';

// The decision (nodes/FacilitaPayTrigger/decision.ts) and strangers: no guessing lock, an answer
// that never tells whether a secret was right, unsigned payloads, duplicates judged on what
// FacilitaPay says changed.

/** Status and body as a sender sees them. */
function seen(decision: Decision): { status: number; message: string } {
	if (decision.kind !== 'answer') throw new Error(`asked for ${decision.kind}`);
	return { status: decision.answer.status, message: decision.answer.message };
}

describe('what a request under a secret not held gets never tells how close its guess was', () => {
	const forged: IDataObject[] = [
		{ type: 'identified', transaction_id: 'tx-404' },
		{ type: 'wire_created', wire_id: 'w', transaction_ids: ['t1', 't2'] },
		{ type: 'non_identified_bank_transaction', bank_transaction: { id: 'b' } },
		{ type: 'subject_approved', subject_id: 'nobody' },
		{ type: 'payment_failed', transaction_id: 'tx-404' },
		{ type: 'pix_qr_ready' },
		{ type: 'constructor', transaction_id: 'tx-404' },
	];

	it('a right secret naming what does not exist, an event not chosen, and an unlisted guess: the same 200 and body', () => {
		const answers = new Set<string>();
		for (const fields of forged) {
			const received = signed(fields);
			const guess = decide(facts({ received, secret: 'unknown', listing: 'unlisted' }));
			answers.add(JSON.stringify(seen(guess)));
			const notChosen = decide(facts({ received, events: ['account_request_status'] }));
			answers.add(JSON.stringify(seen(notChosen)));
			const right = decideWith({ received }, [absent, absent]);
			if (right.kind === 'answer' && !right.item) answers.add(JSON.stringify(seen(right)));
		}
		expect([...answers]).toEqual([JSON.stringify(ANSWERS.received)]);
	});

	it('a started event is answered with that same 200 and body', () => {
		const started = decideWith({}, [found(tx('tx-1', 'identified'))]);
		expect(itemOf(started).verified).toBe(true);
		expect(seen(started)).toEqual(ANSWERS.received);
	});

	it('nothing counts toward any lock: the thousandth unlisted guess gets what the first got', () => {
		const input: Partial<Facts> = { secret: 'unknown', listing: 'unlisted' };
		expect(decide(facts(input))).toEqual(decide(facts(input)));
		expect(decide(facts(input)).effects).not.toHaveProperty('remember');
	});
});

describe('unsigned KYC payloads: the strangers share, unverifiedFields, once per subject state', () => {
	const received: Received = {
		kind: 'kycStatus',
		subject: { ...kycData, email: 'attacker@example.com', updated_at: 'x' },
	};
	const subject = { ...kycData, social_name: 'Ana Souza', updated_at: '2025-06-01T10:00:00' };

	it('is read through the strangers share of reads', () => {
		expect(decide(facts({ received, secret: 'none' }))).toMatchObject({
			kind: 'read',
			stranger: true,
		});
	});

	it("the sender's fields stay under unverifiedFields; what is read as verified comes from the API", () => {
		const item = itemOf(decideWith({ received, secret: 'none' }, [found(subject)]));
		expect(item).toMatchObject({
			type: 'kyc_status',
			subject_id: 'sub-1',
			status: 'approved',
			subject,
			verified: true,
			unverifiedFields: { data: { email: 'attacker@example.com' } },
		});
		expect(item).not.toHaveProperty('data');
	});

	it('not confirmed: sent again (503), with no lock; an API failure likewise', () => {
		for (const reads of [[absent], [{ kind: 'failed', reason: 'HTTP 503' } as const]]) {
			const decision = decideWith({ received, secret: 'none' }, reads);
			expect(outcomeOf(decision)).toBe('retry');
			expect(decision.effects.log?.level).toBe('debug');
		}
	});

	it('the same subject state starts the workflow once, without any option; a new state starts again', () => {
		const first = decideWith({ received, secret: 'none' }, [found(subject)]);
		const key = first.effects.remember;
		expect(typeof key).toBe('string');
		const replay = decideWith({ received, secret: 'none', emitted: (k) => k === key }, [
			found(subject),
		]);
		expect(replay.kind === 'answer' && replay.item).toBeFalsy();
		const changed = decideWith({ received, secret: 'none', emitted: (k) => k === key }, [
			found({ ...subject, updated_at: '2025-06-02T09:00:00' }),
		]);
		expect(itemOf(changed).verified).toBe(true);
	});

	it("a document number that differs is a proof, and the number never reaches n8n's log", () => {
		const decision = decideWith({ received, secret: 'none' }, [
			found({ ...subject, document_number: '11144477735' }),
		]);
		expect(outcomeOf(decision)).toBe('provenFalse');
		expect(JSON.stringify(decision.effects.log)).not.toMatch(/39053344705|11144477735/);
	});
});

describe('duplicates judged on what FacilitaPay says changed', () => {
	const on = { verifyWithApi: true, acceptUnsignedKycStatus: false, dropDuplicates: true };
	const approvedEvent = signed({ type: 'subject_approved', subject_id: 'p-1' });
	const person = (updated: string) => found({ id: 'p-1', status: 'approved', updated_at: updated });

	it('a re-approval (same bytes, the subject updated since) is a new event; a redelivery is not', () => {
		const first = decideWith({ options: on, received: approvedEvent, duplicate: 'emitted' }, [
			person('2025-06-02T08:00:00'),
		]);
		const key = first.effects.remember!;
		expect(itemOf(first).verified).toBe(true);
		const emitted = (k: string) => k === key;
		const redelivery = decideWith(
			{ options: on, received: approvedEvent, duplicate: 'emitted', emitted },
			[person('2025-06-02T08:00:00')],
		);
		expect(redelivery).toMatchObject({ answer: ANSWERS.duplicate });
		expect(redelivery.kind === 'answer' && redelivery.item).toBeFalsy();
		const reapproval = decideWith(
			{ options: on, received: approvedEvent, duplicate: 'emitted', emitted },
			[person('2025-06-02T09:30:00')],
		);
		expect(itemOf(reapproval).verified).toBe(true);
	});

	it('without updated_at nothing tells them apart: delivered, never dropped on a guess', () => {
		const decision = decideWith(
			{ options: on, received: approvedEvent, duplicate: 'emitted', emitted: () => true },
			[found({ id: 'p-1', status: 'approved' })],
		);
		expect(itemOf(decision).verified).toBe(true);
	});
});

describe('what is not proven false', () => {
	it('a wire naming more than 500 transactions is delivered unverified, nothing read', () => {
		const received = signed({
			type: 'wire_created',
			wire_id: 'w',
			transaction_ids: Array.from({ length: 501 }, (_, n) => `t${n}`),
		});
		const item = itemOf(decide(facts({ received })));
		expect(item.verified).toBe(false);
		expect(item.verification).toMatchObject({ summary: expect.stringMatching(/501 objects/) });
	});

	it('an undocumented type naming a subject FacilitaPay does not show (a company) is delivered unverified', () => {
		const received = signed({ type: 'company_event', subject_id: 'co-1' });
		expect(outcomeOf(decideWith({ received }, [absent]))).toBe('deliver');
	});

	it('types named constructor or toString follow the rules of an unknown type', () => {
		for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
			const received = signed({ type, transaction_id: 'tx-1', extra: 1 });
			expect(decide(facts({ received }))).toMatchObject({ kind: 'read' });
			expect(outcomeOf(decideWith({ received }, [absent]))).toBe('provenFalse');
			const item = itemOf(decideWith({ received }, [found(tx('tx-1', 'identified'))]));
			expect(item.unverifiedFields).toMatchObject({ transaction_id: 'tx-1', extra: 1 });
		}
	});

	it('payment_refunded names the original payment: identified or canceled confirms it', () => {
		const received = signed({ type: 'payment_refunded', transaction_id: 'tx-1' });
		for (const status of ['identified', 'canceled']) {
			expect(outcomeOf(decideWith({ received }, [found(tx('tx-1', status))]))).toBe('verified');
		}
	});

	it('sent and waiting_correction are not transaction statuses: a wire seeing one is delivered unverified', () => {
		const received = signed({ type: 'wire_created', wire_id: 'w', transaction_ids: ['t1'] });
		expect(outcomeOf(decideWith({ received }, [found(tx('t1', 'sent'))]))).toBe('deliver');
		expect(outcomeOf(decideWith({ received }, [found(tx('t1', 'wired'))]))).toBe('verified');
	});
});
