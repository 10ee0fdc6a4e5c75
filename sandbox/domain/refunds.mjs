/**
 * Refund status (the payment-orchestrator connector):
 * `GET /transactions/:id/refund_received_transaction/:refund_id` reads one refund of a received
 * payment, `{id, status}`. The sandbox's refund answer is the refunded transaction, so its
 * `refund_id` is the transaction's id (a refund record's own id, `transaction._refund.id`, is
 * taken too should the refund answer become one).
 */
import { notFound } from '../errors.mjs';

export function createRefunds(ctx) {
	const { state } = ctx;

	/** @param {string} transactionId @param {string} refundId */
	function status(transactionId, refundId) {
		const transaction = state.transactions.get(transactionId);
		if (!transaction || transaction.canceled_reason !== 'refunded') throw notFound();
		const ownId = transaction._refund?.id;
		if (refundId !== transaction.id && refundId !== ownId) throw notFound();
		return {
			id: refundId,
			status: 'canceled',
			transaction_id: transaction.id,
			value: transaction.refunded_value ?? transaction.value,
			currency: transaction.currency,
			inserted_at: transaction.canceled_at,
		};
	}

	return { status };
}
