// Amounts of transactions called on their own: cents, how an amount is written (CLP without
// decimals), conversion at the sandbox's fixed rates (stablecoins follow USD), and the value rule.
import { Errors } from '../../../sandbox/validation.mjs';
import {
	amountCents,
	convertAmount,
	requireAmount,
	writeAmount,
} from '../../../sandbox/domain/transactions/amounts.mjs';

describe('amounts in cents and back', () => {
	test.each([
		['10.50', 1050n],
		['0.01', 1n],
		['15000', 1500000n],
		['1234567.89', 123456789n],
	])('%s is %p cents', (value, cents) => {
		expect(amountCents(value)).toBe(cents);
	});

	test.each([
		[1050n, 'BRL', '10.50'],
		[5n, 'USD', '0.05'],
		[0n, 'EUR', '0.00'],
		[1500000n, 'CLP', '15000'],
		[1550n, 'CLP', '15'],
		[0n, 'CLP', '0'],
	])('%p cents in %s are written %p', (cents, currency, written) => {
		expect(writeAmount(cents, currency)).toBe(written);
	});
});

describe('conversion at the fixed rates', () => {
	test.each([
		['10.00', 'USD', 'BRL', '50.00'],
		['50.00', 'BRL', 'USD', '10.00'],
		['100.00', 'BRL', 'EUR', '18.18'],
		['15000', 'CLP', 'USD', '16.50'],
		['10.00', 'BRL', 'CLP', '1818'],
		['10.00', 'BRL', 'BRL', '10.00'],
		['100.00', 'USDT', 'USD', '100.00'],
		['100.00', 'USDT', 'BRL', '500.00'],
		['10.00', 'USDC', 'USDT', '10.00'],
		['15000', 'CLP', 'USDC', '16.50'],
	])('%s %s is %s %s', (value, from, to, converted) => {
		expect(convertAmount(value, from, to)).toBe(converted);
	});

	test.each([
		['XYZ', 'BRL'],
		['BRL', 'XYZ'],
	])('a currency without a rate (%s → %s) converts to null', (from, to) => {
		expect(convertAmount('10.00', from, to)).toBeNull();
	});
});

describe('the value of a transaction', () => {
	const check = (value, currency) => {
		const errors = new Errors();
		const body = { value };
		requireAmount(errors, body, 'value', currency);
		return { errors: errors.map, value: body.value };
	};

	test.each([
		['10.50', 'BRL', '10.50'],
		['0.01', 'USD', '0.01'],
		['15000', 'CLP', '15000'],
		['15000.00', 'CLP', '15000'],
	])('%s in %s is accepted and kept as %s', (value, currency, kept) => {
		expect(check(value, currency)).toEqual({ errors: {}, value: kept });
	});

	test.each([
		[undefined, 'BRL', "can't be blank"],
		['10.5', 'BRL', 'must be a string with exactly two decimals, e.g. "10.50"'],
		['0.00', 'BRL', 'must be greater than 0'],
		[undefined, 'CLP', "can't be blank"],
		[
			'15000.50',
			'CLP',
			'must be a whole number of Chilean pesos as a string, e.g. "15000" (CLP has no decimals)',
		],
		[
			15000,
			'CLP',
			'must be a whole number of Chilean pesos as a string, e.g. "15000" (CLP has no decimals)',
		],
		['0', 'CLP', 'must be greater than 0'],
		['000.00', 'CLP', 'must be greater than 0'],
	])('%p in %s is refused: %s', (value, currency, message) => {
		expect(check(value, currency).errors).toEqual({ value: [message] });
	});
});
