// The Schedule rule 2 of subscriptions (retries after a failed charge, exhaustion) and which
// attempts charge, called on their own (no HTTP, no clock).
import {
	afterFailedCharge,
	attemptCharges,
	isLastCycle,
	retryTime,
} from '../../../sandbox/domain/subscriptions/schedule.mjs';

const at = (iso) => Date.parse(iso);
const failedCharges = (count) => Array.from({ length: count }, () => ({ status: 'failed' }));

describe('rule 2: retry spacing after a failed charge', () => {
	test.each([
		['day', 'card', '2025-03-10T06:00:00Z', '2025-03-10T10:00:00.000Z'],
		['day', 'card', '2025-03-10T22:00:00Z', '2025-03-11T02:00:00.000Z'],
		['week', 'card', '2025-03-10T06:00:00Z', '2025-03-11T06:00:00.000Z'],
		['month', 'card', '2025-03-10T06:00:00Z', '2025-03-11T06:00:00.000Z'],
		['month', 'card', '2025-03-10T23:59:59Z', '2025-03-11T06:00:00.000Z'],
		['year', 'card', '2025-12-31T06:00:00Z', '2026-01-01T06:00:00.000Z'],
		['week', 'automatic_pix', '2025-03-10T06:00:00Z', '2025-03-12T06:00:00.000Z'],
		['month', 'automatic_pix', '2025-02-27T06:00:00Z', '2025-03-01T06:00:00.000Z'],
		['quarter', 'automatic_pix', '2024-02-28T06:00:00Z', '2024-03-01T06:00:00.000Z'],
	])('frequency %s, %s, failed at %s → retried at %s', (frequency, method, failedAt, expected) => {
		const sub = { frequency, payment_method: method };
		expect(new Date(retryTime(sub, at(failedAt))).toISOString()).toBe(expected);
	});

	const active = {
		status: 'active',
		frequency: 'month',
		payment_method: 'card',
		total_retry_attempts: 2,
	};
	const now = at('2025-04-10T06:00:00Z');

	test('the first invoice of a pending card subscription is not retried: it waits for a new card', () => {
		const pending = { ...active, status: 'pending' };
		expect(afterFailedCharge(pending, { cycle: 1, charges: failedCharges(1) }, now)).toEqual({
			action: 'wait_for_card',
		});
	});

	test('the first invoice of an active (authorised automatic PIX) subscription is never retried: its failure cancels', () => {
		const pix = { ...active, payment_method: 'automatic_pix' };
		expect(afterFailedCharge(pix, { cycle: 1, charges: failedCharges(1) }, now)).toEqual({
			action: 'cancel',
		});
	});

	test.each([
		[0, 1, 'cancel'],
		[1, 1, 'retry'],
		[1, 2, 'cancel'],
		[2, 1, 'retry'],
		[2, 2, 'retry'],
		[2, 3, 'cancel'],
		[3, 3, 'retry'],
		[3, 4, 'cancel'],
	])(
		'total_retry_attempts %i, %i failed charge(s) on a later invoice → %s',
		(retries, failures, action) => {
			const sub = { ...active, total_retry_attempts: retries };
			const next = afterFailedCharge(sub, { cycle: 2, charges: failedCharges(failures) }, now);
			expect(next.action).toBe(action);
			if (action === 'retry') expect(next.at).toBe(at('2025-04-11T06:00:00Z'));
		},
	);

	test('succeeded charges do not count towards the retries', () => {
		const charges = [{ status: 'succeeded' }, ...failedCharges(1)];
		const sub = { ...active, total_retry_attempts: 1 };
		expect(afterFailedCharge(sub, { cycle: 3, charges }, now).action).toBe('retry');
	});
});

describe('which attempts charge, and when a subscription completes', () => {
	const sub = { status: 'active', payment_method: 'card' };
	const pending = { status: 'pending' };

	test.each([
		['an active card subscription, pending invoice', sub, pending, true],
		['a pending card subscription (first charge)', { ...sub, status: 'pending' }, pending, true],
		['a canceled subscription', { ...sub, status: 'canceled' }, pending, false],
		['a completed subscription', { ...sub, status: 'completed' }, pending, false],
		['an invoice already paid', sub, { status: 'paid' }, false],
		['an invoice canceled', sub, { status: 'canceled' }, false],
		[
			'automatic PIX not authorised yet',
			{ ...sub, payment_method: 'automatic_pix', from_pix: { status: 'waiting_authorization' } },
			pending,
			false,
		],
		[
			'automatic PIX authorised',
			{ ...sub, payment_method: 'automatic_pix', from_pix: { status: 'authorized' } },
			pending,
			true,
		],
	])('%s → charges: %s', (_case, subscription, invoice, expected) => {
		expect(attemptCharges(subscription, invoice)).toBe(expected);
	});

	test.each([
		[1, 3, false],
		[2, 3, false],
		[3, 3, true],
		[1, 1, true],
	])('invoice of cycle %i of %i is the last: %s', (cycle, cycles, expected) => {
		expect(isLastCycle({ cycles }, { cycle })).toBe(expected);
	});
});
