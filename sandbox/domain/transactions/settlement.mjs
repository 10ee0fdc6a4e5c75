/**
 * The exchange / wire step: identified, cleared transactions are grouped by subject and
 * destination account; a group to convert becomes one exchange, a group to pay out of the
 * sandbox one wire (sent, or waiting for correction when an error code is played).
 */
import { Errors } from '../../validation.mjs';
import { check, invalid } from '../../errors.mjs';
import { ACCOUNT_IDS } from '../../accounts.mjs';
import { amountCents, convertAmount, writeAmount } from './amounts.mjs';
import { newTransaction } from './record.mjs';
import { subjectRef } from './references.mjs';

/** The wire error codes the sandbox plays (ISO 20022 reasons). */
export const WIRE_ERRORS = {
	AC03: 'Creditor account number invalid or missing',
	AC14: 'Creditor account type missing or invalid',
	CH11: 'Creditor identifier value incorrect',
	AG03: 'Transaction type not supported or authorised on the account',
};

/** Whether the money leaves the sandbox's own accounts (an external destination). */
export function needsWire(transaction) {
	return Boolean(transaction.to_bank_account && !transaction.to_bank_account.internal);
}

/** Transactions grouped by subject and destination account, in order of first appearance. */
export function groupByDestination(list) {
	const byDestination = new Map();
	for (const transaction of list) {
		const key = `${transaction.subject_id}|${transaction.to_bank_account?.id}`;
		if (!byDestination.has(key)) byDestination.set(key, []);
		byDestination.get(key).push(transaction);
	}
	return [...byDestination.values()];
}

/** Sum of the group's amounts (`pick` chooses which), written in `currency`. */
function total(group, pick, currency) {
	return writeAmount(
		group.reduce((sum, transaction) => sum + amountCents(pick(transaction)), 0n),
		currency,
	);
}

/** One exchange of a group: each transaction becomes `exchanged` at the sandbox's rate. */
function exchange(group, env) {
	const first = group[0];
	const ex = {
		id: env.newId(),
		subject_id: first.subject_id,
		to_bank_account_id: first.to_bank_account?.id ?? null,
		currency: first.currency,
		exchange_currency: first.exchange_currency,
		value: total(group, (transaction) => transaction.value, first.currency),
		exchanged_value: null,
		transaction_ids: group.map((transaction) => transaction.id),
		inserted_at: env.clock.iso(),
	};
	for (const transaction of group) {
		transaction.status = 'exchanged';
		transaction.exchanged_value = convertAmount(
			transaction.value,
			transaction.currency,
			transaction.exchange_currency,
		);
		transaction.exchange_id = ex.id;
	}
	ex.exchanged_value = total(
		group,
		(transaction) => transaction.exchanged_value,
		first.exchange_currency,
	);
	env.state.exchanges.set(ex.id, ex);
	env.emit('exchange_created', { exchange_id: ex.id, transaction_ids: ex.transaction_ids });
	return ex;
}

/** A new wire of a group to its destination account (status `sent` until played otherwise). */
function newWire(group, env) {
	const to = group[0].to_bank_account;
	return {
		id: env.newId(),
		currency: to.currency,
		value: total(
			group,
			(transaction) => transaction.exchanged_value ?? transaction.value,
			to.currency,
		),
		status: 'sent',
		method: group[0].payout_method ?? (to.currency === 'BRL' ? 'ted' : 'swift'),
		inserted_at: env.clock.iso(),
		unretryable: false,
		subject_id: group[0].subject_id,
		to_bank_account: to,
		transaction_ids: group.map((transaction) => transaction.id),
		error_code: null,
		error_description: null,
	};
}

/** The wire leaves: `sent`, its transactions `wired`, and a `wire_created` event. */
export function sendWire(wire, env) {
	wire.status = 'sent';
	wire.error_code = null;
	wire.error_description = null;
	for (const id of wire.transaction_ids) {
		const transaction = env.state.transactions.get(id);
		if (transaction) transaction.status = 'wired';
	}
	env.emit('wire_created', { wire_id: wire.id, transaction_ids: wire.transaction_ids });
}

/** The wire stops, waiting for a corrected bank account (`wire_waiting_correction`). */
function holdWire(wire, code, env) {
	wire.status = 'waiting_correction';
	wire.error_code = code;
	wire.error_description = WIRE_ERRORS[code];
	env.emit('wire_waiting_correction', {
		error_code: code,
		error_description: WIRE_ERRORS[code],
		bank_account_owner_id: wire.subject_id,
		bank_account_id: wire.to_bank_account.id,
		transaction_ids: wire.transaction_ids,
		wire_id: wire.id,
	});
}

/**
 * Runs the exchange / wire step over the cleared transactions (or only those in `only`).
 * @param {import('./env.mjs').TransactionEnv} env
 * @param {{ wire_error_code?: string, only?: Set<string> }} options
 */
export function settle(env, options = {}) {
	const code = options.wire_error_code;
	if (code !== undefined && !WIRE_ERRORS[code])
		throw invalid('wire_error_code', `must be one of: ${Object.keys(WIRE_ERRORS).join(', ')}`);
	const all = [...env.state.transactions.values()].filter(
		(transaction) => transaction.cleared && (!options.only || options.only.has(transaction.id)),
	);
	const exchanges = groupByDestination(
		all.filter((transaction) => transaction.status === 'identified' && transaction.for_exchange),
	).map((group) => exchange(group, env));
	const wireable = all.filter(
		(transaction) =>
			!transaction.wire_id &&
			needsWire(transaction) &&
			(transaction.status === 'exchanged' ||
				(transaction.status === 'identified' && !transaction.for_exchange)),
	);
	const wires = [];
	for (const group of groupByDestination(wireable)) {
		const wire = newWire(group, env);
		for (const transaction of group) transaction.wire_id = wire.id;
		env.state.wires.set(wire.id, wire);
		wires.push(wire);
		if (code) holdWire(wire, code, env);
		else sendWire(wire, env);
	}
	return { exchanges, wires };
}

/**
 * A wire grouping many transactions: `count` pay-ins of one subject, identified, to the partner's
 * USD destination account, then the exchange / wire step: one exchange_created and one
 * wire_created (or wire_waiting_correction) naming all of them. No `identified` event per pay-in.
 * @param {any} body @param {import('./env.mjs').TransactionEnv} env
 */
export function groupedWire(body, env) {
	const errors = new Errors();
	const subject = subjectRef(errors, env.state, body.subject_id);
	const count = body.count ?? 40;
	if (!(Number.isInteger(count) && count > 0 && count <= 1000))
		errors.add('count', 'must be a whole number from 1 to 1000');
	const value = body.value ?? '10.00';
	if (typeof value !== 'string' || !/^\d+\.\d{2}$/.test(value))
		errors.add('value', 'must be a string with two decimals');
	check(errors);
	const ids = [];
	for (let n = 0; n < count; n++) {
		const transaction = newTransaction(
			'static_pix',
			subject,
			{
				value,
				currency: 'BRL',
				exchange_currency: 'USD',
				to_bank_account_id: ACCOUNT_IDS.usdDestination,
			},
			env,
		);
		transaction.cleared = true;
		transaction.status = 'identified';
		transaction.paid_at = env.clock.iso();
		env.state.transactions.set(transaction.id, transaction);
		ids.push(transaction.id);
	}
	const settled = settle(env, { wire_error_code: body.wire_error_code, only: new Set(ids) });
	return { transaction_ids: ids, ...settled };
}
