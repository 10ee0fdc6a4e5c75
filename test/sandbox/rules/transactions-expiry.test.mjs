// When payments expire, called on their own: a dynamic PIX's due date (default an hour), a
// boleto's due date (the end of that day), and a non-identified receipt's refund (two business days).
import {
	ACCOUNT_IDS,
	NOW,
	SUBJECT,
	pixBody,
	refusal,
	transactionTestEnv,
} from './transactions-env.mjs';
import {
	createDynamicPix,
	dynamicPixExpiry,
} from '../../../sandbox/domain/transactions/dynamicPix.mjs';
import {
	boletoDueDateError,
	boletoExpiresAt,
	createBoleto,
} from '../../../sandbox/domain/transactions/boleto.mjs';
import { addBusinessDays, receive } from '../../../sandbox/domain/transactions/bankReceipts.mjs';

const now = Date.parse(NOW);
const MINUTE = 60 * 1000;

describe('dynamic PIX due date', () => {
	test.each([undefined, null, '', '  '])('%p takes the default, now + 1 hour', (value) => {
		expect(dynamicPixExpiry(value, now)).toEqual({ expiresAt: now + 60 * MINUTE });
	});

	test.each([
		['2025-03-10T13:00:00Z', now + 60 * MINUTE],
		['2025-03-10T12:01:01Z', now + MINUTE + 1000],
		['2025-03-10T13:00:00.074Z', now + 60 * MINUTE + 74],
		['2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:00:00Z')],
	])('%s is accepted', (value, expiresAt) => {
		expect(dynamicPixExpiry(value, now)).toEqual({ expiresAt });
	});

	test.each([['2025-03-10T12:01:00Z'], ['2025-03-10T12:00:00Z'], ['2025-03-09T13:00:00Z']])(
		'%s is too soon (one minute or less from now)',
		(value) => {
			expect(dynamicPixExpiry(value, now)).toEqual({
				error: 'must be more than 1 minute after the current time (2025-03-10T12:00:00Z)',
			});
		},
	);

	test.each([
		['2025-03-10 13:00:00'],
		['2025-03-10T13:00:00'],
		['2025-03-10T13:00:00-03:00'],
		['2025-02-30T13:00:00Z'],
		['2025-03-10T24:00:00Z'],
		[now + 60 * MINUTE],
	])('%p is not a UTC date-time in the service form', (value) => {
		expect(dynamicPixExpiry(value, now)).toEqual({
			error: 'must be a UTC date-time in the form YYYY-MM-DDThh:mm:ssZ',
		});
	});

	test('a new dynamic PIX carries its due date in meta and expires unpaid at it', async () => {
		const { env, clock, types } = transactionTestEnv();
		const transaction = createDynamicPix(pixBody({ meta: { order: 'A-1' } }), env);
		expect(transaction.meta).toEqual({
			order: 'A-1',
			dynamic_pix_due_date: '2025-03-10T13:00:00Z',
		});
		await clock.advance(60 * MINUTE - 1000);
		expect(transaction.status).toBe('pending');
		await clock.advance(1000);
		expect(transaction).toMatchObject({ status: 'canceled', canceled_reason: 'expired' });
		expect(types()).toEqual(['payment_expired']);
	});

	test('a due date too soon is refused with the body, nothing created', () => {
		const { env, state } = transactionTestEnv();
		expect(
			refusal(() =>
				createDynamicPix(pixBody({ dynamic_pix_expires_at: '2025-03-10T12:00:30Z' }), env),
			),
		).toEqual({
			errors: {
				dynamic_pix_expires_at: [
					'must be more than 1 minute after the current time (2025-03-10T12:00:00Z)',
				],
			},
		});
		expect(state.transactions.size).toBe(0);
	});
});

describe('boleto due date', () => {
	test.each([
		['2025-03-10', null],
		['2025-03-11', null],
		['2026-12-31', null],
		['2025-03-09', 'cannot be in the past (today is 2025-03-10)'],
		['2025-3-20', 'must be a date in the form YYYY-MM-DD'],
		['2025-02-30', 'must be a date in the form YYYY-MM-DD'],
		['20/03/2025', 'must be a date in the form YYYY-MM-DD'],
		[undefined, "can't be blank"],
		['', "can't be blank"],
	])('%p: %p', (expireAt, error) => {
		expect(boletoDueDateError(expireAt, '2025-03-10')).toBe(error);
	});

	test('a boleto is payable until the end of its due date (UTC)', () => {
		expect(boletoExpiresAt('2025-03-10')).toBe(Date.parse('2025-03-11T00:00:00Z'));
	});

	test('a boleto due today expires unpaid at midnight UTC, not before', async () => {
		const { env, clock, types } = transactionTestEnv();
		const transaction = createBoleto(
			{
				subject_id: SUBJECT.id,
				to_bank_account_id: ACCOUNT_IDS.brlNoPixKey,
				currency: 'BRL',
				exchange_currency: 'BRL',
				value: '150.00',
				from_boleto: { expire_at: '2025-03-10' },
			},
			env,
		);
		expect(transaction).toMatchObject({
			status: 'pending',
			from_boleto: { expire_at: '2025-03-10' },
			url_pdf: `http://127.0.0.1:4010/api/v1/transactions/${transaction.id}/boleto_pdf`,
		});
		await clock.advance(12 * 60 * MINUTE - 1000);
		expect(transaction.status).toBe('pending');
		await clock.advance(1000);
		expect(transaction.canceled_reason).toBe('expired');
		expect(types()).toEqual(['payment_expired']);
	});
});

describe('refund of a non-identified receipt: two business days', () => {
	const day = (iso) => Date.parse(`${iso}T12:00:00Z`);
	test.each([
		['2025-03-10', 2, '2025-03-12'], // Monday → Wednesday
		['2025-03-13', 2, '2025-03-17'], // Thursday → Monday
		['2025-03-14', 2, '2025-03-18'], // Friday → Tuesday
		['2025-03-15', 1, '2025-03-17'], // Saturday → Monday
		['2025-03-16', 2, '2025-03-18'], // Sunday → Tuesday
		['2025-03-10', 0, '2025-03-10'],
	])('%s + %i business days is %s', (start, days, end) => {
		expect(addBusinessDays(day(start), days)).toBe(day(end));
	});

	test('a receipt nobody is registered for is refunded after two business days', async () => {
		const { env, clock } = transactionTestEnv();
		const { identified, bank_transaction } = receive(
			'pix',
			{ document_number: '11144477735', value: '25.00' },
			env,
		);
		expect(identified).toBe(false);
		await clock.advance(2 * 24 * 60 * MINUTE - 1000);
		expect(bank_transaction.status).toBe('non_identified');
		await clock.advance(1000);
		expect(bank_transaction.status).toBe('refunded');
	});
});
