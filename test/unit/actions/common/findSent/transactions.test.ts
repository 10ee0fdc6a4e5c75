import type { IDataObject } from 'n8n-workflow';

import { CLOCK_SKEW_MS } from '../../../../../nodes/FacilitaPay/actions/common/findSent/candidates';
import type { ApiRequest } from '../../../../../nodes/FacilitaPay/transport';
import {
	at,
	CASH_IN,
	CUSTOMER,
	lookup,
	outcome,
	payoutRecord,
	payoutRequest,
	PIX_ACCOUNT,
	service,
	short,
	SUBJECT,
	subjectList,
	titled,
} from './fixtures';

const pixRequest = (fields: IDataObject = {}): ApiRequest => ({
	method: 'POST',
	path: '/transactions',
	body: {
		transaction: {
			subject_id: SUBJECT,
			from_bank_account_id: PIX_ACCOUNT,
			to_bank_account_id: CASH_IN,
			currency: 'BRL',
			exchange_currency: 'USD',
			value: '150.00',
			use_dynamic_pix: true,
			dynamic_pix_expires_at: '2025-06-01T13:00:00Z',
			...fields,
		},
	},
	retry: 'sendOnce',
});

const pixRecord = (fields: IDataObject = {}): IDataObject => ({
	id: 'tx-pix',
	value: '150.00',
	status: 'pending',
	currency: 'BRL',
	exchange_currency: 'USD',
	to_bank_account: { id: CASH_IN },
	from_bank_account: { id: PIX_ACCOUNT },
	from_credit_card: null,
	subject_id: SUBJECT,
	subject_is_receiver: false,
	inserted_at: at(2),
	dynamic_pix_code: '00020101021226...6304ABCD',
	meta: { dynamic_pix_due_date: '2025-06-01T13:00:00Z' },
	...fields,
});

const boletoRequest = (fields: IDataObject = {}): ApiRequest => ({
	method: 'POST',
	path: '/transactions',
	body: {
		transaction: {
			subject_id: SUBJECT,
			to_bank_account_id: CASH_IN,
			currency: 'BRL',
			exchange_currency: 'USD',
			value: '99.90',
			from_boleto: { expire_at: '2025-06-04' },
			...fields,
		},
	},
	retry: 'sendOnce',
});

const boletoRecord = (fields: IDataObject = {}): IDataObject => ({
	id: 'tx-boleto',
	value: '99.90',
	status: 'pending',
	currency: 'BRL',
	exchange_currency: 'USD',
	to_bank_account: { id: CASH_IN },
	from_bank_account: null,
	subject_id: SUBJECT,
	subject_is_receiver: false,
	inserted_at: at(3),
	dynamic_pix_code: null,
	from_boleto: { expire_at: '2025-06-04' },
	bar_code: '34195819600000000621090063571277307144464000',
	digital_line: '34191090086357127730871444640008581960000000062',
	...fields,
});

const checkoutRequest = (fields: IDataObject = {}): ApiRequest => ({
	method: 'POST',
	path: '/transactions/checkout',
	body: {
		subject_id: SUBJECT,
		value: '75.00',
		currency: 'BRL',
		exchange_currency: 'USD',
		to_bank_account_id: CASH_IN,
		...fields,
	},
	retry: 'sendOnce',
});

/** A card attempt made on a checkout page (payment_failed / payment_approved carry checkout_id). */
const attemptRecord = (fields: IDataObject = {}): IDataObject => ({
	id: 'tx-card-1',
	checkout_id: 'checkout-1',
	value: '75.00',
	status: 'canceled',
	currency: 'BRL',
	exchange_currency: 'USD',
	to_bank_account: { id: CASH_IN },
	from_bank_account: null,
	from_credit_card: { brand: 'visa', last4: '0002' },
	subject_id: SUBJECT,
	subject_is_receiver: false,
	inserted_at: at(40),
	...fields,
});

describe('Payout: the subject’s transactions with the same value, accounts and currencies since the first attempt', () => {
	it.each(
		titled<IDataObject>([
			['the same payout', {}, 'found'],
			['its value written "10.5"', { value: '10.5' }, 'found'],
			['its value as the number 10.5', { value: 10.5 }, 'found'],
			['another value', { value: '10.51' }, 'notFound'],
			['no value', { value: undefined }, 'cannotTell'],
			['a value that is not an amount', { value: '10,50' }, 'cannotTell'],
			['its currency in lower case', { currency: 'usd' }, 'found'],
			['another currency', { currency: 'EUR' }, 'notFound'],
			['another exchange currency', { exchange_currency: 'USD' }, 'notFound'],
			['no currency', { currency: undefined }, 'cannotTell'],
			['another destination account', { to_bank_account: { id: 'acc-other' } }, 'notFound'],
			[
				'its destination as to_bank_account_id',
				{ to_bank_account: undefined, to_bank_account_id: CUSTOMER },
				'found',
			],
			['no destination account', { to_bank_account: null }, 'cannotTell'],
			['another source account', { from_bank_account: { id: 'acc-other' } }, 'notFound'],
			['no source account', { from_bank_account: null }, 'cannotTell'],
			['another subject', { subject_id: 'another-subject' }, 'notFound'],
			['no subject_id (the list is the subject’s)', { subject_id: undefined }, 'found'],
			['the subject as an object', { subject_id: undefined, subject: { id: SUBJECT } }, 'found'],
			['created 1 min before the first attempt (clock skew)', { inserted_at: at(-60) }, 'found'],
			['created 3 min before the first attempt', { inserted_at: at(-180) }, 'notFound'],
			['no creation time', { inserted_at: undefined }, 'cannotTell'],
			['its creation time in created_at', { inserted_at: undefined, created_at: at(5) }, 'found'],
			[
				'created after, written with an offset',
				{ inserted_at: '2025-06-01T09:00:30-03:00' },
				'found',
			],
			[
				'created before, written with an offset',
				{ inserted_at: '2025-06-01T08:55:00-03:00' },
				'notFound',
			],
			[
				'created after, written without a zone',
				{ inserted_at: '2025-06-01T12:00:05.123456' },
				'found',
			],
			['written without a zone, 3 h before', { inserted_at: '2025-06-01T09:00:05' }, 'cannotTell'],
			['written without a zone, 20 h before', { inserted_at: '2025-05-31T16:00:00' }, 'notFound'],
			['an unreadable creation time', { inserted_at: 'yesterday' }, 'cannotTell'],
			['a dynamic PIX (dynamic_pix_code)', { dynamic_pix_code: '000201…' }, 'notFound'],
			[
				'a boleto (bar_code)',
				{ bar_code: '34195819600000000621090063571277307144464000' },
				'notFound',
			],
			[
				'a pay-in (subject_is_receiver false): Create Local Pay-In sends the payout’s very fields',
				{ subject_is_receiver: false },
				'found',
			],
			['no subject_is_receiver', { subject_is_receiver: undefined }, 'found'],
			['a card payment (checkout_id)', { checkout_id: 'checkout-1' }, 'notFound'],
			['a canceled payout (still the record it created)', { status: 'canceled' }, 'found'],
			['no id', { id: undefined }, 'cannotTell'],
		]),
	)('a record: %s', async (_name, fields, expected) => {
		const { read } = subjectList([payoutRecord(fields)]);
		expect(outcome(await lookup(payoutRequest(), read))).toEqual(short(expected));
	});

	it('normalises the request’s value too ("10.5" finds "10.50")', async () => {
		const { read } = subjectList([payoutRecord()]);
		expect(outcome(await lookup(payoutRequest({ value: '10.5' }), read))).toBe('found:tx-1');
	});

	it('reads the subject’s transactions with GET and retry "safe", the subject ID encoded', async () => {
		const { read, sent } = subjectList([payoutRecord()]);
		await lookup(payoutRequest(), read);
		expect(sent[0]).toEqual({
			method: 'GET',
			path: `/subject/${SUBJECT}/transactions`,
			retry: 'safe',
		});
		const odd = service({});
		await lookup(payoutRequest({ subject_id: 'a/b c' }), odd.read);
		expect(odd.sent[0].path).toBe('/subject/a%2Fb%20c/transactions');
	});

	it('says what could not be compared and where to check', async () => {
		const { read } = subjectList([payoutRecord({ value: undefined })]);
		const result = await lookup(payoutRequest(), read);
		expect(result).toEqual({
			cannotTell: expect.stringContaining('ID tx-1 (its value could not be read)'),
		});
		expect((result as { cannotTell: string }).cannotTell).toMatch(/Subject > Get Transactions/);
	});

	it('a request without a subject cannot be looked up, and nothing is read', async () => {
		const { read, sent } = subjectList([payoutRecord()]);
		const result = await lookup(payoutRequest({ subject_id: '' }), read);
		expect(result).toEqual({ cannotTell: expect.stringContaining('subject_id') });
		expect(sent).toHaveLength(0);
	});

	it('the window starts 2 minutes before the first attempt', () => {
		expect(CLOCK_SKEW_MS).toBe(120_000);
	});
});

describe('Dynamic PIX', () => {
	it.each(
		titled<IDataObject>([
			['the same PIX', {}, 'found'],
			[
				'another expiry (an expression gives a new one on every execution)',
				{ meta: { dynamic_pix_due_date: '2025-06-01T13:00:09Z' } },
				'found',
			],
			['no dynamic_pix_code', { dynamic_pix_code: null }, 'found'],
			['another value', { value: '150.01' }, 'notFound'],
			['another source account', { from_bank_account: { id: PIX_ACCOUNT + '-2' } }, 'notFound'],
			['another destination account', { to_bank_account: { id: 'acc-eur' } }, 'notFound'],
			['another exchange currency', { exchange_currency: 'EUR' }, 'notFound'],
			['a boleto’s fields', { dynamic_pix_code: null, bar_code: '3419…' }, 'notFound'],
			[
				'a payout (subject_is_receiver true)',
				{ dynamic_pix_code: null, subject_is_receiver: true },
				'notFound',
			],
			['created before the first attempt', { inserted_at: at(-600) }, 'notFound'],
		]),
	)('a record: %s', async (_name, fields, expected) => {
		const { read } = subjectList([pixRecord(fields)]);
		expect(outcome(await lookup(pixRequest(), read))).toEqual(short(expected));
	});
});

describe('Boleto', () => {
	it.each(
		titled<IDataObject>([
			['the same boleto', {}, 'found'],
			[
				'another due date (an expression gives a new one on every execution)',
				{ from_boleto: { expire_at: '2025-06-05' } },
				'found',
			],
			[
				'no boleto fields (a record that shows no kind is taken: in doubt, not sent twice)',
				{ bar_code: undefined, digital_line: undefined, from_boleto: undefined },
				'found',
			],
			['another value', { value: '99.91' }, 'notFound'],
			['another currency', { currency: 'USD' }, 'notFound'],
			['another destination account', { to_bank_account: { id: 'acc-other' } }, 'notFound'],
			[
				'a dynamic PIX code',
				{
					bar_code: undefined,
					digital_line: undefined,
					from_boleto: undefined,
					dynamic_pix_code: '000201…',
				},
				'notFound',
			],
			['created before the first attempt', { inserted_at: at(-3600) }, 'notFound'],
		]),
	)('a record: %s', async (_name, fields, expected) => {
		const { read } = subjectList([boletoRecord(fields)]);
		expect(outcome(await lookup(boletoRequest(), read))).toEqual(short(expected));
	});

	it('prefers a record that shows it is a boleto over an older one that shows no kind', async () => {
		const receipt = boletoRecord({
			id: 'tx-receipt',
			inserted_at: at(1),
			bar_code: undefined,
			digital_line: undefined,
			from_boleto: undefined,
			bank_transaction: { id: 'bt-1' },
		});
		const { read } = subjectList([receipt, boletoRecord({ inserted_at: at(9) })]);
		const taken = new Set<string>();
		expect(outcome(await lookup(boletoRequest(), read, taken))).toBe('found:tx-boleto');
		expect(outcome(await lookup(boletoRequest(), read, taken))).toBe('found:tx-receipt');
	});
});

describe('Card checkout: found through its card attempts; never "not found"', () => {
	it.each(
		titled<IDataObject[]>([
			['a failed attempt on the checkout', [attemptRecord()], 'found:tx-card-1'],
			['an approved attempt', [attemptRecord({ status: 'identified' })], 'found:tx-card-1'],
			['no attempt yet (the page is listed nowhere)', [], 'cannotTell'],
			['an attempt of another value', [attemptRecord({ value: '75.01' })], 'cannotTell'],
			[
				'an attempt from before the first attempt',
				[attemptRecord({ inserted_at: at(-900) })],
				'cannotTell',
			],
			[
				'a dynamic PIX with the same fields',
				[pixRecord({ value: '75.00', to_bank_account: { id: CASH_IN }, from_bank_account: null })],
				'cannotTell',
			],
		]),
	)('%s', async (_name, records, expected) => {
		const { read } = subjectList(records);
		expect(outcome(await lookup(checkoutRequest(), read))).toBe(expected);
	});

	it('two attempts on one checkout are one checkout: the first attempt is returned, the checkout is taken', async () => {
		const { read } = subjectList([
			attemptRecord({ id: 'tx-card-2', inserted_at: at(50) }),
			attemptRecord({ id: 'tx-card-1', inserted_at: at(40) }),
		]);
		const taken = new Set<string>();
		expect(outcome(await lookup(checkoutRequest(), read, taken))).toBe('found:tx-card-1');
		expect(taken.has('checkout-1')).toBe(true);
		expect(await lookup(checkoutRequest(), read, taken)).toEqual({
			cannotTell: expect.stringContaining('checkout page nobody has tried to pay yet'),
		});
	});

	it('an attempt on a checkout another item took is not claimed', async () => {
		const { read } = subjectList([
			attemptRecord(),
			attemptRecord({ id: 'tx-card-9', checkout_id: 'checkout-2', inserted_at: at(45) }),
		]);
		const taken = new Set(['checkout-1']);
		expect(outcome(await lookup(checkoutRequest(), read, taken))).toBe('found:tx-card-9');
		expect(taken.has('checkout-2')).toBe(true);
	});
});
