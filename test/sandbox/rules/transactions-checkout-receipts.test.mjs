// Card checkout and static PIX / TED receipts called on their own: the checkout page, each card
// attempt on it, what the sandbox plays for card identification, and receipts from payers known
// only by document number.
import { ACCOUNT_IDS, SUBJECT, refusal, transactionTestEnv } from './transactions-env.mjs';
import {
	checkoutAttempt,
	createCheckout,
	play,
} from '../../../sandbox/domain/transactions/cardCheckout.mjs';
import {
	identifyPendingBankTransactions,
	receive,
} from '../../../sandbox/domain/transactions/bankReceipts.mjs';

describe('card checkout', () => {
	const checkoutBody = (fields = {}) => ({
		subject_id: SUBJECT.id,
		to_bank_account_id: ACCOUNT_IDS.usdDestination,
		currency: 'BRL',
		exchange_currency: 'USD',
		value: '99.90',
		...fields,
	});

	test('a checkout page is active, with its URL on the sandbox', () => {
		const { env } = transactionTestEnv();
		const checkout = createCheckout(checkoutBody(), env);
		expect(checkout).toMatchObject({
			status: 'active',
			checkout_id: checkout.id,
			checkout_url: `http://127.0.0.1:4010/_sandbox/checkout/${checkout.id}`,
			transaction_ids: [],
		});
	});

	test.each([
		[{ currency: 'USD' }, { currency: ['must be one of: BRL, MXN, COP, CLP'] }],
		[
			{ currency: 'CLP', value: '99.90' },
			{
				value: [
					'must be a whole number of Chilean pesos as a string, e.g. "15000" (CLP has no decimals)',
				],
			},
		],
		[
			{ exchange_currency: 'CLP' },
			{
				exchange_currency: ['must be one of: BRL, USD, EUR'],
				to_bank_account_id: ['currency (USD) must equal exchange_currency (CLP)'],
			},
		],
	])('%p is refused: %p', (fields, errors) => {
		const { env } = transactionTestEnv();
		expect(refusal(() => createCheckout(checkoutBody(fields), env))).toEqual({ errors });
	});

	test.each([
		[true, 'at_approval', 'identified', null, '4242', ['payment_approved', 'identified']],
		[true, 'later', 'pending', null, '4242', ['payment_approved']],
		[false, 'at_approval', 'canceled', 'card_declined', '0002', ['payment_failed']],
	])(
		'an attempt (success %p, identification %s) is %s',
		(success, identification, status, reason, last4, types) => {
			const { env, state, events } = transactionTestEnv();
			play(state, { card_identification: identification });
			const checkout = createCheckout(checkoutBody(), env);
			const transaction = checkoutAttempt(checkout, success, env);
			expect(transaction).toMatchObject({
				status,
				canceled_reason: reason,
				checkout_id: checkout.id,
				from_credit_card: { brand: 'visa', last4, holder_name: 'Maria da Silva' },
			});
			expect(checkout).toMatchObject({
				status: success ? 'paid' : 'active',
				transaction_ids: [transaction.id],
				paid_transaction_id: success ? transaction.id : null,
			});
			expect(events.map((event) => event.type)).toEqual(types);
		},
	);

	test('a declined card may try again; a paid page cannot be paid twice', () => {
		const { env } = transactionTestEnv();
		const checkout = createCheckout(checkoutBody(), env);
		checkoutAttempt(checkout, false, env);
		checkoutAttempt(checkout, true, env);
		expect(checkout.transaction_ids).toHaveLength(2);
		expect(refusal(() => checkoutAttempt(checkout, true, env))).toEqual({
			errors: { status: ['the checkout is paid; only an active checkout page can be paid'] },
		});
	});

	test('what the sandbox plays: at_approval by default; an unknown choice is refused', () => {
		const { state } = transactionTestEnv();
		expect(play(state)).toEqual({ card_identification: 'at_approval', read_lag_seconds: 0 });
		expect(refusal(() => play(state, { card_identification: 'never' }))).toEqual({
			errors: { card_identification: ['must be one of: at_approval, later'] },
		});
		expect(play(state, { card_identification: 'later' })).toEqual({
			card_identification: 'later',
			read_lag_seconds: 0,
		});
		expect(play(state, {})).toEqual({ card_identification: 'later', read_lag_seconds: 0 });
		expect(refusal(() => play(state, { read_lag_seconds: -1 }))).toEqual({
			errors: { read_lag_seconds: ['must be a number of seconds from 0 to 120'] },
		});
	});
});

describe('static PIX / TED receipts', () => {
	test.each([
		['pix', 'static_pix', ACCOUNT_IDS.brlPixExclusive],
		['ted', 'ted', ACCOUNT_IDS.brlNoPixKey],
	])('a %s from a registered subject is their identified %s', (method, kind, account) => {
		const { env, events } = transactionTestEnv();
		const { identified, transaction } = receive(
			method,
			{ document_number: SUBJECT.document_number, value: '25.00' },
			env,
		);
		expect(identified).toBe(true);
		expect(transaction).toMatchObject({
			_kind: kind,
			status: 'identified',
			source_name: 'Maria da Silva',
			to_bank_account: expect.objectContaining({ id: account }),
			paid_at: '2025-03-10T12:00:00Z',
			bank_transaction: expect.objectContaining({ value: '25.00', bank_account_id: account }),
		});
		expect(transaction.bank_transaction).not.toHaveProperty('status');
		expect(events).toEqual([{ type: 'identified', transaction_id: transaction.id }]);
	});

	test.each([
		['52998224725', 'cpf'],
		['16727230000197', 'cnpj'],
	])('an unknown payer %s (%s) waits as a non-identified bank transaction', (document, type) => {
		const { env, events } = transactionTestEnv();
		const { identified, bank_transaction } = receive(
			'pix',
			{
				document_number: document,
				value: '25.00',
			},
			env,
		);
		expect(identified).toBe(false);
		expect(bank_transaction).toMatchObject({
			status: 'non_identified',
			subject: { document_type: type, name: 'Unregistered Payer' },
		});
		expect(events.map((event) => event.type)).toEqual(['non_identified_bank_transaction']);
	});

	test('a subject registered later takes the earlier receipts under their name', async () => {
		const { env, state, clock } = transactionTestEnv();
		const payer = {
			...SUBJECT,
			id: 'a1b2c3d4-0000-4000-8000-000000000009',
			document_number: '52998224725',
			social_name: 'João',
		};
		const { bank_transaction } = receive(
			'ted',
			{ document_number: payer.document_number, value: '40.00', name: 'J. Souza' },
			env,
		);
		state.subjects.set(payer.id, payer);
		identifyPendingBankTransactions(payer, env);
		expect(bank_transaction.status).toBe('identified');
		const transaction = state.transactions.get(bank_transaction.transaction_id);
		expect(transaction).toMatchObject({
			_kind: 'ted',
			subject_id: payer.id,
			source_name: 'J. Souza',
			status: 'identified',
		});
		await clock.advance(5 * 24 * 3600 * 1000);
		expect(bank_transaction.status).toBe('identified');
	});

	test.each([
		[{ value: '25.00' }, { document_number: ["can't be blank"] }],
		[{ document_number: '39053344705' }, { value: ["can't be blank"] }],
		[
			{ document_number: '39053344705', value: '25.00', currency: 'USD' },
			{ currency: ['must be BRL (PIX and TED are Brazilian)'] },
		],
	])('%p is refused: %p', (body, errors) => {
		const { env } = transactionTestEnv();
		expect(refusal(() => receive('pix', body, env))).toEqual({ errors });
	});
});
