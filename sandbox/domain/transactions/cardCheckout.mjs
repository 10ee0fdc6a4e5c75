/**
 * Card checkout (`POST /transactions/checkout`): a payment page; each attempt on it is a `card`
 * transaction, approved (the page is paid) or declined (the attempt is canceled).
 */
import { Errors, requireCurrency } from '../../validation.mjs';
import { check, invalid } from '../../errors.mjs';
import { CARD_CURRENCIES, EXCHANGE_CURRENCIES, requireAmount } from './amounts.mjs';
import { newTransaction } from './record.mjs';
import { accountRef, destinationMatches, subjectHasCardFields, subjectRef } from './references.mjs';
import { identify, markCanceled } from './status.mjs';

/** How a card payment becomes identified: with its approval (default), or later, on demand. */
export const CARD_IDENTIFICATION = ['at_approval', 'later'];

/** The longest read-after-write lag the sandbox plays (real seconds). */
export const MAX_READ_LAG_SECONDS = 120;

/**
 * What the sandbox plays where the spec is silent (kept in the state, reset with it): reads it,
 * after applying `changes` when given.
 * - `card_identification`: when a card payment becomes `identified` (with its approval, or later);
 * - `read_lag_seconds`: for that many real seconds after a transaction is created, `GET
 *   /transactions/:id` answers 404 as for an unknown ID (read-after-write lag, which no public
 *   source rules out); 0 (default) none.
 * @param {any} state @param {{ card_identification?: string, read_lag_seconds?: number }} [changes]
 */
export function play(state, changes) {
	state.play ??= { card_identification: 'at_approval', read_lag_seconds: 0 };
	if (changes) {
		const errors = new Errors();
		if (
			changes.card_identification !== undefined &&
			!CARD_IDENTIFICATION.includes(changes.card_identification)
		)
			errors.add('card_identification', `must be one of: ${CARD_IDENTIFICATION.join(', ')}`);
		const lag = changes.read_lag_seconds;
		if (lag !== undefined && !(Number.isFinite(lag) && lag >= 0 && lag <= MAX_READ_LAG_SECONDS))
			errors.add(
				'read_lag_seconds',
				`must be a number of seconds from 0 to ${MAX_READ_LAG_SECONDS}`,
			);
		check(errors);
		if (changes.card_identification !== undefined)
			state.play.card_identification = changes.card_identification;
		if (lag !== undefined) state.play.read_lag_seconds = lag;
	}
	return { ...state.play };
}

/**
 * POST /transactions/checkout (body without wrapper): an `active` payment page.
 * @param {any} body @param {import('./env.mjs').TransactionEnv} env
 */
export function createCheckout(body, env) {
	const { state } = env;
	const errors = new Errors();
	const input = body && typeof body === 'object' ? body : {};
	const subject = subjectRef(errors, state, input.subject_id);
	const to = accountRef(errors, state, 'to_bank_account_id', input.to_bank_account_id);
	requireCurrency(errors, input, 'currency', CARD_CURRENCIES);
	requireAmount(errors, input, 'value', input.currency);
	requireCurrency(errors, input, 'exchange_currency', EXCHANGE_CURRENCIES);
	destinationMatches(errors, to, input.exchange_currency);
	subjectHasCardFields(errors, subject, 'card payments');
	check(errors);
	const id = env.newId();
	const checkout = {
		id,
		checkout_id: id,
		checkout_url: `${env.baseUrl()}/_sandbox/checkout/${id}`,
		status: 'active',
		subject_id: subject.id,
		value: input.value,
		currency: input.currency,
		exchange_currency: input.exchange_currency,
		to_bank_account_id: to.id,
		transaction_ids: [],
		paid_transaction_id: null,
		inserted_at: env.clock.iso(),
		paid_at: null,
	};
	state.checkouts.set(id, checkout);
	return checkout;
}

/** The card of an attempt: the sandbox's approved Visa, or its declined one. */
export function attemptCard(success, holderName) {
	return { brand: 'visa', last4: success ? '4242' : '0002', holder_name: holderName };
}

/**
 * The customer tries to pay an active checkout page: a `card` transaction, approved (the page is
 * `paid`, `payment_approved`) or declined (canceled `card_declined`, `payment_failed`).
 * @param {any} checkout @param {boolean} success @param {import('./env.mjs').TransactionEnv} env
 */
export function checkoutAttempt(checkout, success, env) {
	const { state, clock } = env;
	if (checkout.status !== 'active')
		throw invalid(
			'status',
			`the checkout is ${checkout.status}; only an active checkout page can be paid`,
		);
	const subject = state.subjects.get(checkout.subject_id);
	const transaction = newTransaction(
		'card',
		subject,
		{ ...checkout, from_credit_card: attemptCard(success, subject.social_name) },
		env,
	);
	transaction.checkout_id = checkout.id;
	state.transactions.set(transaction.id, transaction);
	checkout.transaction_ids.push(transaction.id);
	if (success) {
		checkout.status = 'paid';
		checkout.paid_at = clock.iso();
		checkout.paid_transaction_id = transaction.id;
		env.emit('payment_approved', { transaction_id: transaction.id, checkout_id: checkout.id });
		// The spec does not say when an approved card payment becomes identified: by default with
		// its approval; played `later`, it stays pending until POST /_sandbox/transactions/:id/identify.
		if (play(state).card_identification !== 'later') identify(transaction, env);
	} else {
		markCanceled(transaction, 'card_declined', clock);
		env.emit('payment_failed', { transaction_id: transaction.id, checkout_id: checkout.id });
	}
	return transaction;
}
