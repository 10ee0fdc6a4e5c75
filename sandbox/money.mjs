/**
 * Money as strings with two decimals (`^\d+\.\d{2}$`), computed in integer cents (BigInt),
 * never through floats. Exchange uses a FIXED sandbox rate table (documented in docs/sandbox.md).
 */

export const MONEY_PATTERN = /^\d+\.\d{2}$/;

/** Value of one unit of each currency in BRL, scaled by 10 000. */
export const RATES_TO_BRL = {
	BRL: 10000n,
	USD: 50000n, // 1 USD = 5.00 BRL
	EUR: 55000n, // 1 EUR = 5.50 BRL
	MXN: 3000n, // 1 MXN = 0.30 BRL
	COP: 13n, // 1 COP = 0.0013 BRL
	CLP: 55n, // 1 CLP = 0.0055 BRL
};

export const CURRENCIES = Object.keys(RATES_TO_BRL);

/** @param {string} value */
export function toCents(value) {
	return BigInt(value.replace('.', ''));
}

/** @param {bigint} cents */
export function formatCents(cents) {
	const digits = cents.toString().padStart(3, '0');
	return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * @param {bigint} cents
 * @param {string} from
 * @param {string} to
 */
export function convertCents(cents, from, to) {
	const fromRate = RATES_TO_BRL[from] ?? 10000n;
	const toRate = RATES_TO_BRL[to] ?? 10000n;
	return (cents * fromRate) / toRate;
}

/** @param {string} value @param {string} from @param {string} to */
export function convert(value, from, to) {
	return formatCents(convertCents(toCents(value), from, to));
}
