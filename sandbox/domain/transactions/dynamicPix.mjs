/**
 * Dynamic PIX (`POST /transactions` with `use_dynamic_pix: true`): a BRL pay-in with its own
 * BR Code, paid from the partner's exclusive BRL account with a PIX key, expiring unpaid.
 */
import { Errors, isBlank, requireCurrency, requireMoney } from '../../validation.mjs';
import { check } from '../../errors.mjs';
import { buildDynamicBrCode } from '../../brcode.mjs';
import { isoSeconds } from '../../clock.mjs';
import { readPixExpiry } from '../../pixExpiry.mjs';
import { EXCHANGE_CURRENCIES } from './amounts.mjs';
import { newTransaction } from './record.mjs';
import { accountRef, destinationMatches, subjectRef } from './references.mjs';
import { expire } from './status.mjs';

/** A dynamic PIX without `dynamic_pix_expires_at` expires this long after its creation. */
export const DEFAULT_PIX_EXPIRY_SECONDS = 3600;

/**
 * When a dynamic PIX expires (ms since the epoch): `value`, a UTC date-time more than a minute
 * after `now`, or the default when it is blank. `{ error }` says what is wrong with `value`.
 * @param {unknown} value @param {number} now
 * @returns {{ expiresAt: number } | { error: string }}
 */
export function dynamicPixExpiry(value, now) {
	if (isBlank(value)) return { expiresAt: now + DEFAULT_PIX_EXPIRY_SECONDS * 1000 };
	// The documented example carries milliseconds (live docs): accepted, as the service does.
	const expiresAt = readPixExpiry(value);
	if (expiresAt === null)
		return { error: 'must be a UTC date-time in the form YYYY-MM-DDThh:mm:ssZ' };
	if (expiresAt <= now + 60000)
		return { error: `must be more than 1 minute after the current time (${isoSeconds(now)})` };
	return { expiresAt };
}

/**
 * Validates and creates a dynamic PIX; it expires unpaid at its due date.
 * @param {any} tx @param {import('./env.mjs').TransactionEnv} env
 */
export function createDynamicPix(tx, env) {
	const { state, clock } = env;
	const errors = new Errors();
	const subject = subjectRef(errors, state, tx.subject_id);
	const from = accountRef(errors, state, 'from_bank_account_id', tx.from_bank_account_id);
	const to = accountRef(errors, state, 'to_bank_account_id', tx.to_bank_account_id);
	if (from) {
		if (!state.accountPurposes[from.id]?.partner || from.currency !== 'BRL')
			errors.add('from_bank_account_id', "must be the partner's exclusive BRL bank account");
		else if (!from.pix_info?.key)
			errors.add(
				'from_bank_account_id',
				'has no registered PIX key; dynamic PIX needs an account with a PIX key',
			);
	}
	requireCurrency(errors, tx, 'currency', ['BRL']);
	requireCurrency(errors, tx, 'exchange_currency', EXCHANGE_CURRENCIES);
	requireMoney(errors, tx, 'value');
	destinationMatches(errors, to, tx.exchange_currency);
	const expiry = dynamicPixExpiry(tx.dynamic_pix_expires_at, clock.now());
	if ('error' in expiry) errors.add('dynamic_pix_expires_at', expiry.error);
	check(errors);
	const { expiresAt } = /** @type {{ expiresAt: number }} */ (expiry);
	const transaction = newTransaction('dynamic_pix', subject, tx, env);
	transaction.meta = {
		...(typeof tx.meta === 'object' && tx.meta ? tx.meta : {}),
		dynamic_pix_due_date: isoSeconds(expiresAt),
	};
	const reference = transaction.id.replace(/-/g, '');
	transaction.dynamic_pix_code = buildDynamicBrCode({
		location: `${env.publicHost()}/_sandbox/pix/${reference}`,
		value: transaction.value,
		reference: reference.slice(0, 25),
	});
	transaction._expiryTask = clock.schedule(
		expiresAt,
		() => expire(transaction, env),
		`dynamic PIX expiry ${transaction.id}`,
	);
	state.transactions.set(transaction.id, transaction);
	return transaction;
}
