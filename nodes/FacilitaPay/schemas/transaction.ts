import { z } from 'zod';

import { checkBoletoExpireAt, checkDynamicPixExpiry } from '../validation/dates';
import { checkCurrency, checkMoney, CURRENCIES } from '../validation/money';
import { checkUuid } from '../validation/misc';
import { checked } from './checked';

/** Destination currencies of dynamic PIX and checkout. */
export const SETTLEMENT_CURRENCIES = ['BRL', 'EUR', 'USD'] as const;

const uuid = checked(checkUuid);
const money = checked(checkMoney, { keepNumbers: true });
const currency = (allowed: readonly string[] = CURRENCIES) =>
	checked((raw) => checkCurrency(raw, allowed));

export const TRANSACTION_LABELS: Record<string, string> = {
	subject_id: 'Subject ID',
	from_bank_account_id: 'From Bank Account ID',
	to_bank_account_id: 'To Bank Account ID',
	exchange_currency: 'Exchange Currency',
	dynamic_pix_expires_at: 'Expires At',
	'from_boleto.expire_at': 'Expire At',
};

/** `POST /transactions`, dynamic PIX shape. `now` is the clock the expiry is checked against. */
export const dynamicPixSchema = (now: Date) =>
	z.object({
		subject_id: uuid,
		from_bank_account_id: uuid,
		to_bank_account_id: uuid,
		currency: currency(['BRL']),
		exchange_currency: currency(SETTLEMENT_CURRENCIES),
		value: money,
		use_dynamic_pix: z.literal(true),
		dynamic_pix_expires_at: checked((raw) => checkDynamicPixExpiry(raw, now)),
	});

/** `POST /transactions`, boleto shape. */
export const boletoSchema = (now: Date) =>
	z.object({
		subject_id: uuid,
		to_bank_account_id: uuid,
		currency: currency(),
		exchange_currency: currency(),
		value: money,
		from_boleto: z.object({ expire_at: checked((raw) => checkBoletoExpireAt(raw, now)) }),
	});

/** `POST /transactions`, payout shape. */
export const payoutSchema = z.object({
	subject_id: uuid,
	from_bank_account_id: uuid,
	to_bank_account_id: uuid,
	currency: currency(),
	exchange_currency: currency(),
	value: money,
});

/** `POST /transactions/checkout` (no wrapper object). */
export const checkoutSchema = z.object({
	subject_id: uuid,
	to_bank_account_id: uuid,
	currency: currency(),
	exchange_currency: currency(SETTLEMENT_CURRENCIES),
	value: money,
});
