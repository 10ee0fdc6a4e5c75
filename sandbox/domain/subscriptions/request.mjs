/**
 * POST /subscriptions: the request body's rules and the subscription record it creates, as plain
 * functions of the body, the sandbox's state (subjects, bank accounts) and the time.
 */
import { Errors, isBlank, requireMoney } from '../../validation.mjs';
import { check } from '../../errors.mjs';
import { CARD_SUBJECT_FIELDS } from '../transactions/references.mjs';
import { FREQUENCIES } from './schedule.mjs';
import { maskCard, validateCard, validateCardMeta, validateThreeds } from './card.mjs';

/**
 * Checks the body (422 with every message otherwise) and names what it refers to.
 * @param {any} body @param {{subjects: Map<string, any>, bankAccounts: Map<string, any>,
 *   accountPurposes: Record<string, any>}} state @param {number} now epoch ms
 * @returns {{input: any, subject: any, hasCard: boolean, hasPix: boolean}}
 */
export function validateSubscriptionRequest(body, state, now) {
	const input = body?.subscription;
	const errors = new Errors();
	if (!input || typeof input !== 'object' || Array.isArray(input)) {
		errors.add('subscription', "can't be blank");
		check(errors);
	}
	requireMoney(errors, input, 'value');
	if (isBlank(input.currency)) errors.add('currency', "can't be blank");
	else if (input.currency !== 'BRL') errors.add('currency', 'only BRL is accepted');
	const hasCard = input.from_card !== undefined && input.from_card !== null;
	const hasPix = !isBlank(input.from_bank_account_id);
	if (isBlank(input.frequency)) errors.add('frequency', "can't be blank");
	else if (!FREQUENCIES.includes(input.frequency))
		errors.add('frequency', `must be one of: ${FREQUENCIES.join(', ')}`);
	else if (hasPix && input.frequency === 'day')
		errors.add('frequency', 'day is not allowed for automatic PIX');
	validateInteger(errors, input, 'cycles', 1, undefined, true);
	validateInteger(errors, input, 'trial_days', 0, 3650, false);
	validateInteger(errors, input, 'free_days', 0, 3650, false);
	validateInteger(errors, input, 'total_retry_attempts', 0, 3, false);
	if (
		input.description !== undefined &&
		input.description !== null &&
		typeof input.description !== 'string'
	)
		errors.add('description', 'must be a string');
	if (
		input.meta !== undefined &&
		input.meta !== null &&
		(typeof input.meta !== 'object' || Array.isArray(input.meta))
	)
		errors.add('meta', 'must be an object');
	let subject = null;
	if (isBlank(input.subject_id)) errors.add('subject_id', "can't be blank");
	else if (!(subject = state.subjects.get(input.subject_id)))
		errors.add('subject_id', 'was not found');
	if (isBlank(input.to_bank_account_id)) errors.add('to_bank_account_id', "can't be blank");
	else if (!state.bankAccounts.has(input.to_bank_account_id))
		errors.add('to_bank_account_id', 'was not found');
	else if (!state.accountPurposes[input.to_bank_account_id]?.partner)
		errors.add(
			'to_bank_account_id',
			"must be one of the partner's internal or international accounts",
		);
	if (hasCard && hasPix)
		errors.add(
			'from_bank_account_id',
			'give either from_card (card) or from_bank_account_id (automatic PIX), not both',
		);
	else if (!hasCard && !hasPix)
		errors.add(
			'from_card',
			"can't be blank: give from_card (card) or from_bank_account_id (automatic PIX)",
		);
	if (hasPix) {
		const account = state.bankAccounts.get(input.from_bank_account_id);
		if (
			!account ||
			!state.accountPurposes[account.id]?.partner ||
			account.currency !== 'BRL' ||
			!account.pix_info?.key
		) {
			errors.add(
				'from_bank_account_id',
				"must be the partner's exclusive BRL bank account with a PIX key",
			);
		}
	}
	if (hasCard) validateFromCard(errors, input.from_card, subject, now);
	check(errors);
	return { input, subject, hasCard, hasPix };
}

/** An optional (or required) integer field within [min, max]. */
function validateInteger(errors, input, field, min, max, required) {
	const value = input[field];
	if (value === undefined || value === null || value === '') {
		if (required) errors.add(field, "can't be blank");
		return;
	}
	if (!Number.isInteger(Number(value)) || typeof value === 'boolean')
		errors.add(field, 'must be an integer');
	else if (Number(value) < min || (max !== undefined && Number(value) > max))
		errors.add(
			field,
			max === undefined ? `must be at least ${min}` : `must be between ${min} and ${max}`,
		);
}

/** `from_card`: the card, its meta, the 3DS data, and the subject's fields card payments need. */
function validateFromCard(errors, card, subject, now) {
	if (typeof card !== 'object' || Array.isArray(card)) {
		errors.add('from_card', 'must be an object');
		return;
	}
	validateCard(errors, card, 'from_card.', now);
	validateCardMeta(errors, card);
	validateThreeds(errors, card.threeds);
	if (!subject) return;
	const missing = CARD_SUBJECT_FIELDS.filter((field) => isBlank(subject[field]));
	if (missing.length)
		errors.add(
			'subject_id',
			`the subject must have ${missing.join(', ')} registered for card payments; update it with PUT /subject/people/:id`,
		);
}

/**
 * The new subscription (status `pending`) of a checked request.
 * @param {{input: any, subject: any, hasCard: boolean, hasPix: boolean}} request
 * @param {{id: string, now: string}} made id and ISO time of creation
 */
export function newSubscription({ input, subject, hasCard, hasPix }, { id, now }) {
	return {
		id,
		status: 'pending',
		payment_method: hasCard ? 'card' : 'automatic_pix',
		subject_id: subject.id,
		value: input.value,
		currency: 'BRL',
		frequency: input.frequency,
		cycles: Number(input.cycles),
		trial_days: Number(input.trial_days ?? 0),
		free_days: Number(input.free_days ?? 0),
		total_retry_attempts: Number(input.total_retry_attempts ?? 0),
		description: input.description ?? null,
		to_bank_account_id: input.to_bank_account_id,
		from_bank_account_id: hasPix ? input.from_bank_account_id : null,
		from_card: hasCard ? maskCard(input.from_card) : null,
		from_pix: null,
		meta: input.meta ?? {},
		start_date: now.slice(0, 10),
		next_due_date: null,
		canceled_by_payer: null,
		canceled_reason: null,
		canceled_at: null,
		completed_at: null,
		inserted_at: now,
		updated_at: now,
		_invoiceIds: [],
		_cardNumber: hasCard ? String(input.from_card.card_number) : null,
		_declineNext: 0,
	};
}
