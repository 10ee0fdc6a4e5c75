// The audit of issue 19 (spec against node), transaction side, and the input and outputs of the
// service that the public documentation shows (CLP without decimals, PIX expiry with milliseconds,
// the void record of Cancel).
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { clock } from '../../../../nodes/FacilitaPay/clock';
import { prepare as prepareDynamicPix } from '../../../../nodes/FacilitaPay/actions/transaction/createDynamicPix.operation';
import {
	BOLETO_CURRENCIES,
	SETTLEMENT_CURRENCIES,
} from '../../../../nodes/FacilitaPay/schemas/transaction';
import { createContext, runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { skipRetryWaits } from '../../helpers/retryWaits';
import { subjectTransactionsParameters } from '../../../fixtures/subjects';
import {
	boletoParameters,
	checkoutParameters,
	dynamicPixParameters,
	getTransactionParameters,
	payoutParameters,
} from '../../../fixtures/transactions';

skipRetryWaits();

const sent = (request: { body?: unknown }) =>
	((request.body as IDataObject).transaction ?? request.body) as IDataObject;

const pix = dynamicPixParameters;
const payout = (overrides: IDataObject = {}) => payoutParameters('10.00', overrides);
const checkout = (overrides: IDataObject = {}) =>
	checkoutParameters({ currency: 'CLP', value: '15000', ...overrides });

describe('Dynamic PIX expiry', () => {
	it('an expiry copied from the docs (with milliseconds) is accepted and sent without them', async () => {
		const at = new Date(Date.now() + 2 * 3600_000);
		const withMs = at.toISOString().replace(/\.\d{3}Z$/, '.074Z');
		const { requests } = await runNode({
			parameters: pix({ dynamicPixExpiresAt: withMs }),
			replies: [{ data: { id: 'tx-1' } }],
		});
		expect(sent(requests[0]).dynamic_pix_expires_at).toBe(
			at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
		);
	});

	it('reads the time from the injected clock: the same expiry is sent at 12:00 and refused at 12:01:30', async () => {
		const now = jest.spyOn(clock, 'now').mockReturnValue(new Date('2030-01-01T12:00:00Z'));
		const parameters = pix({ dynamicPixExpiresAt: '2030-01-01T12:02:00Z' });
		const accepted = await runNode({ parameters, replies: [{ data: { id: 'tx-1' } }] });
		expect(sent(accepted.requests[0]).dynamic_pix_expires_at).toBe('2030-01-01T12:02:00Z');

		now.mockReturnValue(new Date('2030-01-01T12:01:30Z'));
		const refused = await runNodeExpectingError({
			parameters,
			replies: [{ data: { id: 'tx-2' } }],
		});
		expect(refused.requests).toHaveLength(0);
		expect(refused.error.message).toMatch(
			/Invalid Expires At \(item 0\): is only 30 seconds from now/,
		);
	});

	it('the expiry is checked again right before sending: one no longer a minute ahead is not sent', async () => {
		const now = jest.spyOn(clock, 'now').mockReturnValue(new Date('2030-01-01T12:00:00Z'));
		const { ctx } = createContext({
			parameters: pix({ dynamicPixExpiresAt: '2030-01-01T12:02:00Z' }),
		});
		const work = await prepareDynamicPix.call(ctx, 0);
		expect(work.beforeSend).toBeDefined();
		// Still more than a minute ahead: nothing to say.
		now.mockReturnValue(new Date('2030-01-01T12:00:30Z'));
		expect(() => work.beforeSend!.call(ctx)).not.toThrow();
		// The item waited its turn: 12:01:10 leaves 50 s, under the service's minimum.
		now.mockReturnValue(new Date('2030-01-01T12:01:10Z'));
		let thrown: (Error & { description?: string; context?: IDataObject }) | undefined;
		try {
			work.beforeSend!.call(ctx);
		} catch (error) {
			thrown = error as Error & { description?: string };
		}
		expect(thrown?.message).toMatch(/Invalid Expires At \(item 0\): is only 50 seconds from now/);
		expect(thrown?.message).toMatch(/waited for its turn/);
		expect(thrown?.description).toMatch(/Nothing was sent to FacilitaPay for this item/);
	});

	it('prepare, called once per item for a PIX (only big requests are prepared again), leaves the re-check to beforeSend', async () => {
		const { ctx } = createContext({ parameters: pix({ dynamicPixExpiresAt: '' }) });
		const work = await prepareDynamicPix.call(ctx as IExecuteFunctions, 0);
		// No expiry given: FacilitaPay chooses it, nothing to check again.
		expect(work.beforeSend).toBeUndefined();
	});
});

describe('Money whose decimals follow the currency', () => {
	it.each<[string | number, string]>([
		['15000', '15000'],
		[15000, '15000'],
		['15000.00', '15000'],
		[' 015000 ', '15000'],
	])('CLP is sent without decimals: a card checkout of %p sends %p', async (value, expected) => {
		const { requests } = await runNode({
			parameters: checkout({ value }),
			replies: [{ data: { id: 'co-1' } }],
		});
		expect(sent(requests[0]).value).toBe(expected);
	});

	it.each<[string | number, RegExp]>([
		['15000.50', /CLP amounts have no decimals/],
		[15000.5, /CLP amounts are whole numbers/],
		['15.000', /no thousands separators.*Write 15000/],
		['0', /is zero/],
	])('a CLP amount of %p is refused before sending', async (value, message) => {
		const { error, requests } = await runNodeExpectingError({
			parameters: checkout({ value }),
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Value \(item 0\)/);
		expect(error.message).toMatch(message);
	});

	it('other currencies keep their two decimals (a BRL checkout of 15000 is refused with the fix)', async () => {
		const { error } = await runNodeExpectingError({
			parameters: checkout({ currency: 'BRL', value: '15000' }),
		});
		expect(error.message).toMatch(/write 15000.00/);
	});

	it('a CLP payout is sent without decimals; a stablecoin payout source keeps two', async () => {
		const clp = await runNode({
			parameters: payout({ currency: 'CLP', value: 250000 }),
			replies: [{ data: { id: 'tx-1' } }],
		});
		expect(sent(clp.requests[0])).toMatchObject({ currency: 'CLP', value: '250000' });
		const usdt = await runNode({
			parameters: payout({ currency: 'usdt', value: 10.5 }),
			replies: [{ data: { id: 'tx-2' } }],
		});
		expect(sent(usdt.requests[0])).toMatchObject({ currency: 'USDT', value: '10.50' });
	});
});

describe('Boleto currencies', () => {
	it('the boleto currency lists agree with the sandbox: paid in BRL, settled in BRL, EUR or USD', async () => {
		expect(BOLETO_CURRENCIES).toEqual(['BRL']);
		expect(SETTLEMENT_CURRENCIES).toEqual(['BRL', 'EUR', 'USD']);
		const { error, requests } = await runNodeExpectingError({
			parameters: boletoParameters({
				value: '80.00',
				currency: 'USD',
				exchangeCurrency: 'MXN',
				expireAt: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
			}),
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Currency: is USD; only BRL is accepted here/);
		expect(error.message).toMatch(/Exchange Currency: is MXN; use one of BRL, EUR, USD/);
	});
});

describe('Outputs as the service gives them', () => {
	it('Simplify keeps checkout_id, exchange_id and wire_id, which users act on', async () => {
		const { output } = await runNode({
			parameters: getTransactionParameters('tx-1', { simplify: true }),
			replies: [
				{
					data: {
						id: 'tx-1',
						status: 'wired',
						checkout_id: 'co-1',
						exchange_id: 'ex-1',
						wire_id: 'wi-1',
						to_bank_account: { id: 'a' },
					},
				},
			],
		});
		expect(output[0].json).toMatchObject({
			checkout_id: 'co-1',
			exchange_id: 'ex-1',
			wire_id: 'wi-1',
		});
		expect(output[0].json.to_bank_account).toBeUndefined();
	});

	it('Subject Get Transactions with Simplify keeps them too', async () => {
		const { output } = await runNode({
			parameters: subjectTransactionsParameters(),
			replies: [{ data: [{ id: 'tx-1', wire_id: 'wi-1', exchange_id: 'ex-1' }] }],
		});
		expect(output[0].json).toEqual({ id: 'tx-1', wire_id: 'wi-1', exchange_id: 'ex-1' });
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
		const { output } = await runNode({
			parameters: { resource: 'transaction', operation: 'cancel', transactionId: 'tx-7' },
			replies: [{ data: voidRecord }],
		});
		expect(output).toEqual([
			{ json: { ...voidRecord, transaction_id: 'tx-7' }, pairedItem: { item: 0 } },
		]);
	});

	it('Refund outputs the refund record (its id is the Refund ID of Get Refund) with the transaction ID', async () => {
		const { output } = await runNode({
			parameters: { resource: 'transaction', operation: 'refund', transactionId: 'tx-7' },
			replies: [{ data: { id: 'refund-1', status: 'pending' } }],
		});
		expect(output[0].json).toEqual({ id: 'refund-1', status: 'pending', transaction_id: 'tx-7' });
	});
});
