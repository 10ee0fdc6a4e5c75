import type { Facts, Received } from '../../../nodes/FacilitaPayTrigger/decision';
import { decide } from '../../../nodes/FacilitaPayTrigger/decision';
import { ANSWERS } from '../../../nodes/FacilitaPayTrigger/texts';
import { facts, itemOf, kycData, signed } from './decisionFacts';

// The decision (nodes/FacilitaPayTrigger/decision.ts): what is answered before any read (a wrong
// secret, a duplicate, an event not chosen, Verify With API off, the KYC status payload).

describe('answers before any read', () => {
	it.each<[string, Partial<Facts>, number, string]>([
		[
			'a body that is not JSON',
			{ received: { kind: 'bad', status: 400, message: 'The body is not JSON' } },
			400,
			'The body is not JSON',
		],
		[
			'neither a notification nor the KYC payload',
			{ received: { kind: 'unknown' } },
			401,
			ANSWERS.notFacilitaPay.message,
		],
		[
			'a secret not held, unlisted in the records',
			{ secret: 'unknown', listing: 'unlisted' },
			200,
			ANSWERS.received.message,
		],
		[
			'a secret not held, the records unreadable',
			{ secret: 'unknown', listing: 'unread' },
			503,
			ANSWERS.sendLater.message,
		],
		['credentials unreadable', { secret: 'unavailable' }, 503, ANSWERS.sendLater.message],
		['no type', { received: signed({ transaction_id: 'tx-1' }) }, 400, ANSWERS.noType.message],
		['an event not chosen', { events: ['payment_failed'] }, 200, ANSWERS.notChosen.message],
		[
			'the same notification being checked',
			{ duplicate: 'checking' },
			503,
			ANSWERS.sendLater.message,
		],
		[
			'a duplicate with Drop Duplicates',
			{
				duplicate: 'emitted',
				options: { verifyWithApi: true, acceptUnsignedKycStatus: false, dropDuplicates: true },
			},
			200,
			ANSWERS.duplicate.message,
		],
		[
			'an unsigned payload with Verify With API off',
			{
				received: { kind: 'kycStatus', subject: kycData },
				secret: 'none',
				options: { verifyWithApi: false, acceptUnsignedKycStatus: false, dropDuplicates: false },
			},
			401,
			ANSWERS.unsigned.message,
		],
	])('%s: %i', (_name, input, status, message) => {
		const decision = decide(facts(input));
		expect(decision).toMatchObject({ kind: 'answer', answer: { status, message } });
		expect(decision).not.toHaveProperty('item');
	});

	it('a secret not held is looked up in the records first, after the type (400 whatever the secret)', () => {
		expect(decide(facts({ secret: 'unknown' }))).toEqual({ kind: 'records', effects: {} });
		expect(
			decide(facts({ secret: 'unknown', received: signed({ transaction_id: 'tx-1' }) })),
		).toMatchObject({ answer: ANSWERS.noType });
	});

	it('a secret not held but listed in the records is read and started like a right one, saying so', () => {
		const first = decide(facts({ secret: 'unknown', listing: 'listed' }));
		expect(first).toMatchObject({ kind: 'read', stranger: false });
		const started = decide(
			facts({
				secret: 'unknown',
				listing: 'listed',
				reads: [{ kind: 'found', answer: { id: 'tx-1', status: 'identified' } }],
			}),
		);
		expect(itemOf(started)).toMatchObject({
			verified: true,
			verification: { listedInNotificationRecords: true },
		});
	});

	it('a duplicate without Drop Duplicates is read and started again (delivery is at least once)', () => {
		expect(decide(facts({ duplicate: 'emitted' })).kind).toBe('read');
	});

	it('Verify With API off: started unverified, saying so, with no read', () => {
		const item = itemOf(
			decide(
				facts({
					options: { verifyWithApi: false, acceptUnsignedKycStatus: false, dropDuplicates: false },
				}),
			),
		);
		expect(item).toMatchObject({
			verified: false,
			verification: { summary: expect.stringMatching(/Verify With API is off/) },
		});
	});

	it('the KYC status payload needs no option when Verify With API is on: it is read', () => {
		expect(
			decide(facts({ received: { kind: 'kycStatus', subject: kycData }, secret: 'none' })),
		).toMatchObject({
			kind: 'read',
			reads: [{ target: 'subject', id: 'sub-1' }],
		});
	});

	it('the KYC status payload follows the Events choice (kyc_status)', () => {
		const received: Received = { kind: 'kycStatus', subject: kycData };
		expect(decide(facts({ received, secret: 'none', events: ['subject_approved'] }))).toMatchObject(
			{
				answer: ANSWERS.notChosen,
			},
		);
		expect(decide(facts({ received, secret: 'none', events: ['kyc_status'] })).kind).toBe('read');
	});
});
