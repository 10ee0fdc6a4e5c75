import { requestDigest } from '../../../nodes/FacilitaPay/transport/requestDigest';

// The ledger knows a money request again by this digest: a retry computes expiry and due dates
// anew, so they must not make the same payment look new, while any money field must.
const payout = {
	method: 'POST' as const,
	path: '/transactions',
	body: {
		transaction: {
			value: '100.00',
			currency: 'BRL',
			subject_id: 's-1',
			dynamic_pix_expires_at: '2030-01-01T10:00:00Z',
			due_date: '2030-01-02',
		},
	},
};

it('is the same when only clock fields differ', () => {
	const later = {
		...payout,
		body: {
			transaction: {
				...payout.body.transaction,
				dynamic_pix_expires_at: '2030-01-01T11:30:00Z',
				due_date: '2030-01-03',
			},
		},
	};
	expect(requestDigest(later)).toBe(requestDigest(payout));
});

it('does not depend on the order of the fields', () => {
	const reordered = {
		...payout,
		body: { transaction: { currency: 'BRL', subject_id: 's-1', value: '100.00' } },
	};
	expect(requestDigest(reordered)).toBe(requestDigest(payout));
});

it.each([
	['value', { value: '100.01' }],
	['currency', { currency: 'USD' }],
	['subject', { subject_id: 's-2' }],
])('differs when the %s differs', (_field, change) => {
	const other = { ...payout, body: { transaction: { ...payout.body.transaction, ...change } } };
	expect(requestDigest(other)).not.toBe(requestDigest(payout));
});

it('differs by path and method', () => {
	expect(requestDigest({ ...payout, path: '/subscriptions' })).not.toBe(requestDigest(payout));
	expect(requestDigest({ ...payout, method: 'PUT' })).not.toBe(requestDigest(payout));
});
