// The audit of issue 19 (spec against node), transaction side, and the input and outputs of the
// service that the public documentation shows (CLP without decimals, PIX expiry with milliseconds,
// the void record of Cancel), on n8n's engine against a FacilitaPay scripted by route.
import subjects from '../../../fixtures/subjects.js';
import transactions from '../../../fixtures/transactions.js';
import { skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { dist, fixClock, sent } from './lib.mjs';

const { subjectTransactionsParameters, SUBJECT_ID } = subjects;
const {
	boletoParameters,
	checkoutParameters,
	dynamicPixParameters,
	getTransactionParameters,
	payoutParameters,
} = transactions;
const CREATE = 'POST /transactions';
const CHECKOUT = 'POST /transactions/checkout';

const op = useOperations();
skipRetryWaits();
const setClock = fixClock(undefined);

const pix = dynamicPixParameters;
const payout = (overrides = {}) => payoutParameters('10.00', overrides);
const checkout = (overrides = {}) =>
	checkoutParameters({ currency: 'CLP', value: '15000', ...overrides });
/** A number as n8n hands it to the node: from an expression (a typed field holds text). */
const number = (value) => `={{ ${value} }}`;

describe('Dynamic PIX expiry', () => {
	it('an expiry copied from the docs (with milliseconds) is accepted and sent without them', async () => {
		const at = new Date(Date.now() + 2 * 3600_000);
		const withMs = at.toISOString().replace(/\.\d{3}Z$/, '.074Z');
		const { requests, error } = await op.run({
			parameters: pix({ dynamicPixExpiresAt: withMs }),
			replies: { [CREATE]: { data: { id: 'tx-1' } } },
		});
		expect(error).toBeUndefined();
		expect(sent(requests[0]).dynamic_pix_expires_at).toBe(
			at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
		);
	});

	it('reads the time from the injected clock: the same expiry is sent at 12:00 and refused at 12:01:30', async () => {
		setClock('2030-01-01T12:00:00Z');
		const parameters = pix({ dynamicPixExpiresAt: '2030-01-01T12:02:00Z' });
		const accepted = await op.run({ parameters, replies: { [CREATE]: { data: { id: 'tx-1' } } } });
		expect(accepted.error).toBeUndefined();
		expect(sent(accepted.requests[0]).dynamic_pix_expires_at).toBe('2030-01-01T12:02:00Z');

		setClock('2030-01-01T12:01:30Z');
		const refused = await op.run({ parameters, replies: { [CREATE]: { data: { id: 'tx-2' } } } });
		expect(refused.requests).toHaveLength(0);
		expect(refused.items).toHaveLength(0);
		expect(refused.error.message).toMatch(
			/Invalid Expires At \(item 0\): is only 30 seconds from now/,
		);
	});

	it('the expiry is checked again right before sending: one no longer a minute ahead is not sent', async () => {
		// Two PIX charges sent one at a time; while FacilitaPay answers the first, the clock passes
		// 12:01:10: the second waited its turn and has 50 s left, under the service's minimum.
		setClock('2030-01-01T12:00:00Z');
		const { items, requests } = await op.run({
			parameters: [
				pix({ dynamicPixExpiresAt: '2030-01-01T12:02:00Z', requestOptions: { concurrency: 1 } }),
				pix({
					dynamicPixExpiresAt: '2030-01-01T12:02:00Z',
					value: '151.00',
					requestOptions: { concurrency: 1 },
				}),
			],
			onError: 'continueRegularOutput',
			replies: {
				[CREATE]: () => {
					setClock('2030-01-01T12:01:10Z');
					return { data: { id: 'tx-1' } };
				},
			},
		});
		expect(requests).toHaveLength(1);
		expect(sent(requests[0]).value).toBe('150.00');
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({ id: 'tx-1' });
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(items[1].json.error).toMatch(
			/Invalid Expires At \(item 1\): is only 50 seconds from now/,
		);
		expect(items[1].json.error).toMatch(/waited for its turn/);
		expect(items[1].json.description).toMatch(/Nothing was sent to FacilitaPay for this item/);
	});

	it('without an expiry FacilitaPay chooses it: nothing is checked again before sending', async () => {
		setClock('2030-01-01T12:00:00Z');
		const { items, requests } = await op.run({
			parameters: [
				pix({ dynamicPixExpiresAt: '', requestOptions: { concurrency: 1 } }),
				pix({ dynamicPixExpiresAt: '', value: '151.00', requestOptions: { concurrency: 1 } }),
			],
			onError: 'continueRegularOutput',
			replies: {
				[CREATE]: (request, index) => {
					setClock('2030-01-01T13:00:00Z');
					return { data: { id: `tx-${index + 1}` } };
				},
			},
		});
		expect(requests).toHaveLength(2);
		for (const request of requests)
			expect(sent(request)).not.toHaveProperty('dynamic_pix_expires_at');
		expect(items.map((item) => item.json.id)).toEqual(['tx-1', 'tx-2']);
	});
});

describe('Money whose decimals follow the currency', () => {
	it.each([
		['15000', '15000'],
		[15000, '15000'],
		['15000.00', '15000'],
		[' 015000 ', '15000'],
	])('CLP is sent without decimals: a card checkout of %p sends %p', async (value, expected) => {
		const { requests, error } = await op.run({
			parameters: checkout({ value: typeof value === 'number' ? number(value) : value }),
			replies: { [CHECKOUT]: { data: { id: 'co-1' } } },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', route: CHECKOUT });
		expect(sent(requests[0]).value).toBe(expected);
	});

	it.each([
		['15000.50', /CLP amounts have no decimals/],
		[15000.5, /CLP amounts are whole numbers/],
		['15.000', /no thousands separators.*Write 15000/],
		['0', /is zero/],
	])('a CLP amount of %p is refused before sending', async (value, message) => {
		const { error, requests, items } = await op.run({
			parameters: checkout({ value: typeof value === 'number' ? number(value) : value }),
			replies: { [CHECKOUT]: { data: { id: 'co-1' } } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Value \(item 0\)/);
		expect(error.message).toMatch(message);
	});

	it('other currencies keep their two decimals (a BRL checkout of 15000 is refused with the fix)', async () => {
		const { error, requests } = await op.run({
			parameters: checkout({ currency: 'BRL', value: '15000' }),
			replies: { [CHECKOUT]: { data: { id: 'co-1' } } },
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/write 15000.00/);
	});

	it('a CLP payout is sent without decimals; a stablecoin payout source keeps two', async () => {
		const clp = await op.run({
			parameters: payout({ currency: 'CLP', value: number(250000) }),
			replies: { [CREATE]: { data: { id: 'tx-1' } } },
		});
		expect(clp.error).toBeUndefined();
		expect(sent(clp.requests[0])).toMatchObject({ currency: 'CLP', value: '250000' });
		const usdt = await op.run({
			parameters: payout({ currency: 'usdt', value: number(10.5) }),
			replies: { [CREATE]: { data: { id: 'tx-2' } } },
		});
		expect(usdt.error).toBeUndefined();
		expect(sent(usdt.requests[0])).toMatchObject({ currency: 'USDT', value: '10.50' });
	});
});

describe('Boleto currencies', () => {
	it('the boleto currency lists agree with the sandbox: paid in BRL, settled in BRL, EUR or USD', async () => {
		const { BOLETO_CURRENCIES, SETTLEMENT_CURRENCIES } = dist(
			'nodes/FacilitaPay/schemas/transaction.js',
		);
		expect(BOLETO_CURRENCIES).toEqual(['BRL']);
		expect(SETTLEMENT_CURRENCIES).toEqual(['BRL', 'EUR', 'USD']);
		const { error, requests } = await op.run({
			parameters: boletoParameters({
				value: '80.00',
				currency: 'USD',
				exchangeCurrency: 'MXN',
				expireAt: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
			}),
			replies: { [CREATE]: { data: { id: 'b-1' } } },
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Currency: is USD; only BRL is accepted here/);
		expect(error.message).toMatch(/Exchange Currency: is MXN; use one of BRL, EUR, USD/);
	});
});

describe('Outputs as the service gives them', () => {
	it('Simplify keeps checkout_id, exchange_id and wire_id, which users act on', async () => {
		const { items, requests } = await op.run({
			parameters: getTransactionParameters('tx-1', { simplify: true }),
			replies: {
				'GET /transactions/:id': {
					data: {
						id: 'tx-1',
						status: 'wired',
						checkout_id: 'co-1',
						exchange_id: 'ex-1',
						wire_id: 'wi-1',
						to_bank_account: { id: 'a' },
					},
				},
			},
		});
		expect(requests[0]).toMatchObject({ method: 'GET', params: { id: 'tx-1' } });
		expect(items[0].json).toMatchObject({
			checkout_id: 'co-1',
			exchange_id: 'ex-1',
			wire_id: 'wi-1',
		});
		expect(items[0].json.to_bank_account).toBeUndefined();
	});

	it('Subject Get Transactions with Simplify keeps them too', async () => {
		const { items, requests } = await op.run({
			parameters: subjectTransactionsParameters(),
			replies: {
				'GET /subject/:id/transactions': [
					{ data: [{ id: 'tx-1', wire_id: 'wi-1', exchange_id: 'ex-1' }] },
					{ data: [] },
				],
			},
		});
		expect(requests[0]).toMatchObject({ method: 'GET', params: { id: SUBJECT_ID } });
		expect(items.map((item) => item.json)).toEqual([
			{ id: 'tx-1', wire_id: 'wi-1', exchange_id: 'ex-1' },
		]);
	});

	it('Cancel outputs the void record as the service answers it, with the transaction it concerns', async () => {
		const voidRecord = {
			id: 'void-1',
			reason: 'canceled_by_partner',
			inserted_at: '2026-01-01T10:00:00Z',
			status: 'canceled',
			transaction_kind: 'payment',
			bank_transaction: { id: 'bt-1', value: '10.00', wire_id: null, exchange_id: null },
		};
		const { items } = await op.run({
			parameters: { resource: 'transaction', operation: 'cancel', transactionId: 'tx-7' },
			replies: { 'GET /transactions/:id/refund': { data: voidRecord } },
		});
		expect(items).toEqual([
			{ json: { ...voidRecord, transaction_id: 'tx-7' }, pairedItem: { item: 0 } },
		]);
	});

	it('Refund outputs the refund record (its id is the Refund ID of Get Refund) with the transaction ID', async () => {
		const { items } = await op.run({
			parameters: { resource: 'transaction', operation: 'refund', transactionId: 'tx-7' },
			replies: {
				'GET /transactions/:id/refund_received_transaction': {
					data: { id: 'refund-1', status: 'pending' },
				},
			},
		});
		expect(items[0].json).toEqual({ id: 'refund-1', status: 'pending', transaction_id: 'tx-7' });
	});
});
