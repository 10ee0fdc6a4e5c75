// The exchange / wire step called on its own: grouping by subject and destination, conversion,
// the wire's method, played wire errors, and a grouped wire (corrections: transactions-wire-correction).
import {
	ACCOUNT_IDS,
	SUBJECT,
	refusal,
	storedTransaction,
	transactionTestEnv,
} from './transactions-env.mjs';
import {
	WIRE_ERRORS,
	groupedWire,
	settle,
} from '../../../sandbox/domain/transactions/settlement.mjs';

describe('the exchange / wire step', () => {
	test('pay-ins of one subject to one account: one exchange, one wire, all wired', () => {
		const { env, events } = transactionTestEnv();
		const first = storedTransaction(env, { value: '10.00' });
		const second = storedTransaction(env, { value: '15.50' });
		const { exchanges, wires } = settle(env);
		expect(exchanges).toEqual([
			expect.objectContaining({
				subject_id: SUBJECT.id,
				to_bank_account_id: ACCOUNT_IDS.usdDestination,
				currency: 'BRL',
				exchange_currency: 'USD',
				value: '25.50',
				exchanged_value: '5.10',
				transaction_ids: [first.id, second.id],
			}),
		]);
		expect(wires).toEqual([
			expect.objectContaining({
				currency: 'USD',
				value: '5.10',
				status: 'sent',
				method: 'swift',
				transaction_ids: [first.id, second.id],
				error_code: null,
			}),
		]);
		expect([first, second]).toEqual([
			expect.objectContaining({
				status: 'wired',
				exchanged_value: '2.00',
				exchange_id: exchanges[0].id,
				wire_id: wires[0].id,
			}),
			expect.objectContaining({
				status: 'wired',
				exchanged_value: '3.10',
				exchange_id: exchanges[0].id,
				wire_id: wires[0].id,
			}),
		]);
		expect(events.map((event) => event.type)).toEqual(['exchange_created', 'wire_created']);
	});

	test('another subject or another destination makes another group', () => {
		const { env } = transactionTestEnv();
		const other = { ...SUBJECT, id: 'a1b2c3d4-0000-4000-8000-000000000002' };
		storedTransaction(env);
		storedTransaction(env, { subject: other });
		storedTransaction(env, {
			exchange_currency: 'EUR',
			to_bank_account_id: ACCOUNT_IDS.eurDestination,
		});
		const { exchanges, wires } = settle(env);
		expect(
			exchanges.map((ex) => [ex.subject_id, ex.to_bank_account_id, ex.exchanged_value]),
		).toEqual([
			[SUBJECT.id, ACCOUNT_IDS.usdDestination, '2.00'],
			[other.id, ACCOUNT_IDS.usdDestination, '2.00'],
			[SUBJECT.id, ACCOUNT_IDS.eurDestination, '1.81'],
		]);
		expect(wires.map((wire) => [wire.currency, wire.value])).toEqual([
			['USD', '2.00'],
			['USD', '2.00'],
			['EUR', '1.81'],
		]);
	});

	test.each([
		['BRL to a Brazilian external account', ACCOUNT_IDS.brlCustomer, 'BRL', 'ted'],
		['USD to an international account', ACCOUNT_IDS.usdDestination, 'USD', 'swift'],
	])('without exchange, %s is wired by %s', (_, to, currency, method) => {
		const { env } = transactionTestEnv();
		const transaction = storedTransaction(env, {
			currency,
			exchange_currency: currency,
			to_bank_account_id: to,
		});
		const { exchanges, wires } = settle(env);
		expect(exchanges).toEqual([]);
		expect(wires).toEqual([expect.objectContaining({ method, value: '10.00' })]);
		expect(transaction.status).toBe('wired');
	});

	test('a payout is wired by its own method', () => {
		const { env } = transactionTestEnv();
		const transaction = storedTransaction(env, { currency: 'USD', exchange_currency: 'USD' });
		transaction.payout_method = 'pix';
		expect(settle(env).wires[0].method).toBe('pix');
	});

	test.each([
		['BRL', ACCOUNT_IDS.brlNoPixKey, 'identified', 0],
		['USD', ACCOUNT_IDS.usdCashOut, 'exchanged', 1],
	])(
		'money for %s kept in an internal account is not wired (%s, %i exchange)',
		(currency, to, status, exchanged) => {
			const { env } = transactionTestEnv();
			const transaction = storedTransaction(env, {
				exchange_currency: currency,
				to_bank_account_id: to,
			});
			const { exchanges, wires } = settle(env);
			expect([transaction.status, exchanges.length, wires]).toEqual([status, exchanged, []]);
		},
	);

	test.each([
		['not cleared', (transaction) => (transaction.cleared = false)],
		['still pending', (transaction) => (transaction.status = 'pending')],
		['canceled', (transaction) => (transaction.status = 'canceled')],
		['already wired', (transaction) => (transaction.status = 'wired')],
	])('a transaction %s is left alone', (_, change) => {
		const { env, events } = transactionTestEnv();
		const transaction = storedTransaction(env);
		change(transaction);
		const before = { ...transaction };
		expect(settle(env)).toEqual({ exchanges: [], wires: [] });
		expect(transaction).toEqual(before);
		expect(events).toEqual([]);
	});

	test('a stablecoin pay-in is exchanged at the USD rate, as its estimate said', () => {
		const { env } = transactionTestEnv();
		const transaction = storedTransaction(env, {
			value: '100.00',
			currency: 'USDT',
			exchange_currency: 'USD',
			to_bank_account_id: undefined,
		});
		expect(transaction.estimated_value_until_exchange).toBe('100.00');
		const { exchanges } = settle(env);
		expect(transaction.exchanged_value).toBe('100.00');
		expect(exchanges[0].exchanged_value).toBe('100.00');
	});

	test.each(Object.entries(WIRE_ERRORS))(
		'played %s, the wire waits for correction (wire_waiting_correction)',
		(code, description) => {
			const { env, events } = transactionTestEnv();
			const transaction = storedTransaction(env);
			const { wires } = settle(env, { wire_error_code: code });
			expect(wires[0]).toMatchObject({
				status: 'waiting_correction',
				error_code: code,
				error_description: description,
			});
			expect(transaction.status).toBe('exchanged');
			expect(events.at(-1)).toEqual({
				type: 'wire_waiting_correction',
				error_code: code,
				error_description: description,
				bank_account_owner_id: SUBJECT.id,
				bank_account_id: ACCOUNT_IDS.usdDestination,
				transaction_ids: [transaction.id],
				wire_id: wires[0].id,
			});
		},
	);

	test('an unknown wire error code is refused before anything moves', () => {
		const { env, events } = transactionTestEnv();
		const transaction = storedTransaction(env);
		expect(refusal(() => settle(env, { wire_error_code: 'XX99' }))).toEqual({
			errors: { wire_error_code: ['must be one of: AC03, AC14, CH11, AG03'] },
		});
		expect(transaction.status).toBe('identified');
		expect(events).toEqual([]);
	});

	test('`only` limits the step to the transactions named', () => {
		const { env } = transactionTestEnv();
		const named = storedTransaction(env);
		const other = storedTransaction(env, {
			exchange_currency: 'EUR',
			to_bank_account_id: ACCOUNT_IDS.eurDestination,
		});
		settle(env, { only: new Set([named.id]) });
		expect([named.status, other.status]).toEqual(['wired', 'identified']);
	});
});

describe('a grouped wire (many pay-ins, one exchange, one wire)', () => {
	test('three pay-ins of 10.00 BRL: one exchange of 30.00 into 6.00 USD, one wire naming all', () => {
		const { env, events } = transactionTestEnv();
		const result = groupedWire({ subject_id: SUBJECT.id, count: 3 }, env);
		expect(result.transaction_ids).toHaveLength(3);
		expect(result.exchanges).toEqual([
			expect.objectContaining({
				value: '30.00',
				exchanged_value: '6.00',
				transaction_ids: result.transaction_ids,
			}),
		]);
		expect(result.wires).toEqual([
			expect.objectContaining({
				value: '6.00',
				status: 'sent',
				transaction_ids: result.transaction_ids,
			}),
		]);
		expect(events.map((event) => event.type)).toEqual(['exchange_created', 'wire_created']);
	});

	test('by default 40 pay-ins of 10.00', () => {
		const { env } = transactionTestEnv();
		const result = groupedWire({ subject_id: SUBJECT.id }, env);
		expect(result.transaction_ids).toHaveLength(40);
		expect(result.exchanges[0].value).toBe('400.00');
	});

	test.each([
		[{ count: 0 }, { count: ['must be a whole number from 1 to 1000'] }],
		[{ count: 1001 }, { count: ['must be a whole number from 1 to 1000'] }],
		[{ count: 2.5 }, { count: ['must be a whole number from 1 to 1000'] }],
		[{ value: '10' }, { value: ['must be a string with two decimals'] }],
		[{ value: 10 }, { value: ['must be a string with two decimals'] }],
		[{ subject_id: undefined }, { subject_id: ["can't be blank"] }],
		[{ subject_id: 'nobody' }, { subject_id: ['was not found'] }],
	])('%p is refused', (fields, errors) => {
		const { env, state } = transactionTestEnv();
		expect(refusal(() => groupedWire({ subject_id: SUBJECT.id, ...fields }, env))).toEqual({
			errors,
		});
		expect(state.transactions.size).toBe(0);
	});
});
