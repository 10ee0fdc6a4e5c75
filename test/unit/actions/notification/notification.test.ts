import type { IDataObject } from 'n8n-workflow';

import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { httpError } from '../../helpers/serviceAnswers';
import { skipRetryWaits } from '../../helpers/retryWaits';

skipRetryWaits();

const NOTIFICATION_ID = '3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const records = (from: number, count: number) =>
	Array.from({ length: count }, (_, k) => ({
		id: id(from + k),
		url: 'https://hook',
		failed_at: null,
	}));

const getMany = (overrides: IDataObject = {}) => ({
	resource: 'notification',
	operation: 'getMany',
	returnAll: false,
	limit: 50,
	options: {},
	...overrides,
});

describe('Notification > Get Many', () => {
	it('asks for at most Limit notifications with per_page and returns the records', async () => {
		const { output, requests } = await runNode({
			parameters: getMany(),
			replies: [{ data: records(1, 3) }, { data: [] }],
		});
		expect(requests[0].method).toBe('GET');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/notifications');
		expect(requests[0].qs).toEqual({ per_page: '50' });
		expect(output.map((o) => o.json.id)).toEqual([id(1), id(2), id(3)]);
	});

	it('confirms the end with one more request after a short page (the maximum per_page is unknown)', async () => {
		const { requests } = await runNode({
			parameters: getMany(),
			replies: [{ data: records(1, 3) }, { data: [] }],
		});
		expect(requests.map((r) => r.qs)).toEqual([
			{ per_page: '50' },
			{ per_page: '47', last_id: id(3) },
		]);
	});

	it.each([
		['any', {}],
		['onlyFailed', { failed: true }],
		['onlySuccessful', { failed: false }],
	])('Delivery Status %s sends %j', async (failed, sent) => {
		const { requests } = await runNode({
			parameters: getMany({ options: { failed } }),
			replies: [{ data: [] }],
		});
		expect(requests[0].qs).toEqual({ per_page: '50', ...sent });
	});

	it('sends no order_by for Oldest First, the service’s default (the spec defines only desc)', async () => {
		const { requests } = await runNode({
			parameters: getMany({ options: { orderBy: 'asc' } }),
			replies: [{ data: records(0, 3) }, { data: [] }],
		});
		expect(requests[0].qs).not.toHaveProperty('order_by');
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
		const { output } = await runNode({
			parameters: getMany(),
			replies: [{ data: [record] }, { data: [] }],
		});
		const text = JSON.stringify(output);
		expect(text).not.toMatch(/4321|1234/);
		expect(text).not.toMatch(/secret/);
		expect(output[0].json.payload).toEqual({
			notification: { type: 'payment_approved', transaction_id: 'tx-1' },
		});
	});

	it('sends order_by=desc, last_id and the user’s per_page', async () => {
		const { requests } = await runNode({
			parameters: getMany({
				limit: 500,
				options: { orderBy: 'desc', lastId: NOTIFICATION_ID.toUpperCase(), perPage: 20 },
			}),
			replies: [{ data: [] }],
		});
		expect(requests[0].qs).toEqual({ order_by: 'desc', last_id: NOTIFICATION_ID, per_page: '20' });
	});

	it('Return All follows last_id across pages of 100 until an empty page', async () => {
		const { output, requests } = await runNode({
			parameters: getMany({ returnAll: true, options: { failed: 'onlyFailed' } }),
			replies: [{ data: records(1, 100) }, { data: records(101, 30) }, { data: [] }],
		});
		expect(requests.map((r) => r.qs)).toEqual([
			{ failed: true, per_page: '100' },
			{ failed: true, per_page: '100', last_id: id(100) },
			{ failed: true, per_page: '100', last_id: id(130) },
		]);
		expect(output).toHaveLength(130);
		expect(output[129].json.id).toBe(id(130));
	});

	it('Return All does not stop at a short page (the service may cap per_page below 100)', async () => {
		const { output, requests } = await runNode({
			parameters: getMany({ returnAll: true }),
			replies: [{ data: records(1, 50) }, { data: records(51, 50) }, { data: [] }],
		});
		expect(requests).toHaveLength(3);
		expect(output).toHaveLength(100);
	});

	it('Limit stops early: no further page once reached', async () => {
		const { output, requests } = await runNode({
			parameters: getMany({ limit: 150 }),
			replies: [{ data: records(1, 100) }, { data: records(101, 50) }],
		});
		expect(requests.map((r) => r.qs)).toEqual([
			{ per_page: '100' },
			{ per_page: '50', last_id: id(100) },
		]);
		expect(output).toHaveLength(150);
	});

	it('Limit keeps only Limit items when the service returns more', async () => {
		const { output, requests } = await runNode({
			parameters: getMany({ limit: 2 }),
			replies: [{ data: records(1, 5) }],
		});
		expect(requests).toHaveLength(1);
		expect(output).toHaveLength(2);
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
		const { error, requests } = await runNodeExpectingError({ parameters: getMany({ options }) });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('is retried after a 503 (a read)', async () => {
		const { output, requests } = await runNode({
			parameters: getMany(),
			replies: [httpError(503, 'busy'), { data: records(1, 1) }, { data: [] }],
		});
		expect(requests).toHaveLength(3);
		expect(requests[0]).toEqual(requests[1]);
		expect(output).toHaveLength(1);
	});
});

describe('Notification > Mark as Successful', () => {
	const mark = (notificationId: string) => ({
		resource: 'notification',
		operation: 'markAsSuccessful',
		notificationId,
	});

	it('sends PUT /notifications/:id with the id in lower case and returns the record', async () => {
		const record = { id: NOTIFICATION_ID, failed_at: null, url: 'https://hook' };
		const { output, requests } = await runNode({
			parameters: mark(` ${NOTIFICATION_ID.toUpperCase()} `),
			replies: [{ data: record }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('PUT');
		expect(requests[0].url).toBe(`https://sandbox.test/api/v1/notifications/${NOTIFICATION_ID}`);
		expect(requests[0].body).toBeUndefined();
		expect(output[0].json).toEqual(record);
	});

	it.each([
		['an empty id', '', /Invalid Notification ID \(item 0\): is empty/],
		[
			'a non-UUID',
			'abc/def',
			/Invalid Notification ID \(item 0\): is not an id in the expected form/,
		],
	])('refuses %s and sends nothing', async (_name, notificationId, message) => {
		const { error, requests } = await runNodeExpectingError({ parameters: mark(notificationId) });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent to FacilitaPay');
	});
});
