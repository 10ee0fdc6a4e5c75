/** Which kind of transaction a `POST /transactions` body asks for. */
import { Errors, toBool } from '../../validation.mjs';
import { check } from '../../errors.mjs';
import { isLocalPayIn } from '../localPayIns.mjs';
import { isCardPayment } from './cardPayment.mjs';

/**
 * `use_dynamic_pix` (true) makes a dynamic PIX, `from_boleto` a boleto, `from_credit_card` a card
 * payment, a local currency or a stablecoin not from a cash-out account a local pay-in (also asked
 * with `from_pse` or `from_spei`), anything else a payout. Throws the 422
 * for a body without `transaction`, or with `use_dynamic_pix` other than true.
 * @param {any} body @param {any} state
 * @returns {{ kind: 'dynamic_pix'|'boleto'|'card'|'local_pay_in'|'payout', tx: any }}
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
	if (isCardPayment(tx)) return { kind: 'card', tx };
	if (isLocalPayIn(tx, state)) return { kind: 'local_pay_in', tx };
	return { kind: 'payout', tx };
}
