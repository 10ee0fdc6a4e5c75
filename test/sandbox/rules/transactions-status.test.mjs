// The status machine of a transaction called on its own:
// pending → identified → (exchanged) → (wired); pending|identified → canceled.
import {
	SUBJECT,
	pixBody,
	refusal,
	storedTransaction,
	transactionTestEnv,
} from './transactions-env.mjs';
import { createDynamicPix } from '../../../sandbox/domain/transactions/dynamicPix.mjs';
import { pay } from '../../../sandbox/domain/transactions/customerPayment.mjs';
import {
	cancelPayment,
	expire,
	identifyNow,
	refundReceived,
} from '../../../sandbox/domain/transactions/status.mjs';

const STATUSES = ['pending', 'identified', 'exchanged', 'wired', 'canceled'];

/** A stored transaction of `kind` in `status` (default: a pending dynamic PIX). */
const stored = (env, kind = 'dynamic_pix', status = 'pending', currency = 'BRL') =>
	storedTransaction(env, { kind, status, currency });

/** A dynamic PIX as POST /transactions creates it (pending, its expiry scheduled an hour on). */
const dynamicPix = (env) => createDynamicPix(pixBody(), env);

describe('cancel (GET /transactions/:id/refund): only a pending payment', () => {
	test('a pending payment is canceled by the partner; the answer is the void record', () => {
		const { env } = transactionTestEnv();
		const transaction = stored(env);
		const answer = cancelPayment(transaction, env);
		expect(transaction).toMatchObject({
			status: 'canceled',
			canceled_reason: 'canceled_by_partner',
			canceled_at: '2025-03-10T12:00:00Z',
		});
		expect(answer).toMatchObject({
			reason: 'canceled_by_partner',
			status: 'canceled',
			transaction_kind: 'payment',
			inserted_at: '2025-03-10T12:00:00Z',
			bank_transaction: {
				value: '10.00',
				iof_value: '0.00',
				fx_value: '0.00',
				exchange_rate: null,
			},
		});
		expect(answer.id).not.toBe(transaction.id);
	});

	test('the void record of a CLP payment writes its zero amounts without decimals', () => {
		const { env } = transactionTestEnv();
		const answer = cancelPayment(stored(env, 'local_pay_in', 'pending', 'CLP'), env);
		expect(answer.bank_transaction).toMatchObject({ iof_value: '0', fx_value: '0' });
	});

	test.each(STATUSES.filter((status) => status !== 'pending'))(
		'a %s payment is refused, pointing to the refund of a received payment',
		(status) => {
			const { env } = transactionTestEnv();
			const transaction = stored(env, 'dynamic_pix', status);
			expect(refusal(() => cancelPayment(transaction, env))).toEqual({
				errors: {
					status: [
						`the transaction is ${status}; only a pending (unprocessed) payment can be canceled. For a received payment use GET /transactions/:id/refund_received_transaction`,
					],
				},
			});
			expect(transaction.status).toBe(status);
		},
	);

	test('a canceled dynamic PIX no longer expires', async () => {
		const { env, clock, types } = transactionTestEnv();
		const transaction = dynamicPix(env);
		cancelPayment(transaction, env);
		await clock.advance(2 * 3600 * 1000);
		expect(transaction.canceled_reason).toBe('canceled_by_partner');
		expect(types()).not.toContain('payment_expired');
	});
});

describe('refund of a received payment: only identified, not a payout', () => {
	test.each(['dynamic_pix', 'boleto', 'card', 'static_pix', 'ted', 'local_pay_in'])(
		'an identified %s is refunded in full (payment_refunded)',
		(kind) => {
			const { env, events } = transactionTestEnv();
			const transaction = stored(env, kind, 'identified');
			expect(refundReceived(transaction, env)).toMatchObject({
				status: 'canceled',
				canceled_reason: 'refunded',
				refunded_value: '10.00',
			});
			expect(events).toEqual([{ type: 'payment_refunded', transaction_id: transaction.id }]);
		},
	);

	test.each([
		['payout', 'identified', 'the transaction is identified (a payout)'],
		['dynamic_pix', 'pending', 'the transaction is pending'],
		['dynamic_pix', 'exchanged', 'the transaction is exchanged'],
		['dynamic_pix', 'wired', 'the transaction is wired'],
		['dynamic_pix', 'canceled', 'the transaction is canceled'],
	])('a %s that is %s is refused', (kind, status, start) => {
		const { env, events } = transactionTestEnv();
		const transaction = stored(env, kind, status);
		expect(refusal(() => refundReceived(transaction, env))).toEqual({
			errors: {
				status: [
					`${start}; only a received payment that is identified and not yet exchanged or wired can be refunded`,
				],
			},
		});
		expect(transaction.status).toBe(status);
		expect(events).toEqual([]);
	});
});

describe('identify on demand (a card payment played `later`)', () => {
	test('a pending transaction becomes identified (identified event)', () => {
		const { env, events } = transactionTestEnv();
		const transaction = stored(env, 'card');
		expect(identifyNow(transaction, env).status).toBe('identified');
		expect(events).toEqual([{ type: 'identified', transaction_id: transaction.id }]);
	});

	test.each(STATUSES.filter((status) => status !== 'pending'))('a %s one is refused', (status) => {
		const { env } = transactionTestEnv();
		const transaction = stored(env, 'card', status);
		expect(refusal(() => identifyNow(transaction, env))).toEqual({
			errors: { status: [`the transaction is ${status}, not pending`] },
		});
	});

	test('with automatic settlement, the identified payment is exchanged and wired at once', () => {
		const { env, types } = transactionTestEnv({ autoSettle: true });
		const transaction = stored(env, 'card');
		identifyNow(transaction, env);
		expect(transaction.status).toBe('wired');
		expect(types()).toEqual(['identified', 'exchange_created', 'wire_created']);
	});
});

describe('expiry', () => {
	test('an unpaid payment expires (payment_expired)', () => {
		const { env, events } = transactionTestEnv();
		const transaction = stored(env);
		expire(transaction, env);
		expect(transaction).toMatchObject({ status: 'canceled', canceled_reason: 'expired' });
		expect(events).toEqual([{ type: 'payment_expired', transaction_id: transaction.id }]);
	});

	test.each(STATUSES.filter((status) => status !== 'pending'))(
		'a %s payment does not expire',
		(status) => {
			const { env, events } = transactionTestEnv();
			const transaction = stored(env, 'dynamic_pix', status);
			expire(transaction, env);
			expect(transaction.status).toBe(status);
			expect(events).toEqual([]);
		},
	);
});

describe('the customer pays (POST /_sandbox/pay/:id)', () => {
	test.each([
		[{}, 'identified', null, ['identified']],
		[{ success: 'true' }, 'identified', null, ['identified']],
		[{ success: false }, 'canceled', 'expired', ['payment_expired']],
		[{ payer_document_number: SUBJECT.document_number }, 'identified', null, ['identified']],
		[
			{ payer_document_number: '11144477735' },
			'canceled',
			'third_party_payer_refunded',
			['payment_refunded'],
		],
	])('a pending dynamic PIX paid with %p is %s (%s)', (body, status, reason, types) => {
		const { env, events } = transactionTestEnv();
		const transaction = dynamicPix(env);
		pay(transaction.id, body, env);
		expect(transaction).toMatchObject({ status, canceled_reason: reason });
		expect(events.map((event) => event.type)).toEqual(types);
	});

	test('a paid dynamic PIX no longer expires, and records when it was paid', async () => {
		const { env, clock, types } = transactionTestEnv();
		const transaction = dynamicPix(env);
		await clock.advance(60 * 1000);
		pay(transaction.id, {}, env);
		await clock.advance(2 * 3600 * 1000);
		expect(transaction).toMatchObject({ status: 'identified', paid_at: '2025-03-10T12:01:00Z' });
		expect(types()).toEqual(['identified']);
	});

	test.each([
		[
			'payout',
			'pending',
			'id',
			'only dynamic PIX, boleto, local pay-in and checkout payments can be paid here',
		],
		[
			'card',
			'pending',
			'id',
			'only dynamic PIX, boleto, local pay-in and checkout payments can be paid here',
		],
		[
			'static_pix',
			'pending',
			'id',
			'only dynamic PIX, boleto, local pay-in and checkout payments can be paid here',
		],
		[
			'boleto',
			'identified',
			'status',
			'the transaction is identified; only a pending transaction can be paid',
		],
		[
			'local_pay_in',
			'canceled',
			'status',
			'the transaction is canceled; only a pending transaction can be paid',
		],
	])('a %s that is %s cannot be paid here', (kind, status, field, message) => {
		const { env } = transactionTestEnv();
		const transaction = stored(env, kind, status);
		expect(refusal(() => pay(transaction.id, {}, env))).toEqual({ errors: { [field]: [message] } });
	});

	test('success must be true or false', () => {
		const { env } = transactionTestEnv();
		const transaction = dynamicPix(env);
		expect(refusal(() => pay(transaction.id, { success: 'maybe' }, env))).toEqual({
			errors: { success: ['must be true or false'] },
		});
		expect(transaction.status).toBe('pending');
	});

	test('an unknown id is not found', () => {
		const { env } = transactionTestEnv();
		expect(refusal(() => pay('no-such-id', {}, env))).toEqual({ error: 'not_found' });
	});
});
