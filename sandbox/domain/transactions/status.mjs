/**
 * The status machine of a transaction:
 * pending → identified → (exchanged) → (wired); pending|identified → canceled.
 * Each move is one function; a refused move throws the 422 the API answers.
 */
import { invalid } from '../../errors.mjs';
import { writeAmount } from './amounts.mjs';
import { settle } from './settlement.mjs';

/** @typedef {import('./env.mjs').TransactionEnv} TransactionEnv */

/** The money is recognised as the subject's: `identified`, then the exchange / wire step if automatic. */
export function identify(transaction, env) {
	transaction.status = 'identified';
	env.emit('identified', { transaction_id: transaction.id });
	if (env.autoSettle) settle(env, {});
}

/** `canceled` for `reason`, now; a scheduled expiry no longer runs. */
export function markCanceled(transaction, reason, clock) {
	clock.cancel(transaction._expiryTask);
	transaction.status = 'canceled';
	transaction.canceled_reason = reason;
	transaction.canceled_at = clock.iso();
}

/** An unpaid payment expires (`payment_expired`); any other status is left as it is. */
export function expire(transaction, env) {
	if (transaction.status !== 'pending') return;
	markCanceled(transaction, 'expired', env.clock);
	env.emit('payment_expired', { transaction_id: transaction.id });
}

/**
 * GET /transactions/:id/refund: cancels a payment that has not been processed (the node's
 * Transaction → Cancel). Named after what it does; the service's path says "refund". Answers
 * the void record, as the service does (live docs: "Cancel answer"), not the transaction.
 * @param {any} transaction @param {TransactionEnv} env
 */
export function cancelPayment(transaction, env) {
	if (transaction.status !== 'pending') {
		throw invalid(
			'status',
			`the transaction is ${transaction.status}; only a pending (unprocessed) payment can be canceled. For a received payment use GET /transactions/:id/refund_received_transaction`,
		);
	}
	markCanceled(transaction, 'canceled_by_partner', env.clock);
	return {
		id: env.newId(),
		reason: transaction.canceled_reason,
		inserted_at: env.clock.iso(),
		status: 'canceled',
		transaction_kind: 'payment',
		bank_transaction: {
			id: transaction.bank_transaction?.id ?? env.newId(),
			value: transaction.value,
			iof_value: writeAmount(0n, transaction.currency),
			fx_value: writeAmount(0n, transaction.currency),
			exchange_rate: null,
			exchanged_value: transaction.exchanged_value,
			wire_id: transaction.wire_id,
			exchange_id: transaction.exchange_id,
		},
	};
}

/**
 * GET /transactions/:id/refund_received_transaction: full refund of a received pay-in (the node's
 * Transaction → Refund). Only an identified pay-in, not yet exchanged or wired, can be refunded.
 * @param {any} transaction @param {TransactionEnv} env
 */
export function refundReceived(transaction, env) {
	if (transaction.status !== 'identified' || transaction._kind === 'payout') {
		throw invalid(
			'status',
			`the transaction is ${transaction.status}${transaction._kind === 'payout' ? ' (a payout)' : ''}; only a received payment that is identified and not yet exchanged or wired can be refunded`,
		);
	}
	markCanceled(transaction, 'refunded', env.clock);
	transaction.refunded_value = transaction.value;
	env.emit('payment_refunded', { transaction_id: transaction.id });
	return transaction;
}

/** A card payment played `later` becomes identified now (POST /_sandbox/transactions/:id/identify). */
export function identifyNow(transaction, env) {
	if (transaction.status !== 'pending')
		throw invalid('status', `the transaction is ${transaction.status}, not pending`);
	identify(transaction, env);
	return transaction;
}
