// Transaction > Create Dynamic PIX, Boleto, Payout, Card Checkout, Get, Get Boleto PDF, Cancel and
// Refund on n8n's engine, against a FacilitaPay scripted by route.
import brCodes from '../../../fixtures/brCode.js';
import subjects from '../../../fixtures/subjects.js';
import transactions from '../../../fixtures/transactions.js';
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { dist, expectTransactionSent, sent } from './lib.mjs';

const { dynamicBrCode } = brCodes;
const { SUBJECT_ID } = subjects;
const {
	boletoParameters,
	BRL_PIX,
	checkoutParameters,
	CUSTOMER,
	dynamicPixParameters,
	payoutParameters,
	USD_CASHOUT,
	USD_DEST,
} = transactions;
const CREATE = 'POST /transactions';
const GET = 'GET /transactions/:id';

const op = useOperations();
skipRetryWaits();

const { crc16CcittFalse } = dist('nodes/FacilitaPay/validation/pix.js');

const isoIn = (seconds) =>
	new Date(Date.now() + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A dynamic BR Code without amount, with its CRC. */
const brCode = () =>
	dynamicBrCode(crc16CcittFalse, { location: 'pix.example.com/qr/v2/abc123', txid: '***' });

const pix = (overrides = {}) =>
	dynamicPixParameters({ dynamicPixExpiresAt: isoIn(3600), ...overrides });

describe('Transaction > Create Dynamic PIX', () => {
	it('reads an expiry without offset (the date picker’s value) in the workflow’s time zone, not as UTC', async () => {
		// São Paulo is UTC-3 all year. The picker gives the local wall time two hours ahead.
		const inTwoHours = Math.floor((Date.now() + 2 * 3600_000) / 1000) * 1000;
		const wallTime = new Date(inTwoHours - 3 * 3600_000).toISOString().slice(0, 19);
		const { requests, error } = await op.run({
			parameters: pix({ dynamicPixExpiresAt: wallTime }),
			timezone: 'America/Sao_Paulo',
			replies: { [CREATE]: { data: { id: 'tx-1' } } },
		});
		expect(error).toBeUndefined();
		expect(Date.parse(sent(requests[0]).dynamic_pix_expires_at)).toBe(inTwoHours);
	});

	it('sends no expiry when it is left empty (it is optional in the spec)', async () => {
		const { requests, error } = await op.run({
			parameters: pix({ dynamicPixExpiresAt: '' }),
			replies: { [CREATE]: { data: { id: 'tx-1' } } },
		});
		expect(error).toBeUndefined();
		expect(sent(requests[0])).not.toHaveProperty('dynamic_pix_expires_at');
	});

	it('sends an expiry one hour ahead when Expires At is not in the workflow (n8n evaluates its default)', async () => {
		const before = Date.now();
		const parameters = pix();
		delete parameters.dynamicPixExpiresAt;
		const { requests, error } = await op.run({
			parameters,
			replies: { [CREATE]: { data: { id: 'tx-1' } } },
		});
		expect(error).toBeUndefined();
		const at = Date.parse(sent(requests[0]).dynamic_pix_expires_at);
		expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000 - 60_000);
		expect(at).toBeLessThanOrEqual(Date.now() + 3600_000 + 60_000);
	});

	it('sends the dynamic PIX shape and outputs the PIX code', async () => {
		const expires = isoIn(3600);
		const code = brCode();
		const { items, requests, error } = await op.run({
			parameters: pix({ dynamicPixExpiresAt: expires }),
			replies: {
				[CREATE]: {
					data: {
						id: 'tx-1',
						status: 'pending',
						dynamic_pix_code: code,
						meta: { dynamic_pix_due_date: expires },
					},
				},
			},
		});
		expect(requests).toHaveLength(1);
		expectTransactionSent(
			{ error, requests },
			{
				from_bank_account_id: BRL_PIX,
				to_bank_account_id: USD_DEST,
				currency: 'BRL',
				exchange_currency: 'USD',
				value: '150.00',
				use_dynamic_pix: true,
				dynamic_pix_expires_at: expires,
			},
		);
		expect(requests[0].headers.authorization).toBe('Bearer test-token');
		expect(items[0].json).toMatchObject({
			id: 'tx-1',
			pix_code: code,
			pix_code_valid: true,
			pix_expires_at: expires,
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('normalises an expiry with milliseconds and an offset to UTC seconds', async () => {
		const at = new Date(Date.now() + 7200_000);
		const withOffset = new Date(at.getTime() + 3600_000).toISOString().replace('Z', '+01:00');
		const { requests } = await op.run({
			parameters: pix({ dynamicPixExpiresAt: withOffset }),
			replies: { [CREATE]: { data: { id: 'x' } } },
		});
		const expiry = sent(requests[0]).dynamic_pix_expires_at;
		expect(expiry).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
		expect(Math.abs(Date.parse(expiry) - at.getTime())).toBeLessThan(1000);
	});

	it.each([
		[
			'an expiry 30 seconds ahead',
			{ dynamicPixExpiresAt: isoIn(30) },
			/Invalid Expires At \(item 0\)/,
		],
		[
			'an expiry in the past',
			{ dynamicPixExpiresAt: isoIn(-600) },
			/Invalid Expires At \(item 0\)/,
		],
		[
			'an expiry that is not a date',
			{ dynamicPixExpiresAt: 'tomorrow' },
			/Invalid Expires At \(item 0\)/,
		],
		['a value with three decimals', { value: '10.555' }, /Invalid Value \(item 0\): .*3 decimals/],
		['a value with a comma', { value: '10,50' }, /Invalid Value \(item 0\): .*dot/],
		['a value of zero', { value: '0.00' }, /Invalid Value \(item 0\)/],
		[
			'a destination currency other than BRL, USD or EUR',
			{ exchangeCurrency: 'MXN' },
			/Invalid Exchange Currency \(item 0\)/,
		],
		[
			'a subject ID that is not a UUID (from an expression)',
			{ subjectId: { __rl: true, mode: 'id', value: "={{ 'maria' }}" } },
			/Invalid Subject ID \(item 0\)/,
		],
	])('refuses %s and sends nothing', async (_name, overrides, message) => {
		const { error, requests, items } = await op.run({
			parameters: pix(overrides),
			replies: { [CREATE]: { data: {} } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent');
	});

	it('typed in, a subject ID that is not a UUID is refused by the locator before the workflow starts', async () => {
		const { error, requests, items } = await op.run({
			parameters: pix({ subjectId: { __rl: true, mode: 'id', value: 'maria' } }),
			replies: { [CREATE]: { data: {} } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
		expect(error.message).toMatch(/Not a valid subject ID: it is a UUID/);
	});

	it('takes a number value without going through a float error', async () => {
		const { requests, error } = await op.run({
			parameters: pix({ value: '={{ 19.9 }}' }),
			replies: { [CREATE]: { data: { id: 'x' } } },
		});
		expect(error).toBeUndefined();
		expect(sent(requests[0]).value).toBe('19.90');
	});
});

describe('Transaction > Create Boleto, Payout, Checkout', () => {
	it('Create Boleto sends from_boleto.expire_at as a date', async () => {
		const { requests, items, error } = await op.run({
			parameters: boletoParameters({ expireAt: `${day(3)}T00:00:00.000Z` }),
			replies: {
				[CREATE]: { data: { id: 'b-1', url_pdf: 'x', bar_code: '1', digital_line: '2' } },
			},
		});
		expectTransactionSent(
			{ error, requests },
			{
				to_bank_account_id: USD_DEST,
				currency: 'BRL',
				exchange_currency: 'USD',
				value: '99.90',
				from_boleto: { expire_at: day(3) },
			},
		);
		expect(items[0].json.bar_code).toBe('1');
	});

	it('Create Boleto refuses a due date in the past', async () => {
		const { error, requests } = await op.run({
			parameters: boletoParameters({ exchangeCurrency: 'BRL', value: '10.00', expireAt: day(-2) }),
			replies: { [CREATE]: { data: { id: 'b-1' } } },
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Expire At \(item 0\)/);
	});

	it('Create Payout sends the payout shape', async () => {
		const { requests, error } = await op.run({
			parameters: payoutParameters('250.00'),
			replies: { [CREATE]: { data: { id: 'p-1' } } },
		});
		expectTransactionSent(
			{ error, requests },
			{
				from_bank_account_id: USD_CASHOUT,
				to_bank_account_id: CUSTOMER,
				currency: 'USD',
				exchange_currency: 'BRL',
				value: '250.00',
			},
		);
	});

	it('Create Card Checkout posts to /transactions/checkout without a wrapper', async () => {
		const { requests, items, error } = await op.run({
			parameters: checkoutParameters(),
			replies: {
				'POST /transactions/checkout': { data: { id: 'c-1', checkout_url: 'https://pay/c-1' } },
			},
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', route: 'POST /transactions/checkout' });
		expect(requests[0].body).toEqual({
			subject_id: SUBJECT_ID,
			to_bank_account_id: USD_DEST,
			currency: 'BRL',
			exchange_currency: 'USD',
			value: '80.00',
		});
		expect(items[0].json).toMatchObject({ id: 'c-1', checkout_url: 'https://pay/c-1' });
	});
});

describe('Transaction > Get, Get Boleto PDF, Cancel, Refund', () => {
	it('Get simplifies the transaction and keeps the PIX code', async () => {
		const { items, requests } = await op.run({
			parameters: {
				resource: 'transaction',
				operation: 'get',
				transactionId: ' tx-1 ',
				simplify: true,
			},
			replies: {
				[GET]: {
					data: {
						id: 'tx-1',
						status: 'identified',
						value: '1.00',
						to_bank_account: { id: 'a' },
						subject: { social_name: 'Maria' },
						dynamic_pix_code: brCode(),
					},
				},
			},
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', route: GET, params: { id: 'tx-1' } });
		expect(items[0].json).toMatchObject({
			id: 'tx-1',
			status: 'identified',
			subject_name: 'Maria',
			pix_code_valid: true,
		});
		expect(items[0].json.to_bank_account).toBeUndefined();
	});

	it('Get refuses an ID with a slash (it would change the path)', async () => {
		const { error, requests, items } = await op.run({
			parameters: {
				resource: 'transaction',
				operation: 'get',
				transactionId: '../subject/people',
				simplify: true,
			},
			replies: { [GET]: { data: {} } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Transaction ID \(item 0\)/);
	});

	it('Get Boleto PDF outputs the file as binary', async () => {
		const pdf = Buffer.from('%PDF-1.4 boleto %%EOF');
		const { items, requests, error } = await op.run({
			parameters: {
				resource: 'transaction',
				operation: 'getBoletoPdf',
				transactionId: 'b-1',
				binaryPropertyName: 'boleto',
			},
			replies: {
				'GET /transactions/:id/boleto_pdf': reply(200, pdf, { 'content-type': 'application/pdf' }),
			},
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', params: { id: 'b-1' } });
		expect(items[0].binary?.boleto).toMatchObject({
			fileName: 'boleto-b-1.pdf',
			mimeType: 'application/pdf',
		});
		expect(Buffer.from(items[0].binary.boleto.data, 'base64').equals(pdf)).toBe(true);
		expect(items[0].json).toEqual({
			transaction_id: 'b-1',
			file_name: 'boleto-b-1.pdf',
			size: pdf.length,
		});
	});

	it.each([
		['cancel', 'GET /transactions/:id/refund'],
		['refund', 'GET /transactions/:id/refund_received_transaction'],
	])('%s sends %s once', async (operation, route) => {
		const { requests, items } = await op.run({
			parameters: { resource: 'transaction', operation, transactionId: 'tx-7' },
			replies: { [route]: { data: { id: 'tx-7', status: 'canceled' } } },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', route, params: { id: 'tx-7' } });
		expect(items[0].json).toMatchObject({ status: 'canceled', transaction_id: 'tx-7' });
	});
});
