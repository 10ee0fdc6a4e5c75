import type { IDataObject } from 'n8n-workflow';

import type { Received } from '../../../nodes/FacilitaPayTrigger/decision';
import { decide } from '../../../nodes/FacilitaPayTrigger/decision';
import type { ReadResult } from '../../../nodes/FacilitaPayTrigger/verification';
import { ANSWERS } from '../../../nodes/FacilitaPayTrigger/texts';
import type { Outcome } from './decisionFacts';
import {
	absent,
	decideWith,
	facts,
	failed,
	found,
	itemOf,
	kycData,
	notRead,
	outcomeOf,
	signed,
	tx,
} from './decisionFacts';

// The decision (nodes/FacilitaPayTrigger/decision.ts), per event type: what the API says decides
// the answer (started verified, started unverified, sent again with 503, or proven false).

describe('the principle, per event type: what the API says decides the answer', () => {
	const wire = { type: 'wire_created', wire_id: 'w-1', transaction_ids: ['t1', 't2', 't3'] };
	const canceledSubscription = {
		type: 'subscription_canceled',
		subscription: { id: 's-1', status: 'canceled', subject_id: 'p-1', canceled_by_payer: true },
	};
	const invoicePaid = {
		type: 'invoice_paid',
		invoice: { id: 'i-1', status: 'paid', subject_id: 'p-1', subscription_id: 's-1' },
	};
	it.each<[string, IDataObject | Received, ReadResult[], Outcome]>([
		[
			'identified, identified',
			{ type: 'identified', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'identified'))],
			'verified',
		],
		[
			'identified, already wired',
			{ type: 'identified', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'wired'))],
			'verified',
		],
		[
			'identified, still pending',
			{ type: 'identified', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'pending'))],
			'retry',
		],
		[
			'identified, canceled since',
			{ type: 'identified', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'canceled'))],
			'deliver',
		],
		[
			'identified, unknown to the API',
			{ type: 'identified', transaction_id: 'tx-1' },
			[absent],
			'provenFalse',
		],
		['identified, API down', { type: 'identified', transaction_id: 'tx-1' }, [failed], 'retry'],
		[
			'identified, not read in time',
			{ type: 'identified', transaction_id: 'tx-1' },
			[notRead],
			'retry',
		],
		[
			'payment_approved, identified',
			{ type: 'payment_approved', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'identified'))],
			'verified',
		],
		[
			'payment_approved before identification (pending)',
			{ type: 'payment_approved', transaction_id: 'tx-1', checkout_id: 'co-1' },
			[found(tx('tx-1', 'pending', { checkout_id: 'co-1' }))],
			'deliver',
		],
		[
			'payment_approved, another checkout',
			{ type: 'payment_approved', transaction_id: 'tx-1', checkout_id: 'co-1' },
			[found(tx('tx-1', 'identified', { checkout_id: 'co-2' }))],
			'deliver',
		],
		[
			'payment_approved, unknown',
			{ type: 'payment_approved', transaction_id: 'tx-1' },
			[absent],
			'provenFalse',
		],
		[
			'payment_failed, canceled',
			{ type: 'payment_failed', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'canceled'))],
			'verified',
		],
		[
			'payment_failed, pending',
			{ type: 'payment_failed', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'pending'))],
			'deliver',
		],
		[
			'payment_expired, canceled',
			{ type: 'payment_expired', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'canceled'))],
			'verified',
		],
		[
			'payment_refunded, identified (the original payment need not be canceled)',
			{ type: 'payment_refunded', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'identified'))],
			'verified',
		],
		[
			'wire_created, all wired',
			wire,
			[found(tx('t1', 'wired')), found(tx('t2', 'wired')), found(tx('t3', 'exchanged'))],
			'verified',
		],
		[
			'wire_created, one pending',
			wire,
			[found(tx('t1', 'wired')), found(tx('t2', 'pending')), found(tx('t3', 'wired'))],
			'deliver',
		],
		['wire_created, one unknown', wire, [found(tx('t1', 'wired')), absent, notRead], 'provenFalse'],
		[
			'wire_created, some not read in time',
			wire,
			[found(tx('t1', 'wired')), found(tx('t2', 'wired')), notRead],
			'deliver',
		],
		['wire_created, none read', wire, [failed, failed, notRead], 'retry'],
		[
			'subscription_canceled, canceled',
			canceledSubscription,
			[found({ id: 's-1', status: 'canceled', subject_id: 'p-1' })],
			'verified',
		],
		[
			'subscription_canceled, of another subject',
			canceledSubscription,
			[found({ id: 's-1', status: 'canceled', subject_id: 'p-2' })],
			'provenFalse',
		],
		[
			'subscription_canceled, still active',
			canceledSubscription,
			[found({ id: 's-1', status: 'active', subject_id: 'p-1' })],
			'deliver',
		],
		['subscription_canceled, unknown', canceledSubscription, [absent], 'provenFalse'],
		[
			'subscription_activated, still pending',
			{ type: 'subscription_activated', subscription: { id: 's-1' } },
			[found({ id: 's-1', status: 'pending' })],
			'retry',
		],
		[
			'invoice_paid, paid in the list',
			invoicePaid,
			[
				found([
					{ id: 'i-0', status: 'paid' },
					{ id: 'i-1', status: 'paid', subject_id: 'p-1' },
				]),
			],
			'verified',
		],
		[
			'invoice_paid, not in the list',
			invoicePaid,
			[found([{ id: 'i-0', status: 'paid' }])],
			'deliver',
		],
		['invoice_paid, subscription unknown', invoicePaid, [absent], 'provenFalse'],
		[
			'invoice_paid, by its own ID, unknown (the path may take another ID)',
			{ type: 'invoice_paid', invoice: { id: 'i-1' } },
			[absent],
			'deliver',
		],
		[
			'subject_approved, approved',
			{ type: 'subject_approved', subject_id: 'p-1' },
			[found({ id: 'p-1', status: 'approved' })],
			'verified',
		],
		[
			'subject_approved, a company (unknown to /subject/people)',
			{ type: 'subject_approved', subject_id: 'c-1' },
			[absent],
			'deliver',
		],
		[
			'subject_approved, reproved since',
			{ type: 'subject_approved', subject_id: 'p-1' },
			[found({ id: 'p-1', status: 'reproved' })],
			'deliver',
		],
		[
			'subject_reproved, API down',
			{ type: 'subject_reproved', subject_id: 'p-1' },
			[failed],
			'retry',
		],
		[
			'document_required, any status',
			{ type: 'document_required', subject_id: 'p-1' },
			[found({ id: 'p-1', status: 'approved' })],
			'verified',
		],
		[
			'account_request_status, complete',
			{ type: 'account_request_status', request_id: 'r-1', status: 'complete' },
			[found({ id: 'r-1', status: 'complete' })],
			'verified',
		],
		[
			'account_request_status, still processing',
			{ type: 'account_request_status', request_id: 'r-1', status: 'complete' },
			[found({ id: 'r-1', status: 'processing' })],
			'deliver',
		],
		[
			'account_request_status, unknown',
			{ type: 'account_request_status', request_id: 'r-1', status: 'complete' },
			[absent],
			'provenFalse',
		],
		[
			'a type not documented yet, its transaction unknown',
			{ type: 'pix_qr_ready', transaction_id: 'tx-1' },
			[absent],
			'provenFalse',
		],
		[
			'a type not documented yet, its transaction found',
			{ type: 'pix_qr_ready', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'pending'))],
			'verified',
		],
		[
			'KYC status payload, the API agrees',
			{ kind: 'kycStatus', subject: kycData },
			[found({ ...kycData, email: 'a@b.c' })],
			'verified',
		],
		[
			'KYC status payload, another status at the API',
			{ kind: 'kycStatus', subject: kycData },
			[found({ ...kycData, status: 'reproved' })],
			'retry',
		],
		[
			'KYC status payload, unknown to /subject/people',
			{ kind: 'kycStatus', subject: kycData },
			[absent],
			'retry',
		],
		[
			'KYC status payload, another document number',
			{ kind: 'kycStatus', subject: kycData },
			[found({ ...kycData, document_number: '70590071050' })],
			'provenFalse',
		],
	])('%s: %s', (_name, event, reads, expected) => {
		const received = 'kind' in event ? (event as Received) : signed(event);
		const secret = received.kind === 'kycStatus' ? 'none' : 'right';
		expect(outcomeOf(decideWith({ received, secret }, reads))).toBe(expected);
	});

	it('non_identified_bank_transaction names nothing to read: delivered unverified, no read', () => {
		const decision = decide(
			facts({
				received: signed({
					type: 'non_identified_bank_transaction',
					bank_transaction: { id: 'bt-1', value: '10.00' },
				}),
			}),
		);
		expect(itemOf(decision)).toMatchObject({
			verified: false,
			verification: { summary: expect.stringMatching(/names nothing/) },
		});
	});

	it('an event missing the ID it must carry is proven false without a read', () => {
		const decision = decide(facts({ received: signed({ type: 'identified' }) }));
		expect(decision).toMatchObject({
			kind: 'answer',
			answer: ANSWERS.provenFalse,
			effects: { log: { text: expect.stringMatching(/without transaction_id/) } },
		});
	});

	it('asks for one read per object, through the signed events share of reads', () => {
		const decision = decide(
			facts({
				received: signed({ type: 'wire_created', wire_id: 'w', transaction_ids: ['a', 'b'] }),
			}),
		);
		expect(decision).toMatchObject({
			kind: 'read',
			reads: [
				{ target: 'transaction', id: 'a', index: 0 },
				{ target: 'transaction', id: 'b', index: 1 },
			],
			stopAtAbsent: true,
			stranger: false,
		});
	});

	it('a subject event does not stop at an unknown subject (it may be a company)', () => {
		const decision = decide(
			facts({ received: signed({ type: 'subject_approved', subject_id: 'c' }) }),
		);
		expect(decision).toMatchObject({ kind: 'read', stopAtAbsent: false });
	});
});
