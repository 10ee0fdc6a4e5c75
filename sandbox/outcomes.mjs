/**
 * Payment outcomes on demand, for "charge and wait" (issue 37): a charge paid, expired or failed
 * now, after a delay in REAL seconds (the wall clock, not the virtual one: a waiting n8n execution
 * lives in real time), or many at once (a burst). Each outcome is the sandbox's ordinary move of
 * the transaction (transactions/customerPayment.mjs, status.mjs), so its event is delivered and its
 * notification record written as any other.
 *
 * Outcomes:
 * - `paid`: a pending dynamic PIX, boleto, local pay-in (PSE, SPEI, CLP…) paid by its customer
 *   (`identified`); a checkout (its id) paid by card (`payment_approved`, then `identified`); a card
 *   payment played `later` (`POST /_sandbox/play {"card_identification":"later"}`) identified.
 * - `expired`: a pending dynamic PIX, boleto or local pay-in expires now (`canceled`, reason
 *   `expired`, `payment_expired`), without moving the virtual clock.
 * - `failed`: a checkout attempt is declined (`payment_failed`, the page stays `active`); a pending
 *   card payment is declined (`canceled`, `card_declined`, `payment_failed`). A PIX, boleto or local
 *   pay-in does not fail (it expires, or is refunded): refused.
 * - `refunded`: a dynamic PIX paid by another document than its subject's (`payment_refunded`).
 */
import { invalid } from './errors.mjs';
import { getTransaction } from './domain/transactions/record.mjs';
import { expire, identify, markCanceled } from './domain/transactions/status.mjs';
import { PAYABLE_KINDS } from './domain/transactions/customerPayment.mjs';

export const OUTCOMES = ['paid', 'expired', 'failed', 'refunded'];
/** The longest delay an outcome may be scheduled for (real seconds). */
export const MAX_DELAY_SECONDS = 3600;
/** The most transactions one burst may decide. */
export const MAX_BURST = 5000;

/**
 * @param {any} ctx the sandbox context (ctx.transactions, ctx.state, ctx.webhooks, ctx.clock)
 */
export function createOutcomes(ctx) {
	/** Outcomes scheduled or done, newest last (the latest 10 000). @type {any[]} */
	const scheduled = [];
	/** @type {Set<NodeJS.Timeout>} */
	const timers = new Set();

	/** Checks that `id` can take `outcome` now; throws the 422 the control endpoint answers. */
	function check(id, outcome) {
		if (!OUTCOMES.includes(outcome))
			throw invalid('outcome', `must be one of: ${OUTCOMES.join(', ')}`);
		const checkout = ctx.state.checkouts.get(id);
		if (checkout) {
			if (outcome !== 'paid' && outcome !== 'failed')
				throw invalid('outcome', 'a checkout page is paid or has a declined attempt (failed)');
			if (checkout.status !== 'active')
				throw invalid('status', `the checkout is ${checkout.status}, not active`);
			return;
		}
		const transaction = ctx.transactions.get(id);
		if (transaction.status !== 'pending')
			throw invalid(
				'status',
				`the transaction is ${transaction.status}; only a pending payment can be decided`,
			);
		const payable = PAYABLE_KINDS.includes(transaction._kind);
		if (transaction._kind === 'card') {
			if (outcome !== 'paid' && outcome !== 'failed')
				throw invalid('outcome', 'a card payment is paid (identified) or failed (declined)');
			return;
		}
		if (!payable)
			throw invalid(
				'id',
				'only dynamic PIX, boleto, local pay-in, card payment and checkout charges can be decided here',
			);
		if (outcome === 'failed')
			throw invalid(
				'outcome',
				'a PIX, boleto or local pay-in does not fail: it is paid, expires or is refunded',
			);
		if (outcome === 'refunded' && transaction._kind !== 'dynamic_pix')
			throw invalid('outcome', 'only a dynamic PIX is refunded to a third-party payer here');
	}

	/** Decides `id` now (after check()); answers the transaction (or the checkout's attempt). */
	function decideNow(id, outcome) {
		check(id, outcome);
		const checkout = ctx.state.checkouts.get(id);
		if (checkout) return ctx.transactions.pay(id, { success: outcome === 'paid' });
		const transaction = getTransaction({ state: ctx.state }, id);
		if (transaction._kind === 'card') {
			if (outcome === 'paid') identify(transaction, ctx.transactions.env);
			else {
				markCanceled(transaction, 'card_declined', ctx.clock);
				ctx.emit('payment_failed', { transaction_id: transaction.id });
			}
			return transaction;
		}
		if (outcome === 'expired') {
			expire(transaction, ctx.transactions.env);
			return transaction;
		}
		if (outcome === 'refunded') {
			const subject = ctx.state.subjects.get(transaction.subject_id);
			const other = subject?.document_number === '00000000191' ? '00000000272' : '00000000191';
			return ctx.transactions.pay(id, { success: true, payer_document_number: other });
		}
		return ctx.transactions.pay(id, { success: true });
	}

	function remember(entry) {
		scheduled.push(entry);
		if (scheduled.length > 10000) scheduled.splice(0, scheduled.length - 10000);
		return entry;
	}

	/**
	 * Decides `ids` with `outcome`, now (`afterSeconds` 0) or that many real seconds later, all in
	 * one go (a burst: every move is made before any delivery goes out). Every id is checked first:
	 * one that cannot take the outcome is refused (`refused`) and the others go on.
	 * @param {string[]} ids @param {string} outcome @param {number} afterSeconds
	 */
	function decide(ids, outcome, afterSeconds = 0) {
		if (!OUTCOMES.includes(outcome))
			throw invalid('outcome', `must be one of: ${OUTCOMES.join(', ')}`);
		if (
			!(typeof afterSeconds === 'number' && afterSeconds >= 0 && afterSeconds <= MAX_DELAY_SECONDS)
		)
			throw invalid('after_seconds', `must be a number of seconds from 0 to ${MAX_DELAY_SECONDS}`);
		/** @type {{id: string, error: string}[]} */
		const refused = [];
		const accepted = [];
		for (const id of ids) {
			try {
				check(id, outcome);
				accepted.push(id);
			} catch (error) {
				refused.push({ id, error: errorText(error) });
			}
		}
		const entry = remember({
			ids: accepted,
			outcome,
			after_seconds: afterSeconds,
			requested_at_ms: Date.now(),
			due_at_ms: Date.now() + afterSeconds * 1000,
			done_at_ms: null,
			/** @type {{id: string, error: string}[]} */
			errors: [],
		});
		const run = () => {
			for (const id of accepted) {
				try {
					decideNow(id, outcome);
				} catch (error) {
					entry.errors.push({ id, error: errorText(error) });
				}
			}
			entry.done_at_ms = Date.now();
		};
		if (afterSeconds === 0) run();
		else {
			const timer = setTimeout(() => {
				timers.delete(timer);
				run();
			}, afterSeconds * 1000);
			timer.unref?.();
			timers.add(timer);
		}
		return { entry, refused };
	}

	return {
		check,
		decide,
		list: () => scheduled,
		/** Cancels every outcome not done yet (reset, close). */
		stop() {
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
		},
		pending: () => timers.size,
	};
}

/** @param {unknown} error */
function errorText(error) {
	const body = /** @type {any} */ (error)?.body;
	if (body?.errors)
		return Object.entries(body.errors)
			.map(([field, messages]) => `${field} ${[].concat(messages).join(', ')}`)
			.join('; ');
	return /** @type {Error} */ (error)?.message ?? String(error);
}
