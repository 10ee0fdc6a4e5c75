/**
 * Payout (`POST /transactions` from the partner's cash-out account): the subject receives; it is
 * identified at once and leaves by TED, PIX or wire, as the destination's details allow.
 */
import { Errors, requireCurrency } from '../../validation.mjs';
import { check } from '../../errors.mjs';
import { requireAmount } from './amounts.mjs';
import { newTransaction } from './record.mjs';
import { accountRef, destinationMatches, subjectRef } from './references.mjs';
import { identify } from './status.mjs';

/** How a payout reaches `to`: TED with branch and account, else PIX with a key, else a wire. */
export function payoutMethod(to) {
	if (to.account_number && to.branch_number) return 'ted';
	return to.pix_info?.key ? 'pix' : 'wire';
}

/**
 * Validates and creates a payout, identified at once.
 * @param {any} tx @param {import('./env.mjs').TransactionEnv} env
 */
export function createPayout(tx, env) {
	const { state } = env;
	const errors = new Errors();
	const subject = subjectRef(errors, state, tx.subject_id);
	const from = accountRef(errors, state, 'from_bank_account_id', tx.from_bank_account_id);
	const to = accountRef(errors, state, 'to_bank_account_id', tx.to_bank_account_id);
	if (
		from &&
		!(from.internal && from.flow_type === 'cash_out' && state.accountPurposes[from.id]?.partner)
	) {
		errors.add('from_bank_account_id', "must be the partner's cash-out internal account");
	}
	requireCurrency(errors, tx, 'currency');
	requireCurrency(errors, tx, 'exchange_currency');
	requireAmount(errors, tx, 'value', tx.currency);
	if (from && tx.currency && from.currency !== tx.currency)
		errors.add('currency', `must equal the currency of from_bank_account_id (${from.currency})`);
	destinationMatches(errors, to, tx.exchange_currency);
	if (to && !to.account_number && !to.pix_info?.key && !to.iban)
		errors.add('to_bank_account_id', 'has neither bank details nor a PIX key');
	check(errors);
	const transaction = newTransaction('payout', subject, tx, env);
	transaction.payout_method = payoutMethod(to);
	state.transactions.set(transaction.id, transaction);
	identify(transaction, env);
	return transaction;
}
