/**
 * Boleto (`POST /transactions` with `from_boleto.expire_at`): a BRL pay-in with a bar code, a
 * digital line and a PDF, payable until the end of its due date.
 */
import { Errors, isBlank, isDate, requireCurrency, requireMoney } from '../../validation.mjs';
import { check } from '../../errors.mjs';
import { toCents } from '../../money.mjs';
import { buildBarcode, barcodeToDigitalLine, freeFieldFrom } from '../../boleto.mjs';
import { EXCHANGE_CURRENCIES } from './amounts.mjs';
import { newTransaction } from './record.mjs';
import { accountRef, destinationMatches, subjectHasCardFields, subjectRef } from './references.mjs';
import { expire } from './status.mjs';

/**
 * What is wrong with a boleto's due date (`YYYY-MM-DD`, today or later), or null.
 * @param {unknown} expireAt @param {string} today `YYYY-MM-DD`
 */
export function boletoDueDateError(expireAt, today) {
	if (isBlank(expireAt)) return "can't be blank";
	if (!isDate(expireAt)) return 'must be a date in the form YYYY-MM-DD';
	if (/** @type {string} */ (expireAt) < today) return `cannot be in the past (today is ${today})`;
	return null;
}

/** A boleto is payable until the end of its due date (UTC): the moment it expires. */
export function boletoExpiresAt(expireAt) {
	return Date.parse(`${expireAt}T00:00:00Z`) + 86400000;
}

/**
 * Validates and creates a boleto; it expires unpaid after its due date.
 * @param {any} tx @param {import('./env.mjs').TransactionEnv} env
 */
export function createBoleto(tx, env) {
	const { state, clock } = env;
	const errors = new Errors();
	const subject = subjectRef(errors, state, tx.subject_id);
	const to = accountRef(errors, state, 'to_bank_account_id', tx.to_bank_account_id);
	requireCurrency(errors, tx, 'currency', ['BRL']);
	requireCurrency(errors, tx, 'exchange_currency', EXCHANGE_CURRENCIES);
	requireMoney(errors, tx, 'value');
	destinationMatches(errors, to, tx.exchange_currency);
	const fb = tx.from_boleto;
	const expireAt = fb && typeof fb === 'object' ? fb.expire_at : undefined;
	const dueDateError = boletoDueDateError(expireAt, clock.iso().slice(0, 10));
	if (dueDateError) errors.add('from_boleto.expire_at', dueDateError);
	subjectHasCardFields(errors, subject, 'boleto');
	check(errors);
	const transaction = newTransaction('boleto', subject, tx, env);
	transaction.from_boleto = { expire_at: expireAt };
	transaction.bar_code = buildBarcode({
		expireAt,
		cents: toCents(transaction.value),
		freeField: freeFieldFrom(transaction.id),
	});
	transaction.digital_line = barcodeToDigitalLine(transaction.bar_code);
	transaction.url_pdf = `${env.baseUrl()}/api/v1/transactions/${transaction.id}/boleto_pdf`;
	transaction._expiryTask = clock.schedule(
		boletoExpiresAt(expireAt),
		() => expire(transaction, env),
		`boleto expiry ${transaction.id}`,
	);
	state.transactions.set(transaction.id, transaction);
	return transaction;
}
