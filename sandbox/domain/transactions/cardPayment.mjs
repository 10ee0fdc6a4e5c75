/**
 * A card payment (`POST /transactions` with `from_credit_card`): FacilitaPay's public
 * general-transactions page says card payments are created like boleto and dynamic PIX; the body is
 * the public connector's `{currency, exchange_currency, value, from_credit_card: {card_number,
 * card_expiration_date ("MM/YYYY"), card_security_code, card_brand, fullname}, to_bank_account_id,
 * subject_id}`, and the PHP client adds `document_type`, `document_number` and `phone_*` inside
 * `from_credit_card`. The answer's `from_credit_card` is `{id, status, document_type,
 * document_number, birthdate, phone_*}`: the card itself is never echoed.
 *
 * The sandbox's choice (nothing public says how a direct charge is decided): the card
 * 4000000000000002 declines (the transaction is canceled `card_declined`, `payment_failed`), any
 * other valid card is approved (`payment_approved`, then identified as a checkout's card payment
 * is: at approval, or later when played so).
 */
import { Errors, documentNumberError, isBlank, requireCurrency } from '../../validation.mjs';
import { check } from '../../errors.mjs';
import { DECLINED_CARD, validateCard } from '../subscriptions/card.mjs';
import { requireAmount } from './amounts.mjs';
import { play } from './cardCheckout.mjs';
import { newTransaction } from './record.mjs';
import { accountRef, destinationMatches, subjectHasCardFields, subjectRef } from './references.mjs';
import { identify, markCanceled } from './status.mjs';

const HOLDER_FIELDS = [
	'document_type',
	'document_number',
	'phone_country_code',
	'phone_area_code',
	'phone_number',
];

/** Whether a `POST /transactions` body is a card payment. @param {any} tx */
export const isCardPayment = (tx) =>
	tx?.from_credit_card !== undefined && tx?.from_credit_card !== null;

/**
 * Validates and charges the card: approved or declined at once.
 * @param {any} tx @param {import('./env.mjs').TransactionEnv} env
 */
export function createCardPayment(tx, env) {
	const { state, clock } = env;
	const errors = new Errors();
	const subject = subjectRef(errors, state, tx.subject_id);
	const to = accountRef(errors, state, 'to_bank_account_id', tx.to_bank_account_id);
	requireCurrency(errors, tx, 'currency');
	requireCurrency(errors, tx, 'exchange_currency');
	requireAmount(errors, tx, 'value', tx.currency);
	destinationMatches(errors, to, tx.exchange_currency);
	subjectHasCardFields(errors, subject, 'a card payment');
	const card = tx.from_credit_card;
	if (typeof card !== 'object' || Array.isArray(card))
		errors.add('from_credit_card', 'must be an object');
	else {
		validateCard(errors, card, 'from_credit_card.', clock.now());
		if (!isBlank(card.document_type) || !isBlank(card.document_number)) {
			const message = documentNumberError(card.document_type, card.document_number);
			if (message) errors.add('from_credit_card.document_number', message);
		}
	}
	check(errors);
	const declined = String(card.card_number) === DECLINED_CARD;
	const holder = Object.fromEntries(HOLDER_FIELDS.map((field) => [field, card[field] ?? null]));
	const transaction = newTransaction(
		'card',
		subject,
		{
			...tx,
			from_credit_card: {
				id: env.newId(),
				status: declined ? 'declined' : 'approved',
				...holder,
				birthdate: null,
			},
		},
		env,
	);
	state.transactions.set(transaction.id, transaction);
	if (declined) {
		markCanceled(transaction, 'card_declined', clock);
		env.emit('payment_failed', { transaction_id: transaction.id });
		return transaction;
	}
	env.emit('payment_approved', { transaction_id: transaction.id });
	if (play(state).card_identification !== 'later') identify(transaction, env);
	return transaction;
}
