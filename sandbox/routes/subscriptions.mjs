/** Subscription and invoice endpoints. */
import { page } from '../state.mjs';
import { applyMetaMode } from '../metaMode.mjs';

export function registerSubscriptionRoutes(api, ctx) {
	const subs = () => ctx.subscriptions;
	api.post('/subscriptions', async (request) => ({
		data: subs().view(subs().create(applyMetaMode(ctx.metaMode, request.body, 'subscription'))),
	}));

	api.get('/subscriptions', async (request) => {
		const query = /** @type {any} */ (request.query);
		return {
			data: page([...ctx.state.subscriptions.values()], query.last_id, 100).map((subscription) =>
				subs().view(subscription),
			),
		};
	});

	api.get('/subscriptions/invoices', async (request) => {
		const query = /** @type {any} */ (request.query);
		return {
			data: page([...ctx.state.invoices.values()], query.last_id, 100).map((invoice) =>
				subs().invoiceView(invoice),
			),
		};
	});

	/** A subscription id → array of its invoices; an invoice id → that invoice. */
	api.get('/subscriptions/invoices/:id', async (request) => ({
		data: subs().invoicesFor(/** @type {any} */ (request.params).id),
	}));

	api.get('/subscriptions/:id', async (request) => ({
		data: subs().view(subs().get(/** @type {any} */ (request.params).id)),
	}));

	api.put('/subscriptions/:id/cancel', async (request) => ({
		data: subs().view(
			subs().cancelActive(/** @type {any} */ (request.params).id, request.body, false),
		),
	}));

	api.post('/subscriptions/:id/threeds_challenge', async (request) => ({
		data: subs().view(
			subs().threedsChallenge(/** @type {any} */ (request.params).id, request.body),
		),
	}));
}
