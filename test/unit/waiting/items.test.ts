import type { WaitedItem } from '../../../nodes/FacilitaPay/waiting';
import {
	decidedJson,
	paidOnRecord,
	route,
	timedOutJson,
} from '../../../nodes/FacilitaPay/actions/transaction/waitForPayment.items';

// What Wait for Payment puts out: every item on its output, in input order, paired with its item;
// Paid only with FacilitaPay's record; Timed Out says whether FacilitaPay was read at the limit.
const LIMIT = Date.parse('2026-12-04T23:00:00Z');
const open = (id: string, i: number, extra: Partial<WaitedItem> = {}): WaitedItem => ({
	i,
	id,
	kind: 'transaction',
	limitAt: LIMIT,
	transaction: { id, status: 'pending' },
	...extra,
});
const paid = (id: string, i: number): WaitedItem => {
	const item = open(id, i, { transaction: { id, status: 'identified' } });
	return {
		...item,
		decided: decidedJson(
			item,
			{ id, status: 'identified' },
			{ outcome: 'paid', decidedBy: 'status' },
		),
	};
};

describe('route: the outputs a user reads', () => {
	it('Paid, Not Paid and Timed Out in input order, each paired with its own input item', () => {
		const expired = open('tx-exp', 1);
		expired.decided = decidedJson(
			expired,
			{ id: 'tx-exp', status: 'canceled' },
			{ outcome: 'notPaid', reason: 'expired', decidedBy: 'status', detail: 'payment_expired' },
		);
		const outputs = route([open('tx-open', 2), expired, paid('tx-paid', 0), paid('tx-p2', 3)]);
		expect(outputs[0].map((o) => [o.json.transactionId, o.pairedItem])).toEqual([
			['tx-paid', { item: 0 }],
			['tx-p2', { item: 3 }],
		]);
		expect(outputs[1]).toEqual([
			{
				json: expect.objectContaining({
					outcome: 'notPaid',
					reason: 'expired',
					reasonDetail: 'payment_expired',
				}),
				pairedItem: { item: 1 },
			},
		]);
		expect(outputs[2]).toEqual([
			{
				json: expect.objectContaining({
					outcome: 'timedOut',
					transactionId: 'tx-open',
					checkedAtLimit: true,
				}),
				pairedItem: { item: 2 },
			},
		]);
	});

	it('an item marked paid without FacilitaPay’s record (a pending transaction, no record) goes to Timed Out, never Paid', () => {
		const forged = open('tx-1', 0);
		forged.decided = {
			...decidedJson(
				forged,
				{ id: 'tx-1', status: 'pending' },
				{ outcome: 'paid', decidedBy: 'status' },
			),
		};
		const outputs = route([forged]);
		expect(outputs[0]).toEqual([]);
		expect(outputs[2][0].json).toMatchObject({ outcome: 'timedOut', transactionId: 'tx-1' });
	});

	it.each([
		[{ transaction: { status: 'identified' }, record: null }, true],
		[{ transaction: { status: 'wired' }, record: null }, true],
		[
			{
				transaction: { status: 'pending' },
				record: { notification: { type: 'payment_approved' } },
			},
			true,
		],
		[
			{ transaction: { status: 'pending' }, record: { notification: { type: 'payment_failed' } } },
			false,
		],
		[{ transaction: null, record: null }, false],
		[{ transaction: { status: 'canceled' }, record: null }, false],
	])('paid on FacilitaPay’s record? %j → %s', (json, expected) => {
		expect(paidOnRecord(json)).toBe(expected);
	});
});

describe('Timed Out', () => {
	it('read at the limit: checkedAtLimit, how to check, no error', () => {
		const json = timedOutJson(open('tx-1', 0));
		expect(json).toMatchObject({
			outcome: 'timedOut',
			decidedBy: 'limit',
			checkedAtLimit: true,
			transactionId: 'tx-1',
			transaction: { id: 'tx-1', status: 'pending' },
			limit: '2026-12-04T23:00:00.000Z',
		});
		expect(json.howToCheck).toContain('Transaction > Get with ID tx-1');
		expect(json).not.toHaveProperty('error');
	});

	it('the last read failed: checkedAtLimit false and the error says the outcome is unknown', () => {
		const json = timedOutJson(open('tx-1', 0, { error: 'Service unavailable (503)' }));
		expect(json.checkedAtLimit).toBe(false);
		expect(json.error).toContain('could not be read at the limit (Service unavailable (503))');
		expect(json.error).toContain('outcome of charge tx-1 is unknown');
	});

	it('a checkout: how to check names the checkout', () => {
		expect(timedOutJson(open('co-1', 0, { kind: 'checkout' })).howToCheck).toContain(
			'Get Checkout (or Find) with ID co-1',
		);
	});
});
