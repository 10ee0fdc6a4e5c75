import { z } from 'zod';

import {
	checkBoletoExpireAt,
	checkDynamicPixExpiry,
	type TimeZoneOption,
} from '../validation/dates';
import {
	CARD_CURRENCIES,
	checkCurrency,
	checkMoney,
	checkMoneyIn,
	CURRENCIES,
	STABLECOINS,
} from '../validation/amount';
import { checkUuid } from '../validation/uuid';
import { checked } from './checked';

/** Destination currencies of dynamic PIX, boleto and checkout. */
export const SETTLEMENT_CURRENCIES = ['BRL', 'EUR', 'USD'] as const;

/**
 * A boleto is a Brazilian payment slip: it is paid in BRL (the sandbox holds boletos to BRL too),
 * and its funds settle into a BRL, EUR or USD account (SETTLEMENT_CURRENCIES).
 */
export const BOLETO_CURRENCIES = ['BRL'] as const;

/**
 * Currencies of a local pay-in (public documentation): Chile, Colombia, Mexico and the
 * stablecoins. Brazil's pay-ins have operations of their own (PIX, boleto, checkout).
 */
export const PAY_IN_CURRENCIES = ['CLP', 'COP', 'MXN', ...STABLECOINS].sort();

/** What a local pay-in may be converted to: any currency of the service or a stablecoin. */
export const PAY_IN_EXCHANGE_CURRENCIES = [...CURRENCIES, ...STABLECOINS].sort();

/** Source currencies of a payout: the service's currencies and the stablecoins (sorted). */
export const PAYOUT_CURRENCIES = [...CURRENCIES, ...STABLECOINS].sort();

const uuid = checked(checkUuid);
const money = checked(checkMoney, { keepNumbers: true });
const currency = (allowed: readonly string[] = CURRENCIES) =>
	checked((raw) => checkCurrency(raw, allowed));

/** A value read as it came (text or a number), checked once its currency is known. */
const rawValue = z.union([z.string(), z.number()]);

/**
 * Checks `value` in the transaction's own `currency`: its decimals follow the currency (two for
 * most, none for CLP), and it is sent as text.
 */
function valueInCurrency<T extends { value: string | number; currency?: unknown }>(
	transaction: T,
	ctx: z.RefinementCtx,
): void {
	const result = checkMoneyIn(transaction.value, transaction.currency);
	if (!result.ok) {
		ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['value'], message: result.reason });
		return;
	}
	transaction.value = result.value;
}

/** The checked transaction with its value as the text to send. */
const valueAsText = <T extends { value: string | number }>(transaction: T) =>
	transaction as Omit<T, 'value'> & { value: string };

export const TRANSACTION_LABELS: Record<string, string> = {
	subject_id: 'Subject ID',
	from_bank_account_id: 'From Bank Account ID',
	to_bank_account_id: 'To Bank Account ID',
	exchange_currency: 'Exchange Currency',
	dynamic_pix_expires_at: 'Expires At',
	'from_boleto.expire_at': 'Expire At',
};

/**
 * `POST /transactions`, dynamic PIX shape. `now` is the clock the expiry is checked against;
 * `options.timeZone` (the workflow's time zone, `this.getTimezone()`) is where an expiry written
 * without offset is read. The expiry is optional (spec): left out, empty or null, it is not sent.
 */
export const dynamicPixSchema = (now: Date, options: TimeZoneOption = {}) =>
	z
		.object({
			subject_id: uuid,
			from_bank_account_id: uuid,
			to_bank_account_id: uuid,
			currency: currency(['BRL']),
			exchange_currency: currency(SETTLEMENT_CURRENCIES),
			value: money,
			use_dynamic_pix: z.literal(true),
			dynamic_pix_expires_at: z
				.union([z.string(), z.number(), z.null()])
				.optional()
				.transform((value, ctx) => {
					const result = checkDynamicPixExpiry(
						value === null || value === undefined ? '' : String(value),
						now,
						options,
					);
					if (!result.ok) {
						ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.reason });
						return z.NEVER;
					}
					return result.value === '' ? undefined : result.value;
				}),
		})
		// not given: the key is left out of the body rather than sent empty
		.transform(({ dynamic_pix_expires_at: expiresAt, ...transaction }) => {
			const body: typeof transaction & { dynamic_pix_expires_at?: string } = transaction;
			if (expiresAt !== undefined) body.dynamic_pix_expires_at = expiresAt;
			return body;
		});

/**
 * `POST /transactions`, boleto shape. "Today" for the expiry is the local date in
 * `options.timeZone` (the workflow's time zone, `this.getTimezone()`; UTC when not given).
 */
export const boletoSchema = (now: Date, options: TimeZoneOption = {}) =>
	z.object({
		subject_id: uuid,
		to_bank_account_id: uuid,
		currency: currency(BOLETO_CURRENCIES),
		exchange_currency: currency(SETTLEMENT_CURRENCIES),
		value: money,
		from_boleto: z.object({ expire_at: checked((raw) => checkBoletoExpireAt(raw, now, options)) }),
	});

/**
 * `POST /transactions`, payout shape. The value is in the source `currency` (decimals as that
 * currency has them).
 */
export const payoutSchema = z
	.object({
		subject_id: uuid,
		from_bank_account_id: uuid,
		to_bank_account_id: uuid,
		currency: currency(PAYOUT_CURRENCIES),
		exchange_currency: currency(),
		value: rawValue,
	})
	.superRefine(valueInCurrency)
	.transform(valueAsText);

/**
 * `POST /transactions/checkout` (no wrapper object). The payer pays by card, so `currency` is one
 * of the currencies the service's cards take (CARD_CURRENCIES).
 */
export const checkoutSchema = z
	.object({
		subject_id: uuid,
		to_bank_account_id: uuid,
		currency: currency(CARD_CURRENCIES),
		exchange_currency: currency(SETTLEMENT_CURRENCIES),
		value: rawValue,
	})
	.superRefine(valueInCurrency)
	.transform(valueAsText);

/**
 * `POST /transactions`, a local pay-in (public documentation: Mexico's dynamic CLABE, Chile,
 * Colombia, stablecoins): the customer pays `value` in `currency` (decimals as that currency has
 * them) into the partner's account.
 */
export const payInSchema = z
	.object({
		subject_id: uuid,
		from_bank_account_id: uuid,
		to_bank_account_id: uuid,
		currency: currency(PAY_IN_CURRENCIES),
		exchange_currency: currency(PAY_IN_EXCHANGE_CURRENCIES),
		value: rawValue,
	})
	.superRefine(valueInCurrency)
	.transform(valueAsText);

/** The building blocks of a transaction schema, for the schemas of other payment kinds. */
export { currency as currencyIn, rawValue, uuid, valueAsText, valueInCurrency };
