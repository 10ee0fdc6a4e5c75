/**
 * Subscriptions, invoices and charges (card and automatic PIX). The rules live in
 * subscriptions/: schedule.mjs (the Schedule rules 1–5), card.mjs (card and 3DS data),
 * request.mjs (POST /subscriptions), transitions.mjs (changes asked from outside: authorise,
 * 3DS challenge, cancel), charging.mjs (invoices and charges on the clock),
 * views.mjs (views and event payloads). This module binds them to the sandbox's state.
 */
import { randomUUID } from 'node:crypto';
import { Errors } from '../validation.mjs';
import { check, invalid, notFound } from '../errors.mjs';
import { validateCard, maskCard } from './subscriptions/card.mjs';
import { newSubscription, validateSubscriptionRequest } from './subscriptions/request.mjs';
import { createCharging } from './subscriptions/charging.mjs';
import { invoiceView, subscriptionView } from './subscriptions/views.mjs';
import {
	authorizationRefusal,
	cancelRefusal,
	threedsChallengeRefusal,
} from './subscriptions/transitions.mjs';

/** A refused change answers 422 with its field and message. @param {import('./subscriptions/transitions.mjs').Refusal} refusal */
function refuseIf(refusal) {
	if (refusal) throw invalid(refusal.field, refusal.message);
}

export function createSubscriptions(ctx) {
	const { state, clock } = ctx;
	const charging = createCharging(ctx);

	function get(id) {
		const subscription = state.subscriptions.get(id);
		if (!subscription) throw notFound();
		return subscription;
	}

	function view(subscription) {
		return subscriptionView(subscription, charging.invoicesOf(subscription));
	}

	function create(body) {
		const request = validateSubscriptionRequest(body, state, clock.now());
		const subscription = newSubscription(request, { id: randomUUID(), now: clock.iso() });
		state.subscriptions.set(subscription.id, subscription);
		if (request.hasCard) charging.scheduleInvoice(subscription, 0);
		else charging.planQrCode(subscription);
		return subscription;
	}

	/** PUT /subscriptions/:id/cancel (partner) and the payer's cancellation (control endpoint). */
	function cancelActive(id, body, byPayer) {
		const subscription = get(id);
		refuseIf(cancelRefusal(subscription, body?.reason, byPayer));
		charging.cancel(subscription, { byPayer, reason: body?.reason ?? 'canceled_by_payer' });
		return subscription;
	}

	/** The payer scans the automatic PIX QR code and authorises the recurrence. */
	function authorize(id) {
		const subscription = get(id);
		refuseIf(authorizationRefusal(subscription));
		subscription.from_pix.status = 'authorized';
		subscription.from_pix.authorized_at = clock.iso();
		charging.activate(subscription);
		charging.scheduleInvoice(subscription, 0);
		return subscription;
	}

	/** POST /subscriptions/:id/threeds_challenge: new card data; retries a failed first invoice. */
	function threedsChallenge(id, body) {
		const subscription = get(id);
		const errors = new Errors();
		const card = body?.credit_card;
		if (!card || typeof card !== 'object') errors.add('credit_card', "can't be blank");
		else validateCard(errors, card, 'credit_card.', clock.now());
		check(errors);
		refuseIf(threedsChallengeRefusal(subscription));
		subscription.from_card = {
			...subscription.from_card,
			...maskCard({ ...card, card_type: subscription.from_card?.card_type }),
		};
		subscription._cardNumber = String(card.card_number);
		const first = charging.invoicesOf(subscription)[0];
		if (first && first.status === 'failed') {
			first.status = 'pending';
			charging.attempt(subscription, first);
		}
		return subscription;
	}

	function decline(id, count = 1) {
		const subscription = get(id);
		subscription._declineNext += Number(count) || 1;
		return subscription;
	}

	function invoicesFor(id) {
		const subscription = state.subscriptions.get(id);
		if (subscription) return charging.invoicesOf(subscription).map(invoiceView);
		const invoice = state.invoices.get(id);
		if (invoice) return invoiceView(invoice);
		throw notFound();
	}

	return {
		get,
		view,
		create,
		cancelActive,
		authorize,
		threedsChallenge,
		decline,
		invoicesFor,
		invoiceView,
	};
}
