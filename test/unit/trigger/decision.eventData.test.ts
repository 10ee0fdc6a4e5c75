import {
	NOW,
	SECRET,
	absent,
	decideWith,
	found,
	itemOf,
	kycData,
	notRead,
	signed,
	tx,
} from './decisionFacts';

// The decision (nodes/FacilitaPayTrigger/decision.ts): the item keeps the event's own data, with the
// API objects beside it, unlisted fields under unverifiedFields, and never the secret.

describe("the event's own data survives", () => {
	it('subscription_canceled keeps canceled_by_payer and the reason; the API object is added beside it', () => {
		const event = {
			type: 'subscription_canceled',
			subscription: {
				id: 's-1',
				status: 'canceled',
				subject_id: 'p-1',
				canceled_by_payer: true,
				canceled_reason: 'too expensive',
			},
		};
		const api = {
			id: 's-1',
			status: 'canceled',
			subject_id: 'p-1',
			value: '49.90',
			currency: 'BRL',
		};
		const item = itemOf(decideWith({ received: signed(event) }, [found(api)]));
		expect(item).toEqual({
			...event,
			subscriptionFromApi: api,
			verified: true,
			verification: {
				summary: expect.any(String),
				objects: [
					{ object: 'subscription', id: 's-1', found: true, status: 'canceled', confirms: true },
				],
			},
			receivedAt: new Date(NOW).toISOString(),
		});
	});

	it('fields the spec does not list are kept apart under unverifiedFields, nested ones too; the secret never appears', () => {
		const event = {
			type: 'payment_failed',
			transaction_id: 'tx-1',
			failure_reason: 'insufficient_funds',
			value: '9999.00',
		};
		const item = itemOf(decideWith({ received: signed(event) }, [found(tx('tx-1', 'canceled'))]));
		expect(item).toMatchObject({
			type: 'payment_failed',
			transaction_id: 'tx-1',
			transaction: tx('tx-1', 'canceled'),
			unverifiedFields: { failure_reason: 'insufficient_funds', value: '9999.00' },
			verified: true,
		});
		expect(item).not.toHaveProperty('value');
		expect(JSON.stringify(item)).not.toContain(SECRET);

		const nested = itemOf(
			decideWith(
				{
					received: signed({
						type: 'subscription_activated',
						subscription: { id: 's-1', status: 'active', next_charge_at: '2025-07-01' },
					}),
				},
				[found({ id: 's-1', status: 'active' })],
			),
		);
		expect(nested.subscription).toEqual({ id: 's-1', status: 'active' });
		expect(nested.unverifiedFields).toEqual({ subscription: { next_charge_at: '2025-07-01' } });
	});

	it('a wire read partly in time starts the workflow unverified, with the transactions read and null for the rest', () => {
		const item = itemOf(
			decideWith(
				{ received: signed({ type: 'wire_created', wire_id: 'w', transaction_ids: ['t1', 't2'] }) },
				[found(tx('t1', 'wired')), notRead],
			),
		);
		expect(item).toMatchObject({
			transaction_ids: ['t1', 't2'],
			transactions: [tx('t1', 'wired'), null],
			verified: false,
			verification: {
				summary: expect.stringMatching(/1 of 2 objects could not be read in time/),
				objects: [
					{ object: 'transaction', id: 't1', found: true, confirms: true },
					{ object: 'transaction', id: 't2', found: null, confirms: null },
				],
			},
		});
	});

	it('a card payment approved before it is identified starts the workflow, unverified, saying so', () => {
		const item = itemOf(
			decideWith({ received: signed({ type: 'payment_approved', transaction_id: 'tx-1' }) }, [
				found(tx('tx-1', 'pending')),
			]),
		);
		expect(item).toMatchObject({
			transaction: { status: 'pending', value: '150.00' },
			verified: false,
			verification: {
				summary:
					'Not confirmed: transaction tx-1 is still pending at FacilitaPay. Check before acting on money.',
			},
		});
	});

	it('a company subject event starts the workflow unverified, without a subject object', () => {
		const item = itemOf(
			decideWith({ received: signed({ type: 'subject_approved', subject_id: 'c-1' }) }, [absent]),
		);
		expect(item).toMatchObject({ subject_id: 'c-1', verified: false });
		expect(item).not.toHaveProperty('subject');
	});

	it('the KYC status payload, confirmed: what was sent stays under unverifiedFields, the API subject under subject', () => {
		const sent = { ...kycData, extra: 'x' };
		const api = { ...kycData, clearance_level: 2 };
		const item = itemOf(
			decideWith({ received: { kind: 'kycStatus', subject: sent }, secret: 'none' }, [found(api)]),
		);
		expect(item).toMatchObject({
			type: 'kyc_status',
			subject_id: 'sub-1',
			status: 'approved',
			subject: api,
			unverifiedFields: { data: sent },
			verified: true,
		});
	});
});
