import { invalid, plural, valid, type Check } from './result';
import { asciiUpperCase } from './text';

/** Currencies the service uses (ISO 4217 alpha-3), sorted. */
export const CURRENCIES = ['BRL', 'CLP', 'COP', 'EUR', 'MXN', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

/**
 * Currencies the service's cards take (service facts: "Cards work only in local currencies BRL,
 * MXN, COP and CLP"): the hosted card checkout's `currency`. Sorted.
 */
export const CARD_CURRENCIES = ['BRL', 'CLP', 'COP', 'MXN'] as const;

const MONEY_PATTERN = /^\d+\.\d{2}$/;

/**
 * Largest number accepted as a JavaScript number: 13 integer digits plus 2 decimals stay within
 * the 15 significant digits a double always holds exactly. Larger amounts must be given as text.
 */
const MAX_NUMBER_AMOUNT = 1e13;

/** "0010.50" → "10.50", keeps "0.50". */
function trimLeadingZeros(amount: string): string {
	return amount.replace(/^0+(?=\d)/, '');
}

function checkPositive(amount: string): Check {
	if (/^0+\.00$/.test(amount))
		return invalid('is zero; enter an amount greater than zero, e.g. 10.50');
	return valid(trimLeadingZeros(amount));
}

/** Tries to read what the user meant, for the hint in an error message. */
function suggestAmount(text: string): string | undefined {
	let candidate = text.replace(/\s+/g, '');
	const lastComma = candidate.lastIndexOf(',');
	const lastDot = candidate.lastIndexOf('.');
	if (lastComma >= 0 && lastDot >= 0) {
		// Both separators: the last one is the decimal separator, the other groups thousands.
		const decimal = lastComma > lastDot ? ',' : '.';
		const thousands = decimal === ',' ? '.' : ',';
		candidate = candidate.split(thousands).join('');
		candidate = candidate.replace(decimal, '.');
	} else if (lastComma >= 0) {
		if (/^\d+,\d{1,2}$/.test(candidate)) candidate = candidate.replace(',', '.');
		else if (/^\d{1,3}(,\d{3})+$/.test(candidate)) candidate = candidate.split(',').join('');
		else return undefined;
	}
	const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(candidate);
	if (!match) return undefined;
	const suggestion = `${trimLeadingZeros(match[1])}.${(match[2] ?? '').padEnd(2, '0')}`;
	return /^0+\.00$/.test(suggestion) ? undefined : suggestion;
}

function checkMoneyText(raw: string): Check {
	const text = raw.trim();
	if (text === '') return invalid('is empty; enter an amount with two decimals, e.g. 10.50');
	if (MONEY_PATTERN.test(text)) return checkPositive(text);
	if (/^-/.test(text)) return invalid('is negative; enter an amount greater than zero, e.g. 10.50');
	if (text.includes(',')) {
		const suggestion = suggestAmount(text);
		return invalid(
			`contains a comma; use a dot as the decimal separator and no thousands separators, e.g. ${suggestion ?? '10.50'}`,
		);
	}
	const decimals = /^\d+(?:\.(\d*))?$/.exec(text);
	if (decimals) {
		const count = (decimals[1] ?? '').length;
		if (count > 2) {
			return invalid(
				`has ${plural(count, 'decimal')}; an amount has exactly 2 decimals, e.g. 10.50 (round it before sending)`,
			);
		}
		const suggestion = suggestAmount(text);
		const what = count === 0 ? 'has no decimals' : `has ${plural(count, 'decimal')}`;
		if (suggestion === undefined) {
			return invalid('is zero; enter an amount greater than zero, e.g. 10.50');
		}
		return invalid(`${what}; an amount needs exactly 2 decimals: write ${suggestion}`);
	}
	return invalid(
		'is not an amount; write digits with a dot and exactly 2 decimals, without currency symbols, e.g. 10.50',
	);
}

function checkMoneyNumber(amount: number): Check {
	if (!Number.isFinite(amount)) return invalid('is not a number; enter an amount such as 10.50');
	if (amount < 0) return invalid('is negative; enter an amount greater than zero, e.g. 10.50');
	if (amount === 0) return invalid('is zero; enter an amount greater than zero, e.g. 10.50');
	if (amount >= MAX_NUMBER_AMOUNT) {
		return invalid(
			'is too large to be passed as a number without losing precision; pass it as text with 2 decimals, e.g. "12345678901234.50"',
		);
	}
	// The shortest text that reads back as the same number: for amounts of at most 15 significant
	// digits it is exactly what was typed, so no float arithmetic is needed (0.1 + 0.2 shows as
	// 0.30000000000000004 and is rejected rather than silently rounded).
	const text = String(amount);
	const exponent = /e-(\d+)$/.exec(text);
	if (exponent) {
		return invalid('has more than 2 decimals; an amount has at most 2 decimals, e.g. 10.50');
	}
	const [integerPart, decimalPart = ''] = text.split('.');
	if (decimalPart.length > 2) {
		return invalid(
			`has ${plural(decimalPart.length, 'decimal')}; an amount has at most 2 decimals, e.g. 10.50 (round it before sending)`,
		);
	}
	return checkPositive(`${integerPart}.${decimalPart.padEnd(2, '0')}`);
}

/**
 * An amount of money as the service wants it: a string `^\d+\.\d{2}$`, greater than zero, never
 * passed through float arithmetic.
 *
 * - A string must already have exactly 2 decimals (the spec's rule); "10" or "10.5" is refused, but
 *   the message shows the fix ("write 10.50"), so nobody wonders what was sent.
 * - A number (n8n's Number fields, expressions) is accepted when its decimal form has at most
 *   2 decimals and is converted textually: 10 → "10.00", 10.5 → "10.50", 10.555 → refused.
 * - Leading zeros are removed ("010.00" → "10.00").
 */
export function checkMoney(raw: string | number): Check {
	if (typeof raw === 'number') return checkMoneyNumber(raw);
	if (typeof raw !== 'string')
		return invalid('is missing; enter an amount with two decimals, e.g. 10.50');
	return checkMoneyText(raw);
}

/**
 * Like checkMoney, but zero is allowed ("0.00"): for amounts that describe someone rather than
 * move money, such as `net_monthly_average_income` (a student may have no income).
 */
export function checkNonNegativeMoney(raw: string | number): Check {
	const result = checkMoney(raw);
	if (result.ok || !result.reason.startsWith('is zero')) return result;
	const text = typeof raw === 'string' ? raw.trim() : '';
	if (typeof raw === 'number' || /^0+\.00$/.test(text)) return valid('0.00');
	const decimals = /\.\d$/.test(text) ? 'has 1 decimal' : 'has no decimals';
	return invalid(`${decimals}; an amount needs exactly 2 decimals: write 0.00`);
}

/**
 * A currency code: 3 letters (upper-cased), one of `allowed` (default: the currencies the service
 * uses).
 */
export function checkCurrency(raw: string, allowed: readonly string[] = CURRENCIES): Check {
	const text = asciiUpperCase(String(raw ?? '').trim());
	const list = allowed.join(', ');
	if (text === '') return invalid(`is empty; use one of ${list}`);
	// Currencies are 3 letters (ISO 4217); the stablecoins the service takes have 4 or 5 (USDT, RLUSD).
	const stablecoins = allowed.some((code) => code.length > 3);
	if (!(stablecoins ? /^[A-Z]{3,5}$/ : /^[A-Z]{3}$/).test(text)) {
		return invalid(
			stablecoins
				? `is not a currency code (ISO 4217) or a stablecoin; use one of ${list}`
				: `is not a 3-letter currency code (ISO 4217); use one of ${list}`,
		);
	}
	if (!allowed.includes(text)) {
		return invalid(
			allowed.length === 1
				? `is ${text}; only ${list} is accepted here`
				: `is ${text}; use one of ${list}`,
		);
	}
	return valid(text);
}

/**
 * Stablecoins the service takes as `currency` or `exchange_currency` of a transaction (public
 * documentation, stablecoins page: local ↔ stablecoin, fiat ↔ stablecoin, stablecoin ↔
 * stablecoin). Sorted.
 */
export const STABLECOINS = ['RLUSD', 'USDC', 'USDG', 'USDT'] as const;

/**
 * How many decimals an amount has in each currency. Chilean pesos have none: the public
 * documentation writes a CLP value `"15000"`, not `"15000.00"`. Every other currency the service
 * uses has two (the spec's rule), stablecoins included: the documentation shows no stablecoin
 * amount with more.
 */
export const CURRENCY_DECIMALS: Readonly<Record<string, number>> = { CLP: 0 };

/** The decimals of an amount in `currency` (2 unless CURRENCY_DECIMALS says otherwise). */
export function decimalsOf(currency: unknown): number {
	return (
		CURRENCY_DECIMALS[
			String(currency ?? '')
				.trim()
				.toUpperCase()
		] ?? 2
	);
}

/** An amount in a currency without decimals (CLP): whole units, greater than zero. */
function checkWholeMoney(raw: string | number, currency: string): Check {
	const example = `e.g. 15000 (${currency} amounts have no decimals)`;
	if (typeof raw === 'number') {
		if (!Number.isFinite(raw)) return invalid(`is not a number; enter an amount, ${example}`);
		if (raw <= 0)
			return invalid(
				`is ${raw < 0 ? 'negative' : 'zero'}; enter an amount greater than zero, ${example}`,
			);
		if (!Number.isSafeInteger(raw)) {
			return Number.isInteger(raw)
				? invalid('is too large to be passed as a number without losing precision; pass it as text')
				: invalid(`has decimals; ${currency} amounts are whole numbers, ${example}`);
		}
		return valid(String(raw));
	}
	if (typeof raw !== 'string') return invalid(`is missing; enter an amount, ${example}`);
	const text = raw.trim();
	if (text === '') return invalid(`is empty; enter an amount, ${example}`);
	if (/^-/.test(text)) return invalid(`is negative; enter an amount greater than zero, ${example}`);
	// "15000.00" says nothing more than 15000; "15.000" is how Chile writes fifteen thousand, so a
	// dot followed by three digits is refused rather than read as 15.
	const match = /^(\d+)(?:\.(0{1,2}))?$/.exec(text);
	if (!match) {
		const digits = text.replace(/[.,\s]/g, '');
		const suggestion = /^\d+$/.test(digits)
			? ` Write ${trimLeadingZeros(digits)} if you meant that.`
			: '';
		return invalid(
			`is not a whole amount; ${currency} amounts have no decimals and no thousands separators, ${example}.${suggestion}`,
		);
	}
	const whole = trimLeadingZeros(match[1]);
	if (/^0+$/.test(whole)) return invalid(`is zero; enter an amount greater than zero, ${example}`);
	return valid(whole);
}

/**
 * An amount in `currency`, its decimals following the currency (decimalsOf): two for most (as
 * checkMoney), none for CLP (`"15000"`; `"15000.00"` and the number 15000 are sent as `"15000"`, a
 * CLP amount with cents is refused). Always a string, never through float arithmetic.
 */
export function checkMoneyIn(raw: string | number, currency: unknown): Check {
	const code = String(currency ?? '')
		.trim()
		.toUpperCase();
	if (decimalsOf(code) === 0) return checkWholeMoney(raw, code);
	return checkMoney(raw);
}

/**
 * An income (`net_monthly_average_income`, a company's `net_value`): zero or more, with at most two
 * decimals. The service's own examples send whole amounts (`"4000"`), so those are accepted too;
 * every value is sent with two decimals (`"4000"` → `"4000.00"`), as the service shows incomes.
 */
export function checkIncome(raw: string | number): Check {
	if (typeof raw === 'string') {
		const text = raw.trim();
		const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(text);
		if (match) return checkNonNegativeMoney(`${match[1]}.${(match[2] ?? '').padEnd(2, '0')}`);
	}
	return checkNonNegativeMoney(raw);
}
