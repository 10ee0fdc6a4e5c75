/**
 * Which status changes a subscription accepts from outside the schedule (spec "Subscription
 * status"): each function answers why the change is refused (the field and message of the 422),
 * or null when it is allowed.
 *
 *   pending (automatic PIX, QR code ready) ── payer authorises ──────────▶ active
 *   pending (card) ─────────────────────────── 3DS challenge (new card) ──▶ first invoice retried
 *   active ──────────────────────────────────── partner or payer cancels ──▶ canceled
 */
import { isBlank } from '../../validation.mjs';

/** @typedef {{field: string, message: string} | null} Refusal */

/**
 * PUT /subscriptions/:id/cancel (the partner gives a reason) and the payer's cancellation.
 * @param {{status: string}} subscription @param {unknown} reason @param {boolean} byPayer
 * @returns {Refusal}
 */
export function cancelRefusal(subscription, reason, byPayer) {
	if (!byPayer && isBlank(reason)) return { field: 'reason', message: "can't be blank" };
	if (subscription.status === 'active') return null;
	return {
		field: 'status',
		message: `only an active subscription can be canceled (this one is ${subscription.status})`,
	};
}

/**
 * The payer authorises an automatic PIX recurrence by paying its QR code.
 * @param {{status: string, payment_method: string, from_pix: unknown}} subscription
 * @returns {Refusal}
 */
export function authorizationRefusal(subscription) {
	if (subscription.payment_method !== 'automatic_pix')
		return {
			field: 'payment_method',
			message: 'only an automatic PIX subscription is authorised by the payer',
		};
	if (subscription.status !== 'pending')
		return {
			field: 'status',
			message: `the subscription is ${subscription.status}; only a pending one can be authorised`,
		};
	if (!subscription.from_pix)
		return {
			field: 'from_pix',
			message:
				'the QR code is not generated yet; advance the clock (POST /_sandbox/clock/advance {"seconds":0})',
		};
	return null;
}

/**
 * POST /subscriptions/:id/threeds_challenge: new card data for a pending card subscription.
 * @param {{status: string, payment_method: string}} subscription
 * @returns {Refusal}
 */
export function threedsChallengeRefusal(subscription) {
	if (subscription.payment_method !== 'card')
		return { field: 'payment_method', message: 'only a card subscription has a 3DS challenge' };
	if (subscription.status !== 'pending')
		return {
			field: 'status',
			message: `the subscription is ${subscription.status}; the 3DS challenge applies to a pending subscription`,
		};
	return null;
}
