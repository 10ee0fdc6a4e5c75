/**
 * The life of a subscription on the sandbox clock: invoices scheduled by the Schedule rules
 * (schedule.mjs), charges attempted and retried, activation, completion, cancellation, the
 * automatic PIX QR code, and their events.
 */
import { randomUUID } from 'node:crypto';
import { isoSeconds } from '../../clock.mjs';
import { buildDynamicBrCode } from '../../brcode.mjs';
import {
	afterFailedCharge,
	attemptCharges,
	attemptTime,
	collectionTime,
	dueDate,
	isLastCycle,
} from './schedule.mjs';
import { chargeOutcome } from './card.mjs';
import { invoiceEvent, subscriptionEvent } from './views.mjs';

export const QR_CODE_READY_EVENT = 'subscription_qr_code_ready';

/**
 * Invoice `index` (0-based) of a subscription, pending, due by the Schedule rules.
 * @param {{id: string, now: string}} made id and ISO time of creation
 */
export function newInvoice(subscription, index, { id, now }) {
	return {
		id,
		subscription_id: subscription.id,
		subject_id: subscription.subject_id,
		status: 'pending',
		cycle: index + 1,
		value: subscription.value,
		currency: subscription.currency,
		due_date: dueDate(subscription, index),
		next_attempt_at: null,
		paid_at: null,
		charges: [],
		inserted_at: now,
		updated_at: now,
		_task: null,
	};
}

/** @param {{state: any, clock: any, emit: Function, publicHost: () => string}} ctx */
export function createCharging(ctx) {
	const { state, clock } = ctx;

	function invoicesOf(subscription) {
		return subscription._invoiceIds.map((id) => state.invoices.get(id));
	}

	function scheduleInvoice(subscription, index) {
		const invoice = newInvoice(subscription, index, { id: randomUUID(), now: clock.iso() });
		state.invoices.set(invoice.id, invoice);
		subscription._invoiceIds.push(invoice.id);
		subscription.next_due_date = invoice.due_date;
		planAttempt(subscription, invoice, collectionTime(invoice.due_date));
		return invoice;
	}

	function planAttempt(subscription, invoice, at) {
		const when = attemptTime(at, clock.now());
		invoice.next_attempt_at = isoSeconds(when);
		invoice._task = clock.schedule(
			when,
			() => attempt(subscription, invoice),
			`charge of invoice ${invoice.id} (cycle ${invoice.cycle})`,
		);
	}

	function attempt(subscription, invoice) {
		invoice._task = null;
		if (!attemptCharges(subscription, invoice)) return;
		const outcome = chargeOutcome(subscription);
		if (!outcome.ok && outcome.forced) subscription._declineNext--;
		invoice.charges.push({
			id: randomUUID(),
			invoice_id: invoice.id,
			status: outcome.ok ? 'succeeded' : 'failed',
			attempt: invoice.charges.length + 1,
			value: invoice.value,
			failure_reason: outcome.ok ? null : outcome.reason,
			attempted_at: clock.iso(),
		});
		invoice.next_attempt_at = null;
		invoice.updated_at = clock.iso();
		subscription.updated_at = clock.iso();
		if (outcome.ok) paid(subscription, invoice);
		else failed(subscription, invoice);
	}

	function paid(subscription, invoice) {
		invoice.status = 'paid';
		invoice.paid_at = clock.iso();
		ctx.emit('invoice_paid', invoiceEvent(invoice));
		if (subscription.status === 'pending') activate(subscription);
		if (!isLastCycle(subscription, invoice)) {
			scheduleInvoice(subscription, invoice.cycle);
			return;
		}
		subscription.status = 'completed';
		subscription.completed_at = clock.iso();
		subscription.next_due_date = null;
		ctx.emit('subscription_completed', subscriptionEvent(subscription));
	}

	function failed(subscription, invoice) {
		const next = afterFailedCharge(subscription, invoice, clock.now());
		if (next.action === 'retry') {
			planAttempt(subscription, invoice, next.at);
			return;
		}
		invoice.status = 'failed';
		if (next.action === 'cancel')
			cancel(subscription, { byPayer: false, reason: 'retry_attempts_exhausted' });
	}

	function activate(subscription) {
		subscription.status = 'active';
		subscription.updated_at = clock.iso();
		ctx.emit('subscription_activated', subscriptionEvent(subscription));
	}

	function cancel(subscription, { byPayer, reason }) {
		subscription.status = 'canceled';
		subscription.canceled_by_payer = byPayer;
		subscription.canceled_reason = reason;
		subscription.canceled_at = clock.iso();
		subscription.updated_at = clock.iso();
		subscription.next_due_date = null;
		for (const invoice of invoicesOf(subscription)) {
			if (invoice.status === 'pending') {
				clock.cancel(invoice._task);
				invoice.status = 'canceled';
				invoice.next_attempt_at = null;
				invoice.updated_at = clock.iso();
			}
		}
		ctx.emit(
			'subscription_canceled',
			subscriptionEvent(subscription, { canceled_by_payer: byPayer, canceled_reason: reason }),
		);
	}

	/** Automatic PIX: the recurrence's QR code, generated on the next clock tick after creation. */
	function planQrCode(subscription) {
		clock.schedule(
			clock.now(),
			() => generateQrCode(subscription),
			`automatic PIX QR code of ${subscription.id}`,
		);
	}

	function generateQrCode(subscription) {
		if (subscription.status !== 'pending' || subscription.from_pix) return;
		const loc = `${ctx.publicHost()}/_sandbox/pix/rec/${subscription.id.replace(/-/g, '')}`;
		subscription.from_pix = {
			status: 'waiting_authorization',
			qr_code: buildDynamicBrCode({
				location: loc,
				value: subscription.value,
				reference: subscription.id.replace(/-/g, '').slice(0, 25),
				recurrence: loc,
			}),
			generated_at: clock.iso(),
			authorized_at: null,
		};
		subscription.updated_at = clock.iso();
		ctx.emit(QR_CODE_READY_EVENT, subscriptionEvent(subscription));
	}

	return { invoicesOf, scheduleInvoice, attempt, activate, cancel, planQrCode };
}
