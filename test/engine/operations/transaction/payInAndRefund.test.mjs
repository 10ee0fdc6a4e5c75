// Transaction > Create Local Pay-In and Get Refund on n8n's engine, against a FacilitaPay scripted
// by route.
import subjects from '../../../fixtures/subjects.js';
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { expectTransactionSent, IDENTITY, MXN_CASH_IN, MXN_REAL, payIn, sent } from './lib.mjs';

const { SUBJECT_ID } = subjects;
const CREATE = 'POST /transactions';
const REFUND = 'GET /transactions/:id/refund_received_transaction/:refundId';

const op = useOperations();
skipRetryWaits();

/** Create Local Pay-In answered by FacilitaPay with a pending transaction 'tx-1' holding `data`. */
const runPayIn = (data) =>
	op.run({
		parameters: payIn(),
		replies: { [CREATE]: { data: { id: 'tx-1', status: 'pending', ...data } } },
	});

describe('Transaction > Create Local Pay-In', () => {
	it('Mexico: sends POST /transactions and outputs the dynamic CLABE of payment_info', async () => {
		const { items, requests, error } = await runPayIn({
			value: '1500.00',
			payment_info: { dynamic_clabe: '646180110400000007' },
		});
		expect(requests).toHaveLength(1);
		expectTransactionSent(
			{ error, requests },
			{
				from_bank_account_id: MXN_REAL,
				to_bank_account_id: MXN_CASH_IN,
				currency: 'MXN',
				exchange_currency: 'MXN',
				value: '1500.00',
			},
		);
		expect(items[0].json).toMatchObject({
			id: 'tx-1',
			dynamic_clabe: '646180110400000007',
			payment_info: { dynamic_clabe: '646180110400000007' },
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('Mexico: the dynamic CLABE comes with its validity, 30 days from FacilitaPay’s own timestamp (microseconds, no zone)', async () => {
		const { items } = await runPayIn({
			inserted_at: '2025-07-09T13:51:30.989491',
			payment_info: { dynamic_clabe: '646180110400000007' },
		});
		expect(items[0].json).toMatchObject({
			dynamic_clabe: '646180110400000007',
			dynamic_clabe_valid_until: '2025-08-08T13:51:30Z',
		});
	});

	it('Chile: a CLP value is sent without decimals, exchanged to USD', async () => {
		const { requests } = await op.run({
			parameters: payIn({ currency: 'CLP', exchangeCurrency: 'USD', value: '15000.00' }),
			replies: { [CREATE]: { data: { id: 'tx-2' } } },
		});
		expect(sent(requests[0])).toMatchObject({
			currency: 'CLP',
			exchange_currency: 'USD',
			value: '15000',
		});
	});

	it('Colombia (PSE): the extra fields whose names are not published are sent as given', async () => {
		const { requests } = await op.run({
			parameters: payIn({
				currency: 'COP',
				exchangeCurrency: 'USD',
				value: 50000,
				additionalFields: {
					extraFields: '{"pse_bank_code": "1007", "redirect_url": "https://shop.example/back"}',
				},
			}),
			replies: { [CREATE]: { data: { id: 'tx-3' } } },
		});
		expect(sent(requests[0])).toEqual({
			meta: IDENTITY,
			pse_bank_code: '1007',
			redirect_url: 'https://shop.example/back',
			subject_id: SUBJECT_ID,
			from_bank_account_id: MXN_REAL,
			to_bank_account_id: MXN_CASH_IN,
			currency: 'COP',
			exchange_currency: 'USD',
			value: '50000.00',
		});
	});

	it('stablecoins: USDT paid in, exchanged to USDC', async () => {
		// Two decimals, as for USD: "250.5" shows the fix instead of being guessed.
		const refused = await op.run({
			parameters: payIn({ currency: 'USDT', exchangeCurrency: 'USDC', value: '250.5' }),
			replies: { [CREATE]: { data: { id: 'tx-4' } } },
		});
		expect(refused.requests).toHaveLength(0);
		expect(refused.error.message).toMatch(/write 250.50/);
		const ok = await op.run({
			parameters: payIn({ currency: 'USDT', exchangeCurrency: 'USDC', value: '250.50' }),
			replies: { [CREATE]: { data: { id: 'tx-4' } } },
		});
		expect(ok.error).toBeUndefined();
		expect(sent(ok.requests[0])).toMatchObject({
			currency: 'USDT',
			exchange_currency: 'USDC',
			value: '250.50',
		});
	});

	it.each([
		['BRL (Brazil has PIX and boleto)', { currency: 'BRL' }, /Invalid Currency \(item 0\): is BRL/],
		[
			'a CLP value with cents',
			{ currency: 'CLP', value: '15000.50' },
			/Invalid Value.*no decimals/,
		],
		[
			'extra fields that replace the checked ones',
			{ additionalFields: { extraFields: '{"value": "1.00"}' } },
			/Extra Transaction Fields.*contains value/,
		],
		[
			'extra fields that are not an object',
			{ additionalFields: { extraFields: '[1]' } },
			/must be a JSON object/,
		],
		[
			'a source account that is not a UUID',
			{ fromBankAccountId: 'mxn-real' },
			/From Bank Account ID/,
		],
	])('refuses %s and sends nothing', async (_name, overrides, message) => {
		const { error, requests, items } = await op.run({
			parameters: payIn(overrides),
			replies: { [CREATE]: { data: { id: 'tx-1' } } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('is sent once: a 500 is an unknown outcome, never a second pay-in', async () => {
		const { error, requests } = await op.run({
			parameters: payIn(),
			replies: { [CREATE]: [reply(500, 'Internal Server Error'), { data: { id: 'tx-1' } }] },
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toMatch(/Outcome unknown/);
	});
});

describe('Transaction > Get Refund', () => {
	it('sends GET /transactions/:id/refund_received_transaction/:refund_id and outputs the refund with transaction_id', async () => {
		const { items, requests, error } = await op.run({
			parameters: {
				resource: 'transaction',
				operation: 'getRefund',
				transactionId: 'tx-7',
				refundId: ' refund-1 ',
			},
			replies: { [REFUND]: { data: { id: 'refund-1', status: 'canceled' } } },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			route: REFUND,
			params: { id: 'tx-7', refundId: 'refund-1' },
		});
		expect(items).toEqual([
			{
				json: { id: 'refund-1', status: 'canceled', transaction_id: 'tx-7' },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('refuses a Refund ID that would change the path', async () => {
		const { error, requests, items } = await op.run({
			parameters: {
				resource: 'transaction',
				operation: 'getRefund',
				transactionId: 'tx-7',
				refundId: '../../x',
			},
			replies: { [REFUND]: { data: {} } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Refund ID \(item 0\)/);
	});
});
