/**
 * The customer pays (or not) what they were sent: a dynamic PIX, a boleto, a local pay-in or a
 * checkout page (POST /_sandbox/pay/:id).
 */
import { isBlank, toBool } from '../../validation.mjs';
import { invalid } from '../../errors.mjs';
import { checkoutAttempt } from './cardCheckout.mjs';
import { getTransaction } from './record.mjs';
import { expire, identify, markCanceled } from './status.mjs';

/** Kinds of transaction a customer pays on their own (the others are paid or sent otherwise). */
export const PAYABLE_KINDS = ['dynamic_pix', 'boleto', 'local_pay_in'];

/**
 * `id` is a checkout page or a pending payable transaction. Paid (`success`, the default), the
 * payment is identified, except a dynamic PIX paid by someone else than its subject
 * (`payer_document_number`), which is refunded to them; not paid, it expires.
 * @param {string} id @param {any} body @param {import('./env.mjs').TransactionEnv} env
 */
export function pay(id, body, env) {
	const { state, clock } = env;
	const success = body.success === undefined ? true : toBool(body.success);
	if (success === undefined) throw invalid('success', 'must be true or false');
	const checkout = state.checkouts.get(id);
	if (checkout) return checkoutAttempt(checkout, success, env);
	const transaction = getTransaction(env, id);
	if (!PAYABLE_KINDS.includes(transaction._kind))
		throw invalid(
			'id',
			'only dynamic PIX, boleto, local pay-in and checkout payments can be paid here',
		);
	if (transaction.status !== 'pending')
		throw invalid(
			'status',
			`the transaction is ${transaction.status}; only a pending transaction can be paid`,
		);
	if (!success) {
		expire(transaction, env);
		return transaction;
	}
	clock.cancel(transaction._expiryTask);
	transaction.paid_at = clock.iso();
	const payer = body.payer_document_number;
	const subject = state.subjects.get(transaction.subject_id);
	if (transaction._kind === 'dynamic_pix' && !isBlank(payer) && payer !== subject.document_number) {
		transaction.payer_document_number = payer;
		markCanceled(transaction, 'third_party_payer_refunded', clock);
		env.emit('payment_refunded', { transaction_id: transaction.id });
		return transaction;
	}
	identify(transaction, env);
	return transaction;
}
