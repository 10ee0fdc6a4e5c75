/**
 * Amounts and currencies of transactions: which currencies each kind takes, how an amount is
 * written (two decimals; Chilean pesos none), and how it is converted at the sandbox's fixed rates.
 */
import { isBlank, requireMoney } from '../../validation.mjs';
import { RATES_TO_BRL, convertCents, formatCents, toCents } from '../../money.mjs';

/** Currencies a card checkout takes. */
export const CARD_CURRENCIES = ['BRL', 'MXN', 'COP', 'CLP'];
/** What a BRL pay-in (dynamic PIX, boleto, card) may be converted to. */
export const EXCHANGE_CURRENCIES = ['BRL', 'USD', 'EUR'];
/** Stablecoins: their rates follow the USD spot rate (live docs). */
export const STABLECOINS = ['RLUSD', 'USDC', 'USDG', 'USDT'];

/**
 * Amounts are strings with two decimals, except Chilean pesos, which have none (live docs:
 * `"15000"`, not `"15000.00"`). Computed in integer cents either way.
 * @param {string} value
 */
export function amountCents(value) {
	return value.includes('.') ? toCents(value) : BigInt(value) * 100n;
}

/** @param {bigint} cents @param {string} currency */
export function writeAmount(cents, currency) {
	return currency === 'CLP' ? (cents / 100n).toString() : formatCents(cents);
}

/** The currency whose rate `currency` follows. @param {string} currency */
function rateOf(currency) {
	return STABLECOINS.includes(currency) ? 'USD' : currency;
}

/**
 * `value` in `from`, converted and written in `to`; null when either currency has no rate.
 * @param {string} value @param {string} from @param {string} to
 */
export function convertAmount(value, from, to) {
	const fromRate = rateOf(from);
	const toRate = rateOf(to);
	if (!RATES_TO_BRL[fromRate] || !RATES_TO_BRL[toRate]) return null;
	return writeAmount(convertCents(amountCents(value), fromRate, toRate), to);
}

/**
 * `requireMoney`, but a CLP amount is a whole number ("15000"; "15000.00" is accepted and written
 * "15000"). @param {any} obj
 */
export function requireAmount(errors, obj, field, currency) {
	if (currency !== 'CLP') return requireMoney(errors, obj, field);
	const value = obj[field];
	if (isBlank(value)) return errors.add(field, "can't be blank");
	if (typeof value !== 'string' || !/^\d+(\.00)?$/.test(value))
		return errors.add(
			field,
			'must be a whole number of Chilean pesos as a string, e.g. "15000" (CLP has no decimals)',
		);
	if (/^0+(\.00)?$/.test(value)) return errors.add(field, 'must be greater than 0');
	obj[field] = value.replace(/\.00$/, '');
}
