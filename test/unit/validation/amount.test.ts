import {
	checkCurrency,
	checkMoney,
	checkIncome,
	checkMoneyIn,
	checkNonNegativeMoney,
	CURRENCIES,
	decimalsOf,
	STABLECOINS,
} from '../../../nodes/FacilitaPay/validation/amount';

describe('checkMoney', () => {
	it.each<[string | number, string]>([
		['10.50', '10.50'],
		['0.01', '0.01'],
		['  1234.56 ', '1234.56'],
		['010.00', '10.00'],
		['99999999999999999999.99', '99999999999999999999.99'],
		[10, '10.00'],
		[10.5, '10.50'],
		[10.55, '10.55'],
		[0.01, '0.01'],
		[0.1, '0.10'],
		[1234567.89, '1234567.89'],
		[9999999999999.99, '9999999999999.99'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkMoney(raw)).toEqual({ ok: true, value });
	});

	it.each<[string | number, string]>([
		['10', 'has no decimals; an amount needs exactly 2 decimals: write 10.00'],
		['10.5', 'has 1 decimal; an amount needs exactly 2 decimals: write 10.50'],
		['10.', 'has no decimals; an amount needs exactly 2 decimals: write 10.00'],
		[
			'10.555',
			'has 3 decimals; an amount has exactly 2 decimals, e.g. 10.50 (round it before sending)',
		],
		[
			'10,50',
			'contains a comma; use a dot as the decimal separator and no thousands separators, e.g. 10.50',
		],
		[
			'1.234,56',
			'contains a comma; use a dot as the decimal separator and no thousands separators, e.g. 1234.56',
		],
		[
			'1,234.56',
			'contains a comma; use a dot as the decimal separator and no thousands separators, e.g. 1234.56',
		],
		[
			'10,5',
			'contains a comma; use a dot as the decimal separator and no thousands separators, e.g. 10.50',
		],
		['0.00', 'is zero; enter an amount greater than zero, e.g. 10.50'],
		['0', 'is zero; enter an amount greater than zero, e.g. 10.50'],
		['-10.00', 'is negative; enter an amount greater than zero, e.g. 10.50'],
		['', 'is empty; enter an amount with two decimals, e.g. 10.50'],
		['   ', 'is empty; enter an amount with two decimals, e.g. 10.50'],
		[
			'R$ 10.50',
			'is not an amount; write digits with a dot and exactly 2 decimals, without currency symbols, e.g. 10.50',
		],
		[
			'abc',
			'is not an amount; write digits with a dot and exactly 2 decimals, without currency symbols, e.g. 10.50',
		],
		[
			'1e3',
			'is not an amount; write digits with a dot and exactly 2 decimals, without currency symbols, e.g. 10.50',
		],
		[
			10.555,
			'has 3 decimals; an amount has at most 2 decimals, e.g. 10.50 (round it before sending)',
		],
		[
			0.1 + 0.2,
			'has 17 decimals; an amount has at most 2 decimals, e.g. 10.50 (round it before sending)',
		],
		[1e-7, 'has more than 2 decimals; an amount has at most 2 decimals, e.g. 10.50'],
		[0, 'is zero; enter an amount greater than zero, e.g. 10.50'],
		[-5, 'is negative; enter an amount greater than zero, e.g. 10.50'],
		[NaN, 'is not a number; enter an amount such as 10.50'],
		[Infinity, 'is not a number; enter an amount such as 10.50'],
		[
			1e15,
			'is too large to be passed as a number without losing precision; pass it as text with 2 decimals, e.g. "12345678901234.50"',
		],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkMoney(raw)).toEqual({ ok: false, reason });
	});

	it('refuses a value that is neither text nor a number', () => {
		expect(checkMoney(undefined as unknown as string).ok).toBe(false);
	});
});

describe('checkCurrency', () => {
	it('lists the six currencies of the service, sorted', () => {
		expect(CURRENCIES).toEqual(['BRL', 'CLP', 'COP', 'EUR', 'MXN', 'USD']);
	});

	it.each([
		['BRL', undefined, 'BRL'],
		[' brl ', undefined, 'BRL'],
		['usd', ['BRL', 'USD', 'EUR'], 'USD'],
	])('accepts %j (allowed %j) as %j', (raw, allowed, value) => {
		expect(checkCurrency(raw, allowed)).toEqual({ ok: true, value });
	});

	it.each<[string, readonly string[] | undefined, string]>([
		['', undefined, 'is empty; use one of BRL, CLP, COP, EUR, MXN, USD'],
		[
			'R$',
			undefined,
			'is not a 3-letter currency code (ISO 4217); use one of BRL, CLP, COP, EUR, MXN, USD',
		],
		[
			'REAL',
			undefined,
			'is not a 3-letter currency code (ISO 4217); use one of BRL, CLP, COP, EUR, MXN, USD',
		],
		['GBP', undefined, 'is GBP; use one of BRL, CLP, COP, EUR, MXN, USD'],
		['MXN', ['BRL', 'USD', 'EUR'], 'is MXN; use one of BRL, USD, EUR'],
		['USD', ['BRL'], 'is USD; only BRL is accepted here'],
	])('rejects %j (allowed %j): %s', (raw, allowed, reason) => {
		expect(checkCurrency(raw, allowed)).toEqual({ ok: false, reason });
	});
});

describe('checkNonNegativeMoney', () => {
	it.each<[string | number, string]>([
		['0.00', '0.00'],
		[' 000.00 ', '0.00'],
		[0, '0.00'],
		['1500.00', '1500.00'],
		[1500, '1500.00'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkNonNegativeMoney(raw)).toEqual({ ok: true, value });
	});

	it.each<[string | number, string]>([
		['0', 'has no decimals; an amount needs exactly 2 decimals: write 0.00'],
		['0.0', 'has 1 decimal; an amount needs exactly 2 decimals: write 0.00'],
		['-1.00', 'is negative; enter an amount greater than zero, e.g. 10.50'],
		['1500', 'has no decimals; an amount needs exactly 2 decimals: write 1500.00'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkNonNegativeMoney(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkMoneyIn: decimals follow the currency', () => {
	it.each<[string | number, string, string]>([
		['15000', 'CLP', '15000'],
		['15000.00', 'clp', '15000'],
		[15000, 'CLP', '15000'],
		['10.50', 'BRL', '10.50'],
		[10.5, 'USDT', '10.50'],
	])('%p in %s is sent as %p', (raw, currency, expected) => {
		expect(checkMoneyIn(raw, currency)).toEqual({ ok: true, value: expected });
	});

	it.each<[string | number, string]>([
		['15000.5', 'CLP'],
		['15.000', 'CLP'],
		['15,000', 'CLP'],
		[1.5, 'CLP'],
		['-1', 'CLP'],
		['15000', 'BRL'],
	])('%p in %s is refused', (raw, currency) => {
		expect(checkMoneyIn(raw, currency).ok).toBe(false);
	});

	it('CLP has no decimals, every other currency two', () => {
		expect(decimalsOf('CLP')).toBe(0);
		for (const code of [...CURRENCIES.filter((c) => c !== 'CLP'), ...STABLECOINS])
			expect(decimalsOf(code)).toBe(2);
	});
});

describe('checkIncome: whole amounts as the service’s examples write them', () => {
	it.each<[string | number, string]>([
		['4000', '4000.00'],
		['4000.5', '4000.50'],
		['0', '0.00'],
		[4000, '4000.00'],
		['10000.00', '10000.00'],
	])('%p is sent as %p', (raw, expected) => {
		expect(checkIncome(raw)).toEqual({ ok: true, value: expected });
	});

	it.each(['4.000,00', '10.555', '-5', 'abc'])('%p is refused', (raw) => {
		expect(checkIncome(raw).ok).toBe(false);
	});
});
