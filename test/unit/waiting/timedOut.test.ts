import type { WaitedItem } from '../../../nodes/FacilitaPay/actions/transaction/waitForPayment.operation';
import {
	checkedAtLimit,
	timeResumeItems,
} from '../../../nodes/FacilitaPay/actions/transaction/waitForPayment.operation';

// The two Timed Out shapes a user can receive (docs/waiting.md "Timed Out: two cases").
const open = (id: string, item: number, extra = {}): WaitedItem => ({
	json: {
		outcome: 'timedOut',
		decidedBy: 'limit',
		transactionId: id,
		checkout: false,
		transaction: { id, status: 'pending' },
		record: null,
		limit: '2026-12-04T23:00:00.000Z',
		...extra,
	},
	pairedItem: { item },
});

describe('Timed Out confirmed by the waiter’s last read at the limit', () => {
	it('says FacilitaPay was read at the limit (still open) and how to check later', () => {
		const json = checkedAtLimit(open('tx-1', 0).json);
		expect(json).toMatchObject({
			outcome: 'timedOut',
			decidedBy: 'limit',
			checkedAtLimit: true,
			transactionId: 'tx-1',
		});
		expect(json.howToCheck).toContain('Transaction > Get with ID tx-1');
	});

	it('leaves a decided item as it is', () => {
		const paid = { ...open('tx-2', 0).json, outcome: 'paid', decidedBy: 'status' };
		expect(checkedAtLimit(paid)).toEqual(paid);
	});
});

describe('Timed Out sent by n8n’s own time resume (no waiter, no last read)', () => {
	const items = timeResumeItems([
		open('tx-open', 2),
		{
			...open('tx-paid', 0),
			json: { ...open('tx-paid', 0).json, outcome: 'paid', decidedBy: 'status' },
		},
		{
			...open('tx-gone', 1),
			json: {
				...open('tx-gone', 1).json,
				outcome: 'notPaid',
				reason: 'expired',
				decidedBy: 'status',
			},
		},
	]);

	it('keeps every item in input order (pairedItem = position) and the paid one as it is', () => {
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json).toMatchObject({ outcome: 'paid', transactionId: 'tx-paid' });
	});

	it('an open one: an error item (exactly error + message) saying FacilitaPay was not read at the limit and how to check', () => {
		const { json } = items[2];
		expect(Object.keys(json).sort()).toEqual(['error', 'message']);
		expect(json.message).toContain(
			'FacilitaPay was not read at the limit: the outcome of charge tx-open is unknown',
		);
		expect(json.error).toMatchObject({
			outcome: 'timedOut',
			decidedBy: 'limit',
			checkedAtLimit: false,
			transactionId: 'tx-open',
			howToCheck: expect.stringContaining('Transaction > Get with ID tx-open'),
		});
	});

	it('one Not Paid when the wait began: also on Timed Out (n8n forwards no other output), saying so', () => {
		const { json } = items[1];
		expect(json.message).toContain('Charge tx-gone was Not Paid (expired) when the wait began');
		expect(json.error).toMatchObject({ outcomeWhenWaitBegan: 'notPaid', checkedAtLimit: false });
	});
});
