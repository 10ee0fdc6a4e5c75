// Notification > Get Many and Mark as Successful on n8n's engine, against a FacilitaPay scripted by
// route.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';

const NOTIFICATION_ID = '3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b';
const LIST = 'GET /notifications';
const MARK = 'PUT /notifications/:id';

const op = useOperations();
const waits = skipRetryWaits();

const id = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const records = (from, count) =>
	Array.from({ length: count }, (_, k) => ({
		id: id(from + k),
		url: 'https://hook',
		failed_at: null,
	}));
/** Pages by `last_id`: the first page without it, then the page after each last ID; else empty. */
const pages = (byLastId) => (request) => ({ data: byLastId[request.query.last_id ?? ''] ?? [] });

const getMany = (overrides = {}) => ({
	resource: 'notification',
	operation: 'getMany',
	returnAll: false,
	limit: 50,
	options: {},
	...overrides,
});

describe('Notification > Get Many', () => {
	it('asks for at most Limit notifications with per_page and returns the records', async () => {
		const { items, requests, error } = await op.run({
			parameters: getMany(),
			replies: { [LIST]: pages({ '': records(1, 3) }) },
		});
		expect(error).toBeUndefined();
		expect(requests[0]).toMatchObject({ method: 'GET', route: LIST, query: { per_page: '50' } });
		expect(items.map((o) => o.json.id)).toEqual([id(1), id(2), id(3)]);
		expect(items.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
	});

	it('confirms the end with one more request after a short page (the maximum per_page is unknown)', async () => {
		const { requests } = await op.run({
			parameters: getMany(),
			replies: { [LIST]: pages({ '': records(1, 3) }) },
		});
		expect(requests.map((r) => r.query)).toEqual([
			{ per_page: '50' },
			{ per_page: '47', last_id: id(3) },
		]);
	});

	it.each([
		['any', {}],
		['onlyFailed', { failed: 'true' }],
		['onlySuccessful', { failed: 'false' }],
	])('Delivery Status %s sends %j', async (failed, sent) => {
		const { requests } = await op.run({
			parameters: getMany({ options: { failed } }),
			replies: { [LIST]: { data: [] } },
		});
		expect(requests[0].query).toEqual({ per_page: '50', ...sent });
	});

	it('sends no order_by for Oldest First, the service’s default (the spec defines only desc)', async () => {
		const { requests } = await op.run({
			parameters: getMany({ options: { orderBy: 'asc' } }),
			replies: { [LIST]: pages({ '': records(0, 3) }) },
		});
		expect(requests[0].query).not.toHaveProperty('order_by');
	});

	it('never outputs the webhook secret that notification records carry', async () => {
		const record = {
			id: id(1),
			url: 'https://hook',
			failed_at: null,
			payload: {
				notification: { type: 'payment_approved', transaction_id: 'tx-1' },
				secret: '4321',
			},
			body: JSON.stringify({ notification: { type: 'identified' }, secret: 1234 }),
			secret: '4321',
		};
		const { items, run } = await op.run({
			parameters: getMany(),
			replies: { [LIST]: pages({ '': [record] }) },
		});
		const text = JSON.stringify(items);
		expect(text).not.toMatch(/4321|1234/);
		expect(text).not.toMatch(/secret/);
		// Nor in what n8n keeps of the execution.
		expect(JSON.stringify(run.run.data.resultData.runData)).not.toMatch(/4321|1234/);
		expect(items[0].json.payload).toEqual({
			notification: { type: 'payment_approved', transaction_id: 'tx-1' },
		});
	});

	it('sends order_by=desc, last_id and the user’s per_page', async () => {
		const { requests } = await op.run({
			parameters: getMany({
				limit: 500,
				options: { orderBy: 'desc', lastId: NOTIFICATION_ID.toUpperCase(), perPage: 20 },
			}),
			replies: { [LIST]: { data: [] } },
		});
		expect(requests[0].query).toEqual({
			order_by: 'desc',
			last_id: NOTIFICATION_ID,
			per_page: '20',
		});
	});

	it('Return All follows last_id across pages of 100 until an empty page', async () => {
		const { items, requests } = await op.run({
			parameters: getMany({ returnAll: true, options: { failed: 'onlyFailed' } }),
			replies: { [LIST]: pages({ '': records(1, 100), [id(100)]: records(101, 30) }) },
		});
		expect(requests.map((r) => r.query)).toEqual([
			{ failed: 'true', per_page: '100' },
			{ failed: 'true', per_page: '100', last_id: id(100) },
			{ failed: 'true', per_page: '100', last_id: id(130) },
		]);
		expect(items).toHaveLength(130);
		expect(items[129].json.id).toBe(id(130));
	});

	it('Return All does not stop at a short page (the service may cap per_page below 100)', async () => {
		const { items, requests } = await op.run({
			parameters: getMany({ returnAll: true }),
			replies: { [LIST]: pages({ '': records(1, 50), [id(50)]: records(51, 50) }) },
		});
		expect(requests).toHaveLength(3);
		expect(items).toHaveLength(100);
	});

	it('Limit stops early: no further page once reached', async () => {
		const { items, requests } = await op.run({
			parameters: getMany({ limit: 150 }),
			replies: { [LIST]: pages({ '': records(1, 100), [id(100)]: records(101, 50) }) },
		});
		expect(requests.map((r) => r.query)).toEqual([
			{ per_page: '100' },
			{ per_page: '50', last_id: id(100) },
		]);
		expect(items).toHaveLength(150);
	});

	it('Limit keeps only Limit items when the service returns more', async () => {
		const { items, requests } = await op.run({
			parameters: getMany({ limit: 2 }),
			replies: { [LIST]: pages({ '': records(1, 5) }) },
		});
		expect(requests).toHaveLength(1);
		expect(items).toHaveLength(2);
	});

	it.each([
		['a Last ID that is not a UUID', { lastId: '123' }, /Invalid Last ID \(item 0\): is not an id/],
		[
			'Per Page 0',
			{ perPage: 0 },
			/Invalid Per Page \(item 0\): is 0; enter a whole number of at least 1/,
		],
		['a fractional Per Page', { perPage: 2.5 }, /Invalid Per Page \(item 0\): is 2\.5/],
		[
			'an unknown order',
			{ orderBy: 'newest' },
			/Invalid Order \(item 0\): must be one of asc, desc/,
		],
		[
			'an unknown delivery status',
			{ failed: 'maybe' },
			/Invalid Delivery Status \(item 0\): must be one of any, onlyFailed, onlySuccessful/,
		],
	])('refuses %s and sends nothing', async (_name, options, message) => {
		const { error, requests } = await op.run({ parameters: getMany({ options }) });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('is retried after a 503 (a read)', async () => {
		const { items, requests } = await op.run({
			parameters: getMany(),
			replies: {
				[LIST]: (request, index) =>
					index === 0 ? reply(503, 'busy') : pages({ '': records(1, 1) })(request),
			},
		});
		expect(requests).toHaveLength(3);
		expect(waits).toHaveLength(1);
		expect(requests[1]).toMatchObject({ method: 'GET', query: requests[0].query });
		expect(items).toHaveLength(1);
	});
});

describe('Notification > Mark as Successful', () => {
	const mark = (notificationId) => ({
		resource: 'notification',
		operation: 'markAsSuccessful',
		notificationId,
	});

	it('sends PUT /notifications/:id with the id in lower case and returns the record', async () => {
		const record = { id: NOTIFICATION_ID, failed_at: null, url: 'https://hook' };
		const { items, requests } = await op.run({
			parameters: mark(` ${NOTIFICATION_ID.toUpperCase()} `),
			replies: { [MARK]: { data: record } },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'PUT',
			route: MARK,
			params: { id: NOTIFICATION_ID },
		});
		expect(requests[0].body).toBeUndefined();
		expect(items).toEqual([{ json: record, pairedItem: { item: 0 } }]);
	});

	it('typed in, an empty id is refused by n8n before the workflow starts (the field is required)', async () => {
		const { error, requests } = await op.run({ parameters: mark('') });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
	});

	it.each([
		['an empty id', '', /Invalid Notification ID \(item 0\): is empty/],
		[
			'a non-UUID',
			'abc/def',
			/Invalid Notification ID \(item 0\): is not an id in the expected form/,
		],
	])('refuses %s and sends nothing', async (_name, notificationId, message) => {
		const { error, requests } = await op.run({
			parameters: mark('={{ $json.notification }}'),
			items: [{ json: { notification: notificationId } }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent to FacilitaPay');
	});
});
