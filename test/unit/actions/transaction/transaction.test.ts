import type { IDataObject } from 'n8n-workflow';

import { crc16CcittFalse } from '../../../../nodes/FacilitaPay/validation/pix';
import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { IDENTITY } from '../../helpers/identity';
import { skipRetryWaits } from '../../helpers/retryWaits';
import { SUBJECT_ID } from '../../../fixtures/subjects';
import {
	boletoParameters,
	BRL_PIX,
	checkoutParameters,
	CUSTOMER,
	dynamicPixParameters,
	payoutParameters,
	USD_CASHOUT,
	USD_DEST,
} from '../../../fixtures/transactions';
import { dynamicBrCode } from '../../../fixtures/brCode';

skipRetryWaits();

const isoIn = (seconds: number) =>
	new Date(Date.now() + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const day = (offset: number) =>
	new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A dynamic BR Code without amount, with its CRC. */
const brCode = () =>
	dynamicBrCode(crc16CcittFalse, { location: 'pix.example.com/qr/v2/abc123', txid: '***' });

const pix = (overrides: IDataObject = {}) =>
	dynamicPixParameters({ dynamicPixExpiresAt: isoIn(3600), ...overrides });

describe('Transaction > Create Dynamic PIX', () => {
	it('reads an expiry without offset (the date picker’s value) in the workflow’s time zone, not as UTC', async () => {
		// São Paulo is UTC-3 all year. The picker gives the local wall time two hours ahead.
		const inTwoHours = Math.floor((Date.now() + 2 * 3600_000) / 1000) * 1000;
		const wallTime = new Date(inTwoHours - 3 * 3600_000).toISOString().slice(0, 19);
		const { requests } = await runNode({
			parameters: pix({ dynamicPixExpiresAt: wallTime }),
			timezone: 'America/Sao_Paulo',
			replies: [{ data: { id: 'tx-1' } }],
		});
		const sent = ((requests[0].body as IDataObject).transaction as IDataObject)
			.dynamic_pix_expires_at as string;
		expect(Date.parse(sent)).toBe(inTwoHours);
	});

	it('sends no expiry when it is left empty (it is optional in the spec)', async () => {
		const { requests } = await runNode({
			parameters: pix({ dynamicPixExpiresAt: '' }),
			replies: [{ data: { id: 'tx-1' } }],
		});
		expect((requests[0].body as IDataObject).transaction).not.toHaveProperty(
			'dynamic_pix_expires_at',
		);
	});

	it('sends the dynamic PIX shape and outputs the PIX code', async () => {
		const expires = isoIn(3600);
		const code = brCode();
		const { output, requests } = await runNode({
			parameters: pix({ dynamicPixExpiresAt: expires }),
			replies: [
				{
					data: {
						id: 'tx-1',
						status: 'pending',
						dynamic_pix_code: code,
						meta: { dynamic_pix_due_date: expires },
					},
				},
			],
		});
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/transactions');
		expect(requests[0].body).toEqual({
			transaction: {
				meta: IDENTITY,
				subject_id: SUBJECT_ID,
				from_bank_account_id: BRL_PIX,
				to_bank_account_id: USD_DEST,
				currency: 'BRL',
				exchange_currency: 'USD',
				value: '150.00',
				use_dynamic_pix: true,
				dynamic_pix_expires_at: expires,
			},
		});
		expect(output[0].json).toMatchObject({
			id: 'tx-1',
			pix_code: code,
			pix_code_valid: true,
			pix_expires_at: expires,
		});
	});

	it('normalises an expiry with milliseconds and an offset to UTC seconds', async () => {
		const at = new Date(Date.now() + 7200_000);
		const withOffset = new Date(at.getTime() + 3600_000).toISOString().replace('Z', '+01:00');
		const { requests } = await runNode({
			parameters: pix({ dynamicPixExpiresAt: withOffset }),
			replies: [{ data: { id: 'x' } }],
		});
		const sent = (requests[0].body as { transaction: { dynamic_pix_expires_at: string } })
			.transaction.dynamic_pix_expires_at;
		expect(sent).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
		expect(Math.abs(Date.parse(sent) - at.getTime())).toBeLessThan(1000);
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
		['a subject ID that is not a UUID', { subjectId: 'maria' }, /Invalid Subject ID \(item 0\)/],
	])('refuses %s and sends nothing', async (_name, overrides, message) => {
		const { error, requests } = await runNodeExpectingError({
			parameters: pix(overrides),
			replies: [{ data: {} }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent');
	});

	it('takes a number value without going through a float error', async () => {
		const { requests } = await runNode({
			parameters: pix({ value: 19.9 }),
			replies: [{ data: { id: 'x' } }],
		});
		expect((requests[0].body as { transaction: { value: string } }).transaction.value).toBe(
			'19.90',
		);
	});
});

describe('Transaction > Create Boleto, Payout, Checkout', () => {
	it('Create Boleto sends from_boleto.expire_at as a date', async () => {
		const { requests, output } = await runNode({
			parameters: boletoParameters({ expireAt: `${day(3)}T00:00:00.000Z` }),
			replies: [{ data: { id: 'b-1', url_pdf: 'x', bar_code: '1', digital_line: '2' } }],
		});
		expect(requests[0].body).toEqual({
			transaction: {
				meta: IDENTITY,
				subject_id: SUBJECT_ID,
				to_bank_account_id: USD_DEST,
				currency: 'BRL',
				exchange_currency: 'USD',
				value: '99.90',
				from_boleto: { expire_at: day(3) },
			},
		});
		expect(output[0].json.bar_code).toBe('1');
	});

	it('Create Boleto refuses a due date in the past', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: boletoParameters({ exchangeCurrency: 'BRL', value: '10.00', expireAt: day(-2) }),
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Expire At \(item 0\)/);
	});

	it('Create Payout sends the payout shape', async () => {
		const { requests } = await runNode({
			parameters: payoutParameters('250.00'),
			replies: [{ data: { id: 'p-1' } }],
		});
		expect(requests[0].body).toEqual({
			transaction: {
				meta: IDENTITY,
				subject_id: SUBJECT_ID,
				from_bank_account_id: USD_CASHOUT,
				to_bank_account_id: CUSTOMER,
				currency: 'USD',
				exchange_currency: 'BRL',
				value: '250.00',
			},
		});
	});

	it('Create Card Checkout posts to /transactions/checkout without a wrapper', async () => {
		const { requests } = await runNode({
			parameters: checkoutParameters(),
			replies: [{ data: { id: 'c-1', checkout_url: 'https://pay/c-1' } }],
		});
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/transactions/checkout');
		expect(requests[0].body).toEqual({
			subject_id: SUBJECT_ID,
			to_bank_account_id: USD_DEST,
			currency: 'BRL',
			exchange_currency: 'USD',
			value: '80.00',
		});
	});
});

describe('Transaction > Get, Get Boleto PDF, Cancel, Refund', () => {
	it('Get simplifies the transaction and keeps the PIX code', async () => {
		const { output, requests } = await runNode({
			parameters: {
				resource: 'transaction',
				operation: 'get',
				transactionId: ' tx-1 ',
				simplify: true,
			},
			replies: [
				{
					data: {
						id: 'tx-1',
						status: 'identified',
						value: '1.00',
						to_bank_account: { id: 'a' },
						subject: { social_name: 'Maria' },
						dynamic_pix_code: brCode(),
					},
				},
			],
		});
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/transactions/tx-1');
		expect(output[0].json).toMatchObject({
			id: 'tx-1',
			status: 'identified',
			subject_name: 'Maria',
			pix_code_valid: true,
		});
		expect(output[0].json.to_bank_account).toBeUndefined();
	});

	it('Get refuses an ID with a slash (it would change the path)', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: {
				resource: 'transaction',
				operation: 'get',
				transactionId: '../subject/people',
				simplify: true,
			},
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Transaction ID \(item 0\)/);
	});

	it('Get Boleto PDF outputs the file as binary', async () => {
		const pdf = Buffer.from('%PDF-1.4 boleto %%EOF');
		const { output, requests } = await runNode({
			parameters: {
				resource: 'transaction',
				operation: 'getBoletoPdf',
				transactionId: 'b-1',
				binaryPropertyName: 'boleto',
			},
			replies: [{ body: pdf, headers: { 'content-type': 'application/pdf' }, statusCode: 200 }],
		});
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/transactions/b-1/boleto_pdf');
		expect(requests[0].encoding).toBe('arraybuffer');
		expect(output[0].binary?.boleto).toMatchObject({
			fileName: 'boleto-b-1.pdf',
			mimeType: 'application/pdf',
		});
		expect(Buffer.from(output[0].binary!.boleto.data, 'base64').equals(pdf)).toBe(true);
		expect(output[0].json).toEqual({
			transaction_id: 'b-1',
			file_name: 'boleto-b-1.pdf',
			size: pdf.length,
		});
	});

	it.each([
		['cancel', '/transactions/tx-7/refund'],
		['refund', '/transactions/tx-7/refund_received_transaction'],
	])('%s sends GET %s once', async (operation, path) => {
		const { requests } = await runNode({
			parameters: { resource: 'transaction', operation, transactionId: 'tx-7' },
			replies: [{ data: { id: 'tx-7', status: 'canceled' } }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('GET');
		expect(requests[0].url).toBe(`https://sandbox.test/api/v1${path}`);
	});
});
