/** Which kind of transaction a `POST /transactions` body asks for. */
import { Errors, toBool } from '../../validation.mjs';
import { check } from '../../errors.mjs';
import { isLocalPayIn } from '../localPayIns.mjs';

/**
 * `use_dynamic_pix` (true) makes a dynamic PIX, `from_boleto` a boleto, a local currency or a
 * stablecoin not from a cash-out account a local pay-in, anything else a payout. Throws the 422
 * for a body without `transaction`, or with `use_dynamic_pix` other than true.
 * @param {any} body @param {any} state
 * @returns {{ kind: 'dynamic_pix'|'boleto'|'local_pay_in'|'payout', tx: any }}
 */
export function requestKind(body, state) {
	const tx = body?.transaction;
	const errors = new Errors();
	if (!tx || typeof tx !== 'object' || Array.isArray(tx)) {
		errors.add('transaction', "can't be blank");
		check(errors);
	}
	if (tx.use_dynamic_pix !== undefined && tx.use_dynamic_pix !== null) {
		if (toBool(tx.use_dynamic_pix) !== true)
			errors.add(
				'use_dynamic_pix',
				'must be true for a dynamic PIX (omit it for boleto and payout)',
			);
		check(errors);
		return { kind: 'dynamic_pix', tx };
	}
	if (tx.from_boleto !== undefined) return { kind: 'boleto', tx };
	if (isLocalPayIn(tx, state)) return { kind: 'local_pay_in', tx };
	return { kind: 'payout', tx };
}
