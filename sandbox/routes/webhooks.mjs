/** Webhook management and the notification log. */
import { Errors, isBlank, toBool } from '../validation.mjs';
import { check, notFound, invalid } from '../errors.mjs';

export function registerWebhookRoutes(api, ctx) {
	api.post('/enable_webhooks', async (request) => {
		const url = request.body?.url;
		const errors = new Errors();
		if (isBlank(url)) errors.add('url', "can't be blank");
		else if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url))
			errors.add('url', 'must be an http:// or https:// URL');
		check(errors);
		return { data: { secret: ctx.webhooks.enable(url) } };
	});

	api.get('/disable_webhooks', async () => {
		ctx.webhooks.disable();
		return { data: 'ok' };
	});

	api.get('/notifications', async (request) => {
		const query = /** @type {any} */ (request.query);
		const errors = new Errors();
		let perPage = 100;
		if (query.per_page !== undefined) {
			if (!/^\d+$/.test(query.per_page) || Number(query.per_page) < 1)
				errors.add('per_page', 'must be a positive integer');
			else perPage = Number(query.per_page);
		}
		if (query.order_by !== undefined && !['asc', 'desc'].includes(query.order_by))
			errors.add('order_by', 'must be asc or desc');
		let failed;
		if (query.failed !== undefined && query.failed !== '') {
			failed = toBool(query.failed);
			if (failed === undefined) errors.add('failed', 'must be true or false');
		}
		check(errors);
		let list = [...ctx.state.notifications.values()];
		if (query.order_by === 'desc') list.reverse();
		if (failed !== undefined)
			list = list.filter((notification) => (notification.failed_at !== null) === failed);
		if (query.last_id) {
			const index = list.findIndex((notification) => notification.id === query.last_id);
			list = index === -1 ? [] : list.slice(index + 1);
		}
		return {
			data: list
				.slice(0, ctx.webhooks.pageSize(perPage))
				.map((rec) => ctx.webhooks.recordView(rec)),
		};
	});

	api.put('/notifications/:id', async (request) => {
		const rec = ctx.state.notifications.get(/** @type {any} */ (request.params).id);
		if (!rec) throw notFound();
		return { data: ctx.webhooks.recordView(ctx.webhooks.markSuccessful(rec)) };
	});
}
