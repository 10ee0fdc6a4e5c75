/**
 * What a transaction body points at: its subject and bank accounts, checked against the state.
 * Each rule adds its messages to an `Errors` collector under the API's field names.
 */
import { isBlank } from '../../validation.mjs';
import { ADDRESS_FIELDS } from '../subjects/records.mjs';

/** Subject fields a boleto or a card payment needs. */
export const CARD_SUBJECT_FIELDS = ['email', 'phone_number', ...ADDRESS_FIELDS];

/** The subject `id` names, or null (with "can't be blank" / "was not found"). */
export function subjectRef(errors, state, id) {
	if (isBlank(id)) {
		errors.add('subject_id', "can't be blank");
		return null;
	}
	const subject = state.subjects.get(id);
	if (!subject) errors.add('subject_id', 'was not found');
	return subject ?? null;
}

/** The bank account `id` names in `field`, or null (with "can't be blank" / "was not found"). */
export function accountRef(errors, state, field, id) {
	if (isBlank(id)) {
		errors.add(field, "can't be blank");
		return null;
	}
	const account = state.bankAccounts.get(id);
	if (!account) errors.add(field, 'was not found');
	return account ?? null;
}

/** The destination account holds the currency the payment is converted to. */
export function destinationMatches(errors, to, exchangeCurrency, field = 'to_bank_account_id') {
	if (to && exchangeCurrency && to.currency !== exchangeCurrency) {
		errors.add(
			field,
			`currency (${to.currency}) must equal exchange_currency (${exchangeCurrency})`,
		);
	}
}

/**
 * The subject has what a boleto or a card payment (`what`) needs registered: e-mail, phone and
 * address (CARD_SUBJECT_FIELDS).
 */
export function subjectHasCardFields(errors, subject, what) {
	if (!subject) return;
	const missing = CARD_SUBJECT_FIELDS.filter((field) => isBlank(subject[field]));
	if (missing.length) {
		errors.add(
			'subject_id',
			`the subject must have ${missing.join(', ')} registered for ${what}; update it with PUT /subject/people/:id`,
		);
	}
}
