import type { LogRecord } from '../../../nodes/FacilitaPay/waiting';
import {
	decide,
	namesCheckout,
	recordDecision,
	statusDecision,
} from '../../../nodes/FacilitaPay/waiting';
import { reasonOfCancel } from '../../../nodes/FacilitaPay/waiting/decide';

const TX = 'tx-1';
const CHECKOUT = 'co-1';

function record(
	type: string,
	fields: Record<string, unknown> = { transaction_id: TX },
	id = `r-${type}`,
): LogRecord {
	return { id, notification: { type, ...fields } };
}

describe('which status decides a waited charge', () => {
	test.each([
		['identified', 'paid'],
		['exchanged', 'paid'],
		['wired', 'paid'],
		['canceled', 'notPaid'],
	])('status %s → %s', (status, outcome) => {
		expect(statusDecision({ status })?.outcome).toBe(outcome);
	});

	test.each([['pending'], [''], ['sent'], ['waiting_correction']])(
		'status "%s" decides nothing (the charge is still open or unknown)',
		(status) => {
			expect(statusDecision({ status })).toBeUndefined();
		},
	);

	test.each([
		['payment_expired', 'expired'],
		['dynamic pix expired', 'expired'],
		['card_declined', 'failed'],
		['payment failed', 'failed'],
		['refunded_to_payer', 'refunded'],
		['by partner', 'canceled'],
		[undefined, 'canceled'],
	])('canceled with canceled_reason %s → reason %s', (canceledReason, reason) => {
		expect(reasonOfCancel(canceledReason)).toBe(reason);
		const d = statusDecision({ status: 'canceled', canceled_reason: canceledReason });
		expect(d).toMatchObject({ outcome: 'notPaid', reason, decidedBy: 'status' });
	});
});

describe('which log record decides a waited charge', () => {
	test.each([
		['identified', 'paid', undefined],
		['payment_approved', 'paid', undefined],
		['payment_expired', 'notPaid', 'expired'],
		['payment_failed', 'notPaid', 'failed'],
		['payment_refunded', 'notPaid', 'refunded'],
	])('%s naming the transaction → %s %s', (type, outcome, reason) => {
		const d = recordDecision(record(type), TX, 'transaction');
		expect(d?.outcome).toBe(outcome);
		expect(d?.reason).toBe(reason);
		expect(d?.decidedBy).toBe('record');
	});

	test.each([['exchange_created'], ['wire_created'], ['subject_approved'], ['invoice_paid']])(
		'%s decides nothing',
		(type) => {
			expect(recordDecision(record(type), TX, 'transaction')).toBeUndefined();
		},
	);

	test('a record of another transaction decides nothing', () => {
		expect(
			recordDecision(record('identified', { transaction_id: 'tx-2' }), TX, 'transaction'),
		).toBeUndefined();
	});

	test('a checkout: a failed attempt decides nothing (the page stays active), an approval naming it pays', () => {
		const failed = record('payment_failed', { transaction_id: 'attempt-1', checkout_id: CHECKOUT });
		const approved = record('payment_approved', {
			transaction_id: 'attempt-2',
			checkout_id: CHECKOUT,
		});
		expect(recordDecision(failed, CHECKOUT, 'checkout')).toBeUndefined();
		expect(recordDecision(approved, CHECKOUT, 'checkout')?.outcome).toBe('paid');
		// an approval of another checkout, or naming the checkout only by transaction_id, does not
		expect(
			recordDecision(
				record('payment_approved', { transaction_id: CHECKOUT }),
				CHECKOUT,
				'checkout',
			),
		).toBeUndefined();
		expect(
			recordDecision(
				record('payment_approved', { transaction_id: 'x', checkout_id: 'co-2' }),
				CHECKOUT,
				'checkout',
			),
		).toBeUndefined();
	});
});

describe('the decision from both', () => {
	test('paid status: Paid, with the identified record that says so when one is known', () => {
		const d = decide({ status: 'identified' }, [record('identified')], TX, 'transaction');
		expect(d).toMatchObject({ outcome: 'paid', decidedBy: 'status' });
		expect(d?.record?.id).toBe('r-identified');
	});

	test('a refund record wins over a paid status (the money went back)', () => {
		const d = decide(
			{ status: 'identified' },
			[record('identified'), record('payment_refunded')],
			TX,
			'transaction',
		);
		expect(d).toMatchObject({ outcome: 'notPaid', reason: 'refunded', decidedBy: 'record' });
	});

	test('pending with payment_approved (card identified later): Paid by the record', () => {
		expect(
			decide({ status: 'pending' }, [record('payment_approved')], TX, 'transaction'),
		).toMatchObject({
			outcome: 'paid',
			decidedBy: 'record',
		});
	});

	test('pending with no record: undecided', () => {
		expect(decide({ status: 'pending' }, [], TX, 'transaction')).toBeUndefined();
		expect(
			decide(
				{ status: 'pending' },
				[record('identified', { transaction_id: 'other' })],
				TX,
				'transaction',
			),
		).toBeUndefined();
	});

	test('canceled: Not Paid with the reason, with the expiry record when known', () => {
		const d = decide(
			{ status: 'canceled', canceled_reason: 'payment_expired' },
			[record('payment_expired')],
			TX,
			'transaction',
		);
		expect(d).toMatchObject({ outcome: 'notPaid', reason: 'expired', detail: 'payment_expired' });
		expect(d?.record?.id).toBe('r-payment_expired');
	});
});

describe('an ID FacilitaPay does not show yet (404: a checkout, or read-after-write lag)', () => {
	test('a record naming it as a transaction decides it as one (an expiry too)', () => {
		expect(recordDecision(record('identified'), TX, 'unknown')?.outcome).toBe('paid');
		expect(recordDecision(record('payment_expired'), TX, 'unknown')).toMatchObject({
			outcome: 'notPaid',
			reason: 'expired',
		});
	});

	test('a record naming it as a checkout decides it as one: an approval pays, a failed attempt decides nothing', () => {
		const approved = record('payment_approved', { transaction_id: 'a-2', checkout_id: CHECKOUT });
		const failed = record('payment_failed', { transaction_id: 'a-1', checkout_id: CHECKOUT });
		expect(recordDecision(approved, CHECKOUT, 'unknown')?.outcome).toBe('paid');
		expect(recordDecision(failed, CHECKOUT, 'unknown')).toBeUndefined();
		expect(namesCheckout(approved, CHECKOUT)).toBe(true);
		expect(namesCheckout(record('identified'), TX)).toBe(false);
	});

	test('no transaction read and no record: undecided (never "a checkout" for good, never Not Paid)', () => {
		expect(decide(undefined, [], TX, 'unknown')).toBeUndefined();
	});
});
