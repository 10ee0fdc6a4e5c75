import { z } from 'zod';

import { checkPhoneAreaCode, checkPhoneCountryCode, checkPhoneNumber } from '../validation/address';
import {
	checkBrandFitsNumber,
	checkCardNumberForPayment,
	checkFullName,
	checkSecurityCode,
} from '../validation/card';
import { checkCardExpiration, type TimeZoneOption } from '../validation/dates';
import { DOCUMENT_TYPES } from '../validation/documents';
import { CARD_CURRENCIES } from '../validation/amount';
import { checked, oneOf, optionalText, refineDocumentNumber } from './checked';
import { optionalChecked } from './subject';
import { checkCardBrand } from './subscription';
import {
	currencyIn,
	rawValue,
	SETTLEMENT_CURRENCIES,
	TRANSACTION_LABELS,
	uuid,
	valueAsText,
	valueInCurrency,
} from './transaction';

/** The names the user sees for the fields of a card payment. */
export const CARD_PAYMENT_LABELS: Record<string, string> = {
	...TRANSACTION_LABELS,
	'from_credit_card.card_number': 'Card Number',
	'from_credit_card.card_expiration_date': 'Card Expiration Date',
	'from_credit_card.card_security_code': 'Card Security Code',
	'from_credit_card.card_brand': 'Card Brand',
	'from_credit_card.fullname': 'Cardholder Full Name',
	'from_credit_card.document_type': 'Cardholder Document Type',
	'from_credit_card.document_number': 'Cardholder Document Number',
	'from_credit_card.phone_country_code': 'Cardholder Phone Country Code',
	'from_credit_card.phone_area_code': 'Cardholder Phone Area Code',
	'from_credit_card.phone_number': 'Cardholder Phone Number',
};

/**
 * `POST /transactions` charging a card once (FacilitaPay's general-transactions page; the body of
 * its public connector, the holder's document and phone from its PHP client). Every card field is
 * checked before the card is charged: the number by Luhn, the expiry not past in the workflow's
 * time zone, a 3-digit security code, a brand (that fits the number where the brand's ranges are
 * published), a full name.
 */
export const cardPaymentSchemaFor = (now: Date, options: TimeZoneOption = {}) =>
	z
		.object({
			subject_id: uuid,
			to_bank_account_id: uuid,
			currency: currencyIn(CARD_CURRENCIES),
			exchange_currency: currencyIn(SETTLEMENT_CURRENCIES),
			value: rawValue,
			from_credit_card: z
				.object({
					card_number: checked(checkCardNumberForPayment),
					card_expiration_date: checked((raw) => checkCardExpiration(raw, now, options)),
					card_security_code: checked(checkSecurityCode),
					card_brand: checked(checkCardBrand),
					fullname: checked(checkFullName),
					document_type: oneOf(DOCUMENT_TYPES, 'the cardholder’s document type').optional(),
					document_number: optionalText(),
					phone_country_code: optionalChecked(checkPhoneCountryCode),
					phone_area_code: optionalChecked(checkPhoneAreaCode),
					phone_number: optionalChecked(checkPhoneNumber, { keepNumbers: true }),
				})
				.superRefine((card, ctx) => {
					const { card_brand: brand, card_number: digits } = card;
					if (typeof brand === 'string' && typeof digits === 'string' && /^\d+$/.test(digits)) {
						const fits = checkBrandFitsNumber(brand, digits);
						if (!fits.ok)
							ctx.addIssue({
								code: z.ZodIssueCode.custom,
								path: ['card_brand'],
								message: fits.reason,
							});
					}
					if (card.document_number === undefined) return;
					if (card.document_type === undefined) {
						ctx.addIssue({
							code: z.ZodIssueCode.custom,
							path: ['document_type'],
							message: 'is needed with a Cardholder Document Number; choose its type, e.g. cpf',
						});
						return;
					}
					refineDocumentNumber(card as { document_type: string; document_number: string }, ctx);
				}),
		})
		.superRefine(valueInCurrency)
		.transform(valueAsText);
