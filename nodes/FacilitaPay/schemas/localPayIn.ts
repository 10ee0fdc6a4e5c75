import { z } from 'zod';

import { checkHttpUrl } from '../validation/files';
import { checked, optionalText } from './checked';
import {
	currencyIn,
	PAY_IN_EXCHANGE_CURRENCIES,
	rawValue,
	TRANSACTION_LABELS,
	uuid,
	valueAsText,
	valueInCurrency,
} from './transaction';

/** The names the user sees for the fields of a PSE payment and a dynamic CLABE. */
export const LOCAL_PAY_IN_LABELS: Record<string, string> = {
	...TRANSACTION_LABELS,
	'from_pse.financial_institution_code': 'PSE Bank',
	'from_pse.redirect_url': 'Redirect URL',
	'from_pse.payment_description': 'Payment Description',
	payment_description: 'Payment Description',
};

/** A PSE bank's code: the digits PSE gives its financial institutions (e.g. 1007). */
function checkPseBankCode(raw: string) {
	const code = String(raw ?? '').trim();
	if (code === '')
		return { ok: false as const, reason: 'is empty; choose the customer’s bank from the list' };
	if (!/^[0-9A-Za-z_-]{1,20}$/.test(code)) {
		return {
			ok: false as const,
			reason: `is "${code}"; a PSE bank code has letters and digits only, e.g. 1007`,
		};
	}
	return { ok: true as const, value: code };
}

/**
 * `POST /transactions` for Colombia's PSE as FacilitaPay's public Python client sends it: COP, the
 * customer's bank and the page PSE sends the customer back to (`from_pse`), and no source account.
 */
export const psePaymentSchema = z
	.object({
		subject_id: uuid,
		to_bank_account_id: uuid,
		currency: z.literal('COP'),
		exchange_currency: currencyIn(PAY_IN_EXCHANGE_CURRENCIES),
		value: rawValue,
		from_pse: z.object({
			financial_institution_code: checked(checkPseBankCode),
			redirect_url: checked((raw) => checkHttpUrl(raw, 'https://shop.example.co/paid')),
			payment_description: optionalText(),
		}),
	})
	.superRefine(valueInCurrency)
	.transform(valueAsText);

/**
 * `POST /transactions` for a Mexican dynamic CLABE as FacilitaPay's public Python client asks for
 * it: MXN, `from_spei: {dynamic_clabe: true}` and no source account; a description is optional.
 */
export const speiPaymentSchema = z
	.object({
		subject_id: uuid,
		to_bank_account_id: uuid,
		currency: z.literal('MXN'),
		exchange_currency: currencyIn(PAY_IN_EXCHANGE_CURRENCIES),
		value: rawValue,
		from_spei: z.object({ dynamic_clabe: z.literal(true) }),
		payment_description: optionalText(),
	})
	.superRefine(valueInCurrency)
	.transform(valueAsText);
