/**
 * Wire correction (PUT /wires/:id/update_bank_account): a wire waiting for correction gets a new
 * destination account, waits for confirmation, and is sent again a minute later.
 */
import { Errors, isBlank, requireCurrency, requirePresent } from '../../validation.mjs';
import { check, invalid, notFound } from '../../errors.mjs';
import { sendWire } from './settlement.mjs';

/** A corrected wire is sent again this long after the correction. */
export const WIRE_RETRY_SECONDS = 60;
/** Account types a corrected Brazilian account may have. */
export const WIRE_ACCOUNT_TYPES = ['conta-corrente', 'poupanca'];

/**
 * What is wrong with a corrected bank account for `wire` (an `Errors` collector, empty when
 * nothing is).
 * @param {any} ba the body's `bank_account` @param {{ currency: string }} wire
 */
export function wireAccountErrors(ba, wire) {
	const errors = new Errors();
	if (!ba || typeof ba !== 'object') return errors.add('bank_account', "can't be blank");
	requireCurrency(errors, ba, 'currency');
	if (!ba.bank || typeof ba.bank !== 'object') errors.add('bank', "can't be blank");
	else requirePresent(errors, ba.bank, ['code', 'name'], 'bank.');
	requirePresent(errors, ba, [
		'branch_number',
		'account_number',
		'owner_document_number',
		'owner_name',
	]);
	if (isBlank(ba.branch_country)) errors.add('branch_country', "can't be blank");
	// The spec writes the wire correction's country with two letters; the public docs and clients
	// write `branch_country` with three (`BRA`, `COL`): both are taken.
	else if (!/^[A-Z]{2,3}$/.test(ba.branch_country))
		errors.add('branch_country', 'must be a two- or three-letter country code, e.g. "BR" or "BRA"');
	if (isBlank(ba.account_type)) errors.add('account_type', "can't be blank");
	else if (!WIRE_ACCOUNT_TYPES.includes(ba.account_type))
		errors.add('account_type', `must be one of: ${WIRE_ACCOUNT_TYPES.join(', ')}`);
	if (!isBlank(ba.currency) && ba.currency !== wire.currency)
		errors.add('currency', `must equal the wire currency (${wire.currency})`);
	return errors;
}

/**
 * Applies a correction: the wire gets a new account (the old one's fields, replaced by the
 * body's), becomes `waiting_confirmation`, and is sent after WIRE_RETRY_SECONDS.
 * @param {string} id @param {any} body @param {import('./env.mjs').TransactionEnv} env
 */
export function updateWireBankAccount(id, body, env) {
	const { state, clock } = env;
	const wire = state.wires.get(id);
	if (!wire) throw notFound();
	const ba = body?.bank_account;
	check(wireAccountErrors(ba, wire));
	if (wire.status !== 'waiting_correction')
		throw invalid(
			'status',
			`the wire is ${wire.status}; only a wire waiting for correction can be updated`,
		);
	const old = wire.to_bank_account;
	const updated = {
		...old,
		id: env.newId(),
		currency: ba.currency,
		bank: { ...(old?.bank ?? {}), code: ba.bank.code, name: ba.bank.name },
		branch_number: ba.branch_number,
		branch_country: ba.branch_country,
		account_number: ba.account_number,
		account_type: ba.account_type,
		owner_document_number: ba.owner_document_number,
		owner_name: ba.owner_name,
		internal: false,
	};
	state.bankAccounts.set(updated.id, updated);
	wire.to_bank_account = updated;
	wire.status = 'waiting_confirmation';
	clock.schedule(
		clock.now() + WIRE_RETRY_SECONDS * 1000,
		() => {
			if (wire.status === 'waiting_confirmation') sendWire(wire, env);
		},
		`wire retry ${wire.id}`,
	);
	return wire;
}
