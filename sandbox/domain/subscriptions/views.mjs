/**
 * What the outside sees of subscriptions and invoices: the API's views (records without their
 * `_` internals) and the payloads of their events.
 */

/** A record without the sandbox's internal `_` fields. */
export function publicFields(record) {
	const out = {};
	for (const [key, value] of Object.entries(record)) if (!key.startsWith('_')) out[key] = value;
	return out;
}

export const invoiceView = publicFields;

/** A subscription with its invoices. @param {any[]} invoices */
export function subscriptionView(subscription, invoices) {
	return { ...publicFields(subscription), invoices: invoices.map(invoiceView) };
}

/** Payload of a `subscription_*` event; `extra` adds fields (e.g. the cancellation's). */
export function subscriptionEvent(subscription, extra = {}) {
	return {
		subscription: {
			id: subscription.id,
			status: subscription.status,
			subject_id: subscription.subject_id,
			...extra,
		},
	};
}

/** Payload of the `invoice_paid` event. */
export function invoiceEvent(invoice) {
	return {
		invoice: {
			id: invoice.id,
			status: invoice.status,
			subject_id: invoice.subject_id,
			subscription_id: invoice.subscription_id,
		},
	};
}
