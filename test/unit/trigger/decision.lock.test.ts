import type { Facts, Received } from '../../../nodes/FacilitaPayTrigger/decision';
import { decide } from '../../../nodes/FacilitaPayTrigger/decision';
import { ANSWERS } from '../../../nodes/FacilitaPayTrigger/texts';
import { absent, decideWith, facts, found, kycData, signed, tx } from './decisionFacts';

// The decision (nodes/FacilitaPayTrigger/decision.ts): the guessing lock answers alike whatever is
// sent, what counts toward the lock, and what Drop Duplicates remembers.

describe('the guessing lock tells nothing', () => {
	const events: Received[] = [
		signed({ type: 'identified', transaction_id: 'tx-1' }),
		signed({
			type: 'wire_created',
			wire_id: 'w',
			transaction_ids: Array.from({ length: 30 }, (_, n) => `t${n}`),
		}),
		signed({ type: 'non_identified_bank_transaction', bank_transaction: { id: 'b' } }),
		signed({ type: 'subject_approved', subject_id: 'c-1' }),
		signed({ type: 'pix_qr_ready' }),
		signed({ transaction_id: 'no type' }),
		{ kind: 'kycStatus', subject: kycData },
	];
	const variants: Array<Partial<Facts>> = [
		{ secret: 'right' },
		{ secret: 'wrong' },
		{ secret: 'notStored' },
		{
			secret: 'right',
			duplicate: 'emitted',
			options: { verifyWithApi: true, acceptUnsignedKycStatus: false, dropDuplicates: true },
		},
		{ secret: 'right', events: ['payment_failed'] },
		{
			secret: 'right',
			options: { verifyWithApi: false, acceptUnsignedKycStatus: true, dropDuplicates: false },
		},
		{ secret: 'right', reads: [found(tx('tx-1', 'identified'))] },
	];

	it('while locked, every kind of event gets the same status and body with a right or a wrong secret, and nothing is read or started', () => {
		const answers = new Set<string>();
		for (const received of events) {
			for (const variant of variants) {
				const decision = decide(facts({ received, locked: true, ...variant }));
				expect(decision).toEqual({ kind: 'answer', answer: ANSWERS.sendLater, effects: {} });
				answers.add(JSON.stringify(decision));
			}
		}
		expect(answers.size).toBe(1);
	});
});

describe('what counts toward the lock, and what Drop Duplicates remembers', () => {
	it('proven false counts; a signed doubt sent again does not; an unsigned one does', () => {
		const proven = decideWith({}, [absent]);
		expect(proven.effects).toMatchObject({ countForgery: true, claim: 'release' });
		const retry = decideWith({}, [found(tx('tx-1', 'pending'))]);
		expect(retry.effects).toMatchObject({ claim: 'release' });
		expect(retry.effects.countForgery).toBeUndefined();
		const unsigned = decideWith(
			{ received: { kind: 'kycStatus', subject: kycData }, secret: 'none' },
			[absent],
		);
		expect(unsigned.effects).toMatchObject({ countForgery: true, claim: 'release' });
	});

	it('a started event is remembered with Drop Duplicates, its claim released without', () => {
		const on = { verifyWithApi: true, acceptUnsignedKycStatus: false, dropDuplicates: true };
		expect(decideWith({ options: on }, [found(tx('tx-1', 'identified'))]).effects).toMatchObject({
			remember: true,
		});
		expect(decideWith({}, [found(tx('tx-1', 'identified'))]).effects).toMatchObject({
			claim: 'release',
		});
	});
});
