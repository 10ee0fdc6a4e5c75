/** Webhook management and the notification log. */
import { Errors, isBlank, toBool } from '../validation.mjs';
import { check, notFound, invalid } from '../errors.mjs';
import { notificationView } from '../webhooks.mjs';

export function registerWebhookRoutes(api, ctx) {
	api.post('/enable_webhooks', async (request) => {
		const url = request.body?.url;
		const errors = new Errors();
		if (isBlank(url)) errors.add('url', "can't be blank");
		else if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url)) errors.add('url', 'must be an http:// or https:// URL');
		check(errors);
		return { data: { secret: ctx.webhooks.enable(url) } };
	});

	api.get('/disable_webhooks', async () => {
		ctx.webhooks.disable();
		return { data: 'ok' };
	});

	api.get('/notifications', async (request) => {
		const q = /** @type {any} */ (request.query);
		const errors = new Errors();
		let perPage = 100;
		if (q.per_page !== undefined) {
			if (!/^\d+$/.test(q.per_page) || Number(q.per_page) < 1) errors.add('per_page', 'must be a positive integer');
			else perPage = Number(q.per_page);
		}
		if (q.order_by !== undefined && !['asc', 'desc'].includes(q.order_by)) errors.add('order_by', 'must be asc or desc');
		let failed;
		if (q.failed !== undefined && q.failed !== '') {
			failed = toBool(q.failed);
			if (failed === undefined) errors.add('failed', 'must be true or false');
		}
		check(errors);
		let list = [...ctx.state.notifications.values()];
		if (q.order_by === 'desc') list.reverse();
		if (failed !== undefined) list = list.filter((n) => (n.failed_at !== null) === failed);
		if (q.last_id) {
			const i = list.findIndex((n) => n.id === q.last_id);
			list = i === -1 ? [] : list.slice(i + 1);
		}
		return { data: list.slice(0, perPage).map(notificationView) };
	});

	api.put('/notifications/:id', async (request) => {
		const rec = ctx.state.notifications.get(/** @type {any} */ (request.params).id);
		if (!rec) throw notFound();
		return { data: notificationView(ctx.webhooks.markSuccessful(rec)) };
	});
}
