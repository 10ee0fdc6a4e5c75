import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	CLOCK_SKEW_MS,
	findSent,
	MAX_PAGES,
	moneyKey,
	parseServiceTime,
	type FindSentResult,
} from '../../../../nodes/FacilitaPay/actions/common/findSent';
import type { ApiRequest } from '../../../../nodes/FacilitaPay/transport';

const ctx = {} as IExecuteFunctions;

/** The first attempt of the request looked up. */
const SINCE = Date.parse('2025-06-01T12:00:00Z');
const at = (seconds: number) => new Date(SINCE + seconds * 1000).toISOString();

const SUBJECT = '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c';
const CASH_OUT = 'acc-usd-cash-out';
const CUSTOMER = 'acc-brl-customer';
const PIX_ACCOUNT = 'acc-brl-pix';
const CASH_IN = 'acc-usd-cash-in';

type Route = (request: ApiRequest) => unknown;

/** A scripted FacilitaPay: answers reads by path, records every read. */
function service(routes: Record<string, Route>) {
	const sent: ApiRequest[] = [];
	const read = async (request: ApiRequest): Promise<unknown> => {
		sent.push(request);
		const route = routes[request.path];
		if (!route) throw new Error('FacilitaPay did not find the record (HTTP 404)');
		return route(request);
	};
	return { read, sent };
}

/** A list paged by `last_id` like the sandbox's (and every documented list). */
function paged(records: IDataObject[], pageSize = 100): Route {
	return (request) => {
		const lastId = request.qs?.last_id;
		const start = lastId ? records.findIndex((record) => record.id === lastId) + 1 : 0;
		return records.slice(start, start + pageSize);
	};
}

const subjectList = (records: IDataObject[]) =>
	service({ [`/subject/${SUBJECT}/transactions`]: paged(records) });

async function lookup(
	request: ApiRequest,
	read: (request: ApiRequest) => Promise<unknown>,
	taken = new Set<string>(),
	since = SINCE,
): Promise<FindSentResult> {
	return await findSent.call(ctx, request, since, taken, read);
}

/** found:<id> | notFound | cannotTell */
function outcome(result: FindSentResult): string {
	if ('found' in result) return `found:${String(result.found.id)}`;
	if ('notFound' in result) return 'notFound';
	return 'cannotTell';
}

const short = (expected: string) =>
	expected === 'found' ? expect.stringMatching(/^found:/) : expected;

/** Table rows [what, input, expected], titled "what → expected". */
function titled<T>(rows: Array<[string, T, string]>): Array<[string, T, string]> {
	return rows.map(([what, input, expected]) => [`${what} → ${expected}`, input, expected]);
}

// ---- request and record shapes ------------------------------------------------------------

const payoutRequest = (fields: IDataObject = {}): ApiRequest => ({
	method: 'POST',
	path: '/transactions',
	body: {
		transaction: {
			subject_id: SUBJECT,
			from_bank_account_id: CASH_OUT,
			to_bank_account_id: CUSTOMER,
			currency: 'USD',
			exchange_currency: 'BRL',
			value: '10.50',
			...fields,
		},
	},
	retry: 'sendOnce',
	itemIndex: 0,
});

/** A payout as GET /transactions/:id shows it (service-facts.md), created 5 s after the attempt. */
const payoutRecord = (fields: IDataObject = {}): IDataObject => ({
	id: 'tx-1',
	value: '10.50',
	status: 'identified',
	currency: 'USD',
	exchange_currency: 'BRL',
	to_bank_account: { id: CUSTOMER, currency: 'BRL' },
	from_bank_account: { id: CASH_OUT, currency: 'USD' },
	from_credit_card: null,
	subject_id: SUBJECT,
	subject_is_receiver: true,
	inserted_at: at(5),
	dynamic_pix_code: null,
	...fields,
});

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

// ---- the rules on their own ---------------------------------------------------------------

describe('moneyKey: amounts compared as money, never as floats', () => {
	it.each([
		['10.50', '10.5'],
		['10.5', '10.5'],
		[10.5, '10.5'],
		['10', '10'],
		['10.00', '10'],
		['010.00', '10'],
		[' 15000 ', '15000'],
		['0.10', '0.1'],
		['0.00', '0'],
		['12345678901234.50', '12345678901234.5'],
		['10,50', undefined],
		['-10.50', undefined],
		['R$ 10.50', undefined],
		[-1, undefined],
		[Number.NaN, undefined],
		[1e21, undefined],
		[null, undefined],
		[undefined, undefined],
	])('%p → %p', (value, key) => {
		expect(moneyKey(value)).toBe(key);
	});
});

describe('parseServiceTime: the times FacilitaPay writes', () => {
	it.each([
		['2025-06-01T12:00:00Z', Date.parse('2025-06-01T12:00:00Z'), true],
		['2025-06-01T12:00:00.123456Z', Date.parse('2025-06-01T12:00:00.123Z'), true],
		['2025-06-01T09:00:00-03:00', Date.parse('2025-06-01T12:00:00Z'), true],
		['2025-06-01T09:00:00-0300', Date.parse('2025-06-01T12:00:00Z'), true],
		['2025-06-01 12:00:00', Date.parse('2025-06-01T12:00:00Z'), false],
		['2025-06-01T12:00:00', Date.parse('2025-06-01T12:00:00Z'), false],
		['2025-06-01T12:00', Date.parse('2025-06-01T12:00:00Z'), false],
		[1748779200, Date.parse('2025-06-01T12:00:00Z'), true],
		[1748779200000, Date.parse('2025-06-01T12:00:00Z'), true],
	])('%p', (value, ms, zoned) => {
		expect(parseServiceTime(value)).toEqual({ ms, zoned });
	});

	it.each([['2025-06-01'], ['yesterday'], ['2025-13-45T99:00:00Z'], [''], [null], [0]])(
		'%p is not a time',
		(value) => {
			expect(parseServiceTime(value)).toBeUndefined();
		},
	);
});

// ---- POST /transactions and /transactions/checkout -----------------------------------------

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

describe('Several records match: the oldest not taken, each claimed once', () => {
	const three = () => [
		payoutRecord({ id: 'tx-a', inserted_at: at(30) }),
		payoutRecord({ id: 'tx-b', inserted_at: at(10) }),
		payoutRecord({ id: 'tx-c', inserted_at: at(20) }),
	];

	it('claims the oldest, then the next, then finds none', async () => {
		const { read } = subjectList(three());
		const taken = new Set<string>();
		const results: string[] = [];
		for (let i = 0; i < 4; i++) results.push(outcome(await lookup(payoutRequest(), read, taken)));
		expect(results).toEqual(['found:tx-b', 'found:tx-c', 'found:tx-a', 'notFound']);
		expect([...taken].sort()).toEqual(['tx-a', 'tx-b', 'tx-c']);
	});

	it('records listed with the same time: the first listed', async () => {
		const { read } = subjectList([
			payoutRecord({ id: 'tx-first' }),
			payoutRecord({ id: 'tx-second' }),
		]);
		expect(outcome(await lookup(payoutRequest(), read))).toBe('found:tx-first');
	});

	it('a record another item took is never claimed, even when it is the only one', async () => {
		const { read } = subjectList([payoutRecord()]);
		expect(await lookup(payoutRequest(), read, new Set(['tx-1']))).toEqual({ notFound: true });
	});

	it('a sure match wins over one that cannot be compared', async () => {
		const { read } = subjectList([
			payoutRecord({ id: 'tx-unsure', inserted_at: undefined }),
			payoutRecord({ id: 'tx-sure' }),
		]);
		expect(outcome(await lookup(payoutRequest(), read))).toBe('found:tx-sure');
	});

	it('once the sure one is taken, the unsure one makes it cannotTell, naming it', async () => {
		const { read } = subjectList([
			payoutRecord({ id: 'tx-unsure', inserted_at: undefined }),
			payoutRecord({ id: 'tx-sure' }),
		]);
		const result = await lookup(payoutRequest(), read, new Set(['tx-sure']));
		expect(result).toEqual({
			cannotTell: expect.stringContaining('ID tx-unsure (it shows no creation time)'),
		});
	});

	it('lookups of one run that run at the same time never claim the same record', async () => {
		const { read } = subjectList(three());
		const taken = new Set<string>();
		const results = await Promise.all(
			[0, 1, 2, 3].map(async () => outcome(await lookup(payoutRequest(), read, taken))),
		);
		expect(results.filter((result) => result.startsWith('found:')).sort()).toEqual([
			'found:tx-a',
			'found:tx-b',
			'found:tx-c',
		]);
		expect(results.filter((result) => result === 'notFound')).toHaveLength(1);
	});
});

describe('Reading a list to its end', () => {
	const many = (count: number, prefix = 'tx-') =>
		Array.from({ length: count }, (_unused, i) =>
			payoutRecord({ id: `${prefix}${i + 1}`, value: '1.00' }),
		);

	it('follows last_id page after page until an empty page, and finds a match on the third', async () => {
		const records = [...many(249), payoutRecord({ id: 'tx-match' })];
		const { read, sent } = subjectList(records);
		expect(outcome(await lookup(payoutRequest(), read))).toBe('found:tx-match');
		expect(sent.map((request) => request.qs?.last_id)).toEqual([
			undefined,
			'tx-100',
			'tx-200',
			'tx-match',
		]);
		expect(sent.every((request) => request.retry === 'safe' && request.method === 'GET')).toBe(
			true,
		);
	});

	it('does not stop at a short page: the page size is not known', async () => {
		const records = [...many(30), payoutRecord({ id: 'tx-match' })];
		const { read, sent } = service({
			[`/subject/${SUBJECT}/transactions`]: paged(records, 20),
		});
		expect(outcome(await lookup(payoutRequest(), read))).toBe('found:tx-match');
		expect(sent).toHaveLength(3);
	});

	it('a service that ignores last_id and sends a short list whole is read once more, then settled', async () => {
		const { read, sent } = service({
			[`/subject/${SUBJECT}/transactions`]: () => many(3),
		});
		expect(await lookup(payoutRequest(), read)).toEqual({ notFound: true });
		expect(sent).toHaveLength(2);
	});

	it('a service that sends the same 100 records again cannot settle it', async () => {
		const { read } = service({ [`/subject/${SUBJECT}/transactions`]: () => many(100) });
		expect(await lookup(payoutRequest(), read)).toEqual({
			cannotTell: expect.stringContaining('did not go past its first 100 records'),
		});
	});

	it(`more than ${MAX_PAGES} pages cannot settle it`, async () => {
		let page = 0;
		const { read, sent } = service({
			[`/subject/${SUBJECT}/transactions`]: () => many(100, `p${++page}-`),
		});
		expect(await lookup(payoutRequest(), read)).toEqual({
			cannotTell: expect.stringContaining(`more than ${MAX_PAGES} pages`),
		});
		expect(sent).toHaveLength(MAX_PAGES);
	});

	it('a read that fails cannot settle it, and says why', async () => {
		const { read } = service({});
		expect(await lookup(payoutRequest(), read)).toEqual({
			cannotTell: expect.stringContaining('could not be read: FacilitaPay did not find the record'),
		});
	});

	it.each<[string, unknown]>([
		['an object instead of a list', { id: 'x' }],
		['a list with text in it', ['tx-1']],
		['a page ending with a record without an ID', [payoutRecord({ value: '1.00', id: undefined })]],
	])('%s cannot settle it', async (_name, answer) => {
		const { read } = service({ [`/subject/${SUBJECT}/transactions`]: () => answer });
		expect(outcome(await lookup(payoutRequest(), read))).toBe('cannotTell');
	});
});

// ---- POST /subscriptions ----------------------------------------------------------------------

const pixSubscriptionRequest = (fields: IDataObject = {}): ApiRequest => ({
	method: 'POST',
	path: '/subscriptions',
	body: {
		subscription: {
			value: '49.90',
			currency: 'BRL',
			frequency: 'month',
			cycles: 3,
			to_bank_account_id: CASH_IN,
			subject_id: SUBJECT,
			from_bank_account_id: PIX_ACCOUNT,
			...fields,
		},
	},
	retry: 'sendOnce',
});

const cardSubscriptionRequest = (): ApiRequest => {
	const request = pixSubscriptionRequest({ from_bank_account_id: undefined });
	(request.body!.subscription as IDataObject).from_card = {
		card_type: 'credit',
		card_number: '4111111111111111',
		card_expiration_date: '08/2030',
		card_brand: 'visa',
		card_security_code: '737',
		fullname: 'Maria Silva',
	};
	return request;
};

const subscriptionRecord = (fields: IDataObject = {}): IDataObject => ({
	id: 'sub-1',
	status: 'pending',
	subject_id: SUBJECT,
	value: '49.90',
	currency: 'BRL',
	frequency: 'month',
	cycles: 3,
	to_bank_account_id: CASH_IN,
	from_bank_account_id: PIX_ACCOUNT,
	from_card: null,
	from_pix: null,
	inserted_at: at(1),
	...fields,
});

const cardRecord = (fields: IDataObject = {}): IDataObject =>
	subscriptionRecord({
		from_bank_account_id: null,
		from_card: { card_type: 'credit', card_brand: 'visa', last4: '1111' },
		...fields,
	});

describe('Subscription create: the partner’s subscriptions', () => {
	it.each(
		titled<IDataObject>([
			['the same automatic PIX subscription', {}, 'found'],
			['its value written "49.9"', { value: '49.9' }, 'found'],
			['its cycles as text', { cycles: '3' }, 'found'],
			['another value', { value: '59.90' }, 'notFound'],
			['another subject', { subject_id: 'another-subject' }, 'notFound'],
			['another frequency', { frequency: 'week' }, 'notFound'],
			['other cycles', { cycles: 4 }, 'notFound'],
			['another destination account', { to_bank_account_id: 'acc-other' }, 'notFound'],
			['another source account', { from_bank_account_id: 'acc-other' }, 'notFound'],
			['a card instead', { from_bank_account_id: null, from_card: { last4: '1111' } }, 'notFound'],
			['created before the first attempt', { inserted_at: at(-300) }, 'notFound'],
			[
				'only what the spec shows (id, status, subject_id)',
				{
					value: undefined,
					currency: undefined,
					frequency: undefined,
					cycles: undefined,
					to_bank_account_id: undefined,
					from_bank_account_id: undefined,
					inserted_at: undefined,
				},
				'cannotTell',
			],
		]),
	)('a record: %s', async (_name, fields, expected) => {
		const { read, sent } = service({ '/subscriptions': paged([subscriptionRecord(fields)]) });
		expect(outcome(await lookup(pixSubscriptionRequest(), read))).toEqual(short(expected));
		expect(sent[0]).toEqual({ method: 'GET', path: '/subscriptions', retry: 'safe' });
	});

	it.each(
		titled<IDataObject>([
			['the same card (last four digits)', {}, 'found'],
			['another card', { from_card: { last4: '4242' } }, 'notFound'],
			[
				'an automatic PIX subscription',
				{ from_card: null, from_bank_account_id: PIX_ACCOUNT },
				'notFound',
			],
			['a card without its last digits', { from_card: { card_brand: 'visa' } }, 'cannotTell'],
		]),
	)('a card subscription against a record: %s', async (_name, fields, expected) => {
		const { read } = service({ '/subscriptions': paged([cardRecord(fields)]) });
		expect(outcome(await lookup(cardSubscriptionRequest(), read))).toEqual(short(expected));
	});

	it('never writes card data into its reason', async () => {
		const { read } = service({ '/subscriptions': paged([cardRecord({ value: undefined })]) });
		const result = await lookup(cardSubscriptionRequest(), read);
		expect(JSON.stringify(result)).not.toMatch(/4111111111111111|737/);
	});
});

// ---- requests on one record: its status tells ----------------------------------------------

describe('Status lookups: cancel and 3-D Secure of a subscription, cancel and refund of a transaction', () => {
	const subscription = (status: unknown) =>
		service({ '/subscriptions/sub-1': () => ({ id: 'sub-1', status }) });
	const transaction = (status: unknown) =>
		service({ '/transactions/tx-1': () => ({ id: 'tx-1', status }) });

	const cancelSubscription: ApiRequest = {
		method: 'PUT',
		path: '/subscriptions/sub-1/cancel',
		body: { reason: 'Customer asked' },
		retry: 'sendOnce',
	};
	const threeds: ApiRequest = {
		method: 'POST',
		path: '/subscriptions/sub-1/threeds_challenge',
		body: { credit_card: { card_number: '4111111111111111' } },
		retry: 'sendOnce',
	};
	const cancelTransaction: ApiRequest = {
		method: 'GET',
		path: '/transactions/tx-1/refund',
		retry: 'sendOnce',
	};
	const refund: ApiRequest = {
		method: 'GET',
		path: '/transactions/tx-1/refund_received_transaction',
		retry: 'sendOnce',
	};

	it.each<[string, unknown, string]>([
		['Subscription > Cancel', 'canceled', 'found:sub-1'],
		['Subscription > Cancel', 'cancelled', 'found:sub-1'],
		['Subscription > Cancel', 'active', 'notFound'],
		['Subscription > Cancel', 'pending', 'notFound'],
		['Subscription > Cancel', 'completed', 'notFound'],
		['Subscription > Cancel', 'suspended', 'cannotTell'],
		['Subscription > Cancel', undefined, 'cannotTell'],
		['Subscription > 3-D Secure', 'active', 'found:sub-1'],
		['Subscription > 3-D Secure', 'completed', 'found:sub-1'],
		['Subscription > 3-D Secure', 'pending', 'cannotTell'],
		['Subscription > 3-D Secure', 'canceled', 'cannotTell'],
	])('%s, subscription %p → %s', async (operation, status, expected) => {
		const { read, sent } = subscription(status);
		const request = operation.endsWith('Cancel') ? cancelSubscription : threeds;
		expect(outcome(await lookup(request, read))).toBe(expected);
		expect(sent).toEqual([{ method: 'GET', path: '/subscriptions/sub-1', retry: 'safe' }]);
	});

	it.each<[string, unknown, string]>([
		['Transaction > Cancel', 'canceled', 'found:tx-1'],
		['Transaction > Cancel', 'pending', 'notFound'],
		['Transaction > Cancel', 'identified', 'notFound'],
		['Transaction > Cancel', 'wired', 'notFound'],
		['Transaction > Cancel', 'refunding', 'cannotTell'],
		['Transaction > Refund', 'canceled', 'found:tx-1'],
		['Transaction > Refund', 'pending', 'notFound'],
		['Transaction > Refund', 'identified', 'cannotTell'],
		['Transaction > Refund', 'exchanged', 'cannotTell'],
		['Transaction > Refund', 'wired', 'cannotTell'],
		['Transaction > Refund', null, 'cannotTell'],
	])('%s, transaction %p → %s', async (operation, status, expected) => {
		const { read, sent } = transaction(status);
		const request = operation.endsWith('Cancel') ? cancelTransaction : refund;
		expect(outcome(await lookup(request, read))).toBe(expected);
		expect(sent).toEqual([{ method: 'GET', path: '/transactions/tx-1', retry: 'safe' }]);
	});

	it('a refund of a received payment says the refund is a record of its own', async () => {
		const { read } = transaction('identified');
		expect(await lookup(refund, read)).toEqual({
			cannotTell: expect.stringContaining('a refund is a record of its own'),
		});
	});

	it('a record that cannot be read cannot settle it', async () => {
		const { read } = service({});
		expect(outcome(await lookup(cancelSubscription, read))).toBe('cannotTell');
		expect(outcome(await lookup(refund, read))).toBe('cannotTell');
	});
});

// ---- POST /subject/:id/documents --------------------------------------------------------------

describe('Document upload: the person’s documents', () => {
	const upload = (document: IDataObject): ApiRequest => ({
		method: 'POST',
		path: `/subject/${SUBJECT}/documents`,
		body: { document },
		retry: 'sendOnce',
	});
	const byData = upload({
		labels: ['rg-photo', 'cpf-number'],
		file_type: 'image/png',
		file_name: 'rg.png',
		file_data: 'iVBORw0KGgo=',
	});
	const byUrl = upload({
		labels: ['address-proof'],
		file_type: 'application/pdf',
		file_url: 'https://example.com/proof.pdf',
	});
	const stored = (fields: IDataObject = {}): IDataObject => ({
		id: 'doc-1',
		labels: ['cpf-number', 'rg-photo'],
		file_type: 'image/png',
		file_name: 'rg.png',
		file_url: null,
		status: 'pending_analysis',
		inserted_at: at(2),
		...fields,
	});
	const person = (documents: unknown) =>
		service({ [`/subject/people/${SUBJECT}`]: () => ({ id: SUBJECT, documents }) });

	it.each(
		titled<IDataObject>([
			['the same labels in another order, type and name', {}, 'found:doc-1'],
			['other labels', { labels: ['rg-photo'] }, 'notFound'],
			['another file name', { file_name: 'other.png' }, 'notFound'],
			['another file type', { file_type: 'image/jpeg' }, 'notFound'],
			['uploaded before the first attempt', { inserted_at: at(-3600) }, 'notFound'],
			['no upload time', { inserted_at: undefined }, 'cannotTell'],
			['no labels', { labels: undefined }, 'cannotTell'],
		]),
	)('a document: %s', async (_name, fields, expected) => {
		const { read, sent } = person([stored(fields)]);
		expect(outcome(await lookup(byData, read))).toBe(expected);
		expect(sent).toEqual([{ method: 'GET', path: `/subject/people/${SUBJECT}`, retry: 'safe' }]);
	});

	it('a document sent by URL is matched on its URL', async () => {
		const document = stored({
			id: 'doc-2',
			labels: ['address-proof'],
			file_type: 'application/pdf',
			file_name: null,
			file_url: 'https://example.com/proof.pdf',
		});
		expect(outcome(await lookup(byUrl, person([document]).read))).toBe('found:doc-2');
		const other = { ...document, file_url: 'https://example.com/other.pdf' };
		expect(outcome(await lookup(byUrl, person([other]).read))).toBe('notFound');
	});

	it('a subject that cannot be read (a company) or shows no documents cannot settle it', async () => {
		expect(await lookup(byData, service({}).read)).toEqual({
			cannotTell: expect.stringContaining('A company subject cannot be read'),
		});
		expect(outcome(await lookup(byData, person(undefined).read))).toBe('cannotTell');
	});
});

// ---- requests nothing at FacilitaPay can look up --------------------------------------------

describe('Requests FacilitaPay offers no way to look up', () => {
	it.each<[string, ApiRequest, string]>([
		[
			'Marketplace Account > Request Authorization',
			{ method: 'POST', path: `/subject/${SUBJECT}/account_request`, retry: 'sendOnce' },
			'subject_account_authorization',
		],
		[
			'Marketplace Account > Request Bank Account',
			{
				method: 'POST',
				path: '/bank/accounts/request',
				body: { subject_id: SUBJECT },
				retry: 'sendOnce',
			},
			'account_request_status',
		],
		[
			'Wire > Update Bank Account',
			{ method: 'PUT', path: '/wires/wire-1/update_bank_account', body: {}, retry: 'sendOnce' },
			'wire_created',
		],
		[
			'a card payment on POST /transactions',
			{
				method: 'POST',
				path: '/transactions',
				body: { transaction: { subject_id: SUBJECT, value: '1.00', from_credit_card: {} } },
				retry: 'sendOnce',
			},
			'neither a payout',
		],
		[
			'an unknown money request',
			{ method: 'POST', path: '/payments', retry: 'sendOnce' },
			'POST /payments',
		],
	])('%s → cannotTell, nothing read', async (_name, request, words) => {
		const { read, sent } = service({});
		expect(await lookup(request, read)).toEqual({ cannotTell: expect.stringContaining(words) });
		expect(sent).toHaveLength(0);
	});

	it('a read (retry "safe") needs no lookup: not found, send it', async () => {
		const { read, sent } = service({});
		const request: ApiRequest = { method: 'GET', path: '/subject/people', retry: 'safe' };
		expect(await lookup(request, read)).toEqual({ notFound: true });
		expect(sent).toHaveLength(0);
	});
});
