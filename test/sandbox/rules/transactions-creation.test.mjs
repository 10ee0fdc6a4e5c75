// Creation rules called on their own: which kind a body asks for, the record every transaction
// shares, payouts, dynamic PIX and boleto (card checkout and receipts: transactions-checkout-receipts).
import { ACCOUNT_IDS, SUBJECT, pixBody, refusal, transactionTestEnv } from './transactions-env.mjs';
import { requestKind } from '../../../sandbox/domain/transactions/requestKind.mjs';
import { newTransaction } from '../../../sandbox/domain/transactions/record.mjs';
import { createPayout, payoutMethod } from '../../../sandbox/domain/transactions/payout.mjs';
import { createDynamicPix } from '../../../sandbox/domain/transactions/dynamicPix.mjs';
import { createBoleto } from '../../../sandbox/domain/transactions/boleto.mjs';
import { PAY_IN_ACCOUNT_IDS } from '../../../sandbox/domain/localPayIns.mjs';

describe('which kind a POST /transactions body asks for', () => {
	const { state } = transactionTestEnv();
	test.each([
		[{ use_dynamic_pix: true }, 'dynamic_pix'],
		[{ use_dynamic_pix: 'true' }, 'dynamic_pix'],
		[{ use_dynamic_pix: true, from_boleto: {} }, 'dynamic_pix'],
		[{ from_boleto: { expire_at: '2025-03-20' } }, 'boleto'],
		[{ use_dynamic_pix: null, from_boleto: {} }, 'boleto'],
		[{ currency: 'MXN', from_bank_account_id: PAY_IN_ACCOUNT_IDS.mxnReal }, 'local_pay_in'],
		[{ currency: 'USDT' }, 'local_pay_in'],
		[{ currency: 'MXN', from_bank_account_id: ACCOUNT_IDS.usdCashOut }, 'payout'],
		[{ currency: 'USD', from_bank_account_id: ACCOUNT_IDS.usdCashOut }, 'payout'],
		[{ currency: 'BRL' }, 'payout'],
	])('%p is a %s', (tx, kind) => {
		expect(requestKind({ transaction: tx }, state)).toEqual({ kind, tx });
	});

	test.each([
		[undefined],
		[{}],
		[{ transaction: null }],
		[{ transaction: [] }],
		[{ transaction: 'x' }],
	])("%p is refused: transaction can't be blank", (body) => {
		expect(refusal(() => requestKind(body, state))).toEqual({
			errors: { transaction: ["can't be blank"] },
		});
	});

	test.each([[false], ['false'], ['yes']])('use_dynamic_pix %p is refused', (flag) => {
		expect(refusal(() => requestKind({ transaction: { use_dynamic_pix: flag } }, state))).toEqual({
			errors: {
				use_dynamic_pix: ['must be true for a dynamic PIX (omit it for boleto and payout)'],
			},
		});
	});
});

describe('the record every transaction shares', () => {
	const fields = {
		value: '10.00',
		currency: 'BRL',
		exchange_currency: 'USD',
		to_bank_account_id: ACCOUNT_IDS.usdDestination,
		from_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
	};

	test('a new transaction is pending, estimates its exchange and names its subject as the source', () => {
		const { env } = transactionTestEnv({ cleared: false });
		const transaction = newTransaction('boleto', SUBJECT, fields, env);
		expect(transaction).toMatchObject({
			status: 'pending',
			value: '10.00',
			for_exchange: true,
			estimated_value_until_exchange: '2.00',
			cleared: false,
			subject_id: SUBJECT.id,
			subject_is_receiver: false,
			source_name: 'Maria da Silva',
			source_document_type: 'cpf',
			source_document_number: '39053344705',
			inserted_at: '2025-03-10T12:00:00Z',
			to_bank_account: expect.objectContaining({ id: ACCOUNT_IDS.usdDestination }),
			from_bank_account: expect.objectContaining({ id: ACCOUNT_IDS.brlPixExclusive }),
			from_credit_card: null,
			exchanged_value: null,
			canceled_reason: null,
			paid_at: null,
			meta: {},
		});
		expect(transaction).not.toHaveProperty('payment_info');
	});

	test.each([
		['payout', true],
		['dynamic_pix', false],
		['card', false],
	])('a %s: the subject is the receiver: %p', (kind, receiver) => {
		const { env } = transactionTestEnv();
		expect(newTransaction(kind, SUBJECT, fields, env).subject_is_receiver).toBe(receiver);
	});

	test('without exchange, the estimate is the value; a local pay-in says how to pay', () => {
		const { env } = transactionTestEnv();
		const transaction = newTransaction(
			'local_pay_in',
			SUBJECT,
			{ value: '15000', currency: 'CLP', exchange_currency: 'CLP' },
			env,
		);
		expect(transaction).toMatchObject({
			for_exchange: false,
			estimated_value_until_exchange: '15000',
			payment_info: null,
			to_bank_account: null,
		});
	});
});

describe('payout', () => {
	test.each([
		[{ account_number: '1', branch_number: '0001', pix_info: { key: 'k' } }, 'ted'],
		[{ account_number: '1', branch_number: null, pix_info: { key: 'k' } }, 'pix'],
		[{ account_number: null, pix_info: { key: 'k' } }, 'pix'],
		[{ account_number: '1', branch_number: null, pix_info: null }, 'wire'],
		[{ iban: 'DE89370400440532013000' }, 'wire'],
	])('to %p goes by %s', (to, method) => {
		expect(payoutMethod(to)).toBe(method);
	});

	const payout = (fields = {}) => ({
		subject_id: SUBJECT.id,
		from_bank_account_id: ACCOUNT_IDS.usdCashOut,
		to_bank_account_id: ACCOUNT_IDS.usdDestination,
		currency: 'USD',
		exchange_currency: 'USD',
		value: '100.00',
		...fields,
	});

	test('a payout from the cash-out account is identified at once; the subject receives', () => {
		const { env, events } = transactionTestEnv();
		const transaction = createPayout(payout(), env);
		expect(transaction).toMatchObject({ status: 'identified', subject_is_receiver: true });
		expect(events).toEqual([{ type: 'identified', transaction_id: transaction.id }]);
	});

	test.each([
		[
			{ from_bank_account_id: ACCOUNT_IDS.brlPixExclusive },
			{
				from_bank_account_id: ["must be the partner's cash-out internal account"],
				currency: ['must equal the currency of from_bank_account_id (BRL)'],
			},
		],
		[{ currency: 'EUR' }, { currency: ['must equal the currency of from_bank_account_id (USD)'] }],
		[
			{ exchange_currency: 'EUR' },
			{ to_bank_account_id: ['currency (USD) must equal exchange_currency (EUR)'] },
		],
		[{ value: '100' }, { value: ['must be a string with exactly two decimals, e.g. "10.50"'] }],
		[{ to_bank_account_id: 'nowhere' }, { to_bank_account_id: ['was not found'] }],
		[{ subject_id: '' }, { subject_id: ["can't be blank"] }],
	])('%p is refused: %p', (fields, errors) => {
		const { env, state } = transactionTestEnv();
		expect(refusal(() => createPayout(payout(fields), env))).toEqual({ errors });
		expect(state.transactions.size).toBe(0);
	});

	test('a destination with neither bank details nor a PIX key is refused', () => {
		const { env, state } = transactionTestEnv();
		state.bankAccounts.set('bare', {
			id: 'bare',
			currency: 'USD',
			account_number: null,
			pix_info: null,
			iban: null,
		});
		expect(refusal(() => createPayout(payout({ to_bank_account_id: 'bare' }), env))).toEqual({
			errors: { to_bank_account_id: ['has neither bank details nor a PIX key'] },
		});
	});
});

describe('dynamic PIX', () => {
	test('a dynamic PIX has a BR Code whose location is the sandbox', () => {
		const { env } = transactionTestEnv();
		const transaction = createDynamicPix(pixBody(), env);
		expect(transaction.status).toBe('pending');
		expect(transaction.dynamic_pix_code).toContain('127.0.0.1:4010/_sandbox/pix/');
	});

	test.each([
		[
			{ from_bank_account_id: ACCOUNT_IDS.brlNoPixKey },
			{
				from_bank_account_id: [
					'has no registered PIX key; dynamic PIX needs an account with a PIX key',
				],
			},
		],
		[
			{ from_bank_account_id: ACCOUNT_IDS.usdCashOut },
			{ from_bank_account_id: ["must be the partner's exclusive BRL bank account"] },
		],
		[
			{ from_bank_account_id: ACCOUNT_IDS.brlCustomer },
			{ from_bank_account_id: ["must be the partner's exclusive BRL bank account"] },
		],
		[{ currency: 'USD' }, { currency: ['must be one of: BRL'] }],
		[
			{ exchange_currency: 'MXN' },
			{
				exchange_currency: ['must be one of: BRL, USD, EUR'],
				to_bank_account_id: ['currency (USD) must equal exchange_currency (MXN)'],
			},
		],
		[
			{ exchange_currency: 'EUR' },
			{ to_bank_account_id: ['currency (USD) must equal exchange_currency (EUR)'] },
		],
		[{ value: '0.00' }, { value: ['must be greater than 0'] }],
	])('%p is refused: %p', (fields, errors) => {
		const { env } = transactionTestEnv();
		expect(refusal(() => createDynamicPix(pixBody(fields), env))).toEqual({ errors });
	});
});

describe('boleto', () => {
	const boleto = (fields = {}) => ({
		subject_id: SUBJECT.id,
		to_bank_account_id: ACCOUNT_IDS.brlNoPixKey,
		currency: 'BRL',
		exchange_currency: 'BRL',
		value: '150.00',
		from_boleto: { expire_at: '2025-03-20' },
		...fields,
	});

	test('a boleto has a 44-digit bar code and a 47-digit digital line', () => {
		const { env } = transactionTestEnv();
		const transaction = createBoleto(boleto(), env);
		expect(transaction.bar_code).toMatch(/^\d{44}$/);
		expect(transaction.digital_line.replace(/\D/g, '')).toMatch(/^\d{47}$/);
	});

	test.each([
		[{ from_boleto: undefined }, { 'from_boleto.expire_at': ["can't be blank"] }],
		[{ from_boleto: 'soon' }, { 'from_boleto.expire_at': ["can't be blank"] }],
		[
			{ from_boleto: { expire_at: '2025-03-01' } },
			{ 'from_boleto.expire_at': ['cannot be in the past (today is 2025-03-10)'] },
		],
		[
			{ currency: 'USD', exchange_currency: 'USD', to_bank_account_id: ACCOUNT_IDS.usdDestination },
			{ currency: ['must be one of: BRL'] },
		],
	])('%p is refused: %p', (fields, errors) => {
		const { env } = transactionTestEnv();
		expect(refusal(() => createBoleto(boleto(fields), env))).toEqual({ errors });
	});

	test('a subject without e-mail, phone and address cannot receive a boleto', () => {
		const { env, state } = transactionTestEnv();
		state.subjects.set('bare', { id: 'bare', social_name: 'Bare' });
		expect(refusal(() => createBoleto(boleto({ subject_id: 'bare' }), env))).toEqual({
			errors: {
				subject_id: [
					'the subject must have email, phone_number, address_street, address_number, address_neighborhood, address_postal_code, address_city, address_state, address_country registered for boleto; update it with PUT /subject/people/:id',
				],
			},
		});
	});
});
