// Invoice > Get Many and Get on n8n's engine, against a FacilitaPay scripted by route.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';

const SUBSCRIPTION_ID = '6d2f1a3b-8c4e-4b7a-9f10-3e5d7c9b1a20';
const INVOICE_ID = '2c7e9a14-5b3d-4f8e-a1c6-7d9b0e2f4a68';
const ALL = 'GET /subscriptions/invoices';
const ONE = 'GET /subscriptions/invoices/:id';

const op = useOperations();
const waits = skipRetryWaits();

const id = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const invoices = (from, count) =>
	Array.from({ length: count }, (_, k) => ({
		id: id(from + k),
		status: 'paid',
		subscription_id: SUBSCRIPTION_ID,
	}));
const byId = (value) => ({ __rl: true, mode: 'id', value });
/** Pages by `last_id`: the first page without it, then the page after each last ID. */
const pages = (byLastId) => (request) => ({ data: byLastId[request.query.last_id ?? ''] ?? [] });

const getMany = (overrides = {}) => ({
	resource: 'invoice',
	operation: 'getMany',
	returnAll: false,
	limit: 50,
	...overrides,
});
const get = (invoiceId = byId(INVOICE_ID)) => ({
	resource: 'invoice',
	operation: 'get',
	invoiceId,
});

describe('Invoice > Get Many, all invoices', () => {
	it('sends GET /subscriptions/invoices and returns one item per invoice', async () => {
		const { items, requests, error } = await op.run({
			parameters: getMany(),
			replies: { [ALL]: pages({ '': invoices(1, 2) }) },
		});
		expect(error).toBeUndefined();
		expect(requests[0]).toMatchObject({ method: 'GET', route: ALL, query: {} });
		expect(requests[0].headers.authorization).toBe('Bearer test-token');
		expect(items.map((o) => o.json.id)).toEqual([id(1), id(2)]);
		expect(items.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('Return All follows last_id page after page until an empty page', async () => {
		const { items, requests } = await op.run({
			parameters: getMany({ returnAll: true }),
			replies: { [ALL]: pages({ '': invoices(1, 3), [id(3)]: invoices(4, 3) }) },
		});
		expect(requests.map((r) => r.route)).toEqual([ALL, ALL, ALL]);
		expect(requests.map((r) => r.query)).toEqual([{}, { last_id: id(3) }, { last_id: id(6) }]);
		expect(items).toHaveLength(6);
	});

	it('Limit stops the paging as soon as enough invoices came', async () => {
		const { items, requests } = await op.run({
			parameters: getMany({ limit: 2 }),
			replies: { [ALL]: pages({ '': invoices(1, 3) }) },
		});
		expect(requests).toHaveLength(1);
		expect(items.map((o) => o.json.id)).toEqual([id(1), id(2)]);
	});

	it('a Subscription left empty (the default) lists all invoices', async () => {
		const { requests } = await op.run({
			parameters: getMany(),
			replies: { [ALL]: { data: [] } },
		});
		expect(requests.map((r) => r.route)).toEqual([ALL]);
	});

	it('a blank Subscription ID lists all invoices', async () => {
		// Typed in, "   " is refused by the locator's regex before the run: an expression gives it.
		const { requests } = await op.run({
			parameters: getMany({ subscriptionId: byId('={{ $json.subscription }}') }),
			items: [{ json: { subscription: '   ' } }],
			replies: { [ALL]: { data: [] } },
		});
		expect(requests.map((r) => r.route)).toEqual([ALL]);
	});

	it('is a read: retried after a 502', async () => {
		const { items, requests } = await op.run({
			parameters: getMany(),
			replies: {
				[ALL]: (request, index) =>
					index === 0 ? reply(502, '') : pages({ '': invoices(1, 1) })(request),
			},
		});
		expect(requests).toHaveLength(3);
		expect(waits).toHaveLength(1);
		expect(items).toHaveLength(1);
	});
});

describe('Invoice > Get Many, of one subscription', () => {
	it('sends GET /subscriptions/invoices/:subscriptionId once and returns its invoices', async () => {
		const { items, requests } = await op.run({
			parameters: getMany({ subscriptionId: byId(SUBSCRIPTION_ID), returnAll: true }),
			replies: { [ONE]: { data: invoices(1, 3) } },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			route: ONE,
			params: { id: SUBSCRIPTION_ID },
			query: {},
		});
		expect(items.map((o) => o.json.id)).toEqual([id(1), id(2), id(3)]);
	});

	it('applies Limit to the answer', async () => {
		const { items } = await op.run({
			parameters: getMany({ subscriptionId: byId(SUBSCRIPTION_ID), limit: 2 }),
			replies: { [ONE]: { data: invoices(1, 3) } },
		});
		expect(items.map((o) => o.json.id)).toEqual([id(1), id(2)]);
	});

	it('an answer with one invoice object gives one item; an empty list gives none', async () => {
		const one = await op.run({
			parameters: getMany({ subscriptionId: byId(SUBSCRIPTION_ID) }),
			replies: { [ONE]: { data: { id: id(1), status: 'paid' } } },
		});
		expect(one.items.map((o) => o.json)).toEqual([{ id: id(1), status: 'paid' }]);
		const none = await op.run({
			parameters: getMany({ subscriptionId: byId(SUBSCRIPTION_ID) }),
			replies: { [ONE]: { data: [] } },
		});
		expect(none.error).toBeUndefined();
		expect(none.items).toEqual([]);
	});

	it('typed in, a Subscription ID that would change the path is refused by the locator before the workflow starts', async () => {
		const { error, requests } = await op.run({
			parameters: getMany({ subscriptionId: byId('../transactions') }),
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Not a valid subscription ID: letters, digits, _ and - only/);
	});

	it('refuses a Subscription ID that would change the path, before sending', async () => {
		const { error, requests } = await op.run({
			parameters: getMany({ subscriptionId: byId('={{ $json.subscription }}') }),
			items: [{ json: { subscription: '../transactions' } }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(
			/Subscription ID \(item 0\): contains .*; an ID uses only letters, digits/,
		);
	});
});

describe('Invoice > Get', () => {
	it('sends GET /subscriptions/invoices/:id and returns the invoice object', async () => {
		const { items, requests } = await op.run({
			parameters: get(),
			replies: {
				[ONE]: { data: { id: INVOICE_ID, status: 'paid', subscription_id: SUBSCRIPTION_ID } },
			},
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', route: ONE, params: { id: INVOICE_ID } });
		expect(items).toEqual([
			{
				json: { id: INVOICE_ID, status: 'paid', subscription_id: SUBSCRIPTION_ID },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('an array of one invoice becomes that invoice', async () => {
		const { items } = await op.run({
			parameters: get(),
			replies: { [ONE]: { data: [{ id: INVOICE_ID, status: 'paid' }] } },
		});
		expect(items.map((o) => o.json)).toEqual([{ id: INVOICE_ID, status: 'paid' }]);
	});

	it('an array of several (the ID was a subscription’s) gives one item per invoice', async () => {
		const { items, requests } = await op.run({
			parameters: get(byId(SUBSCRIPTION_ID)),
			replies: { [ONE]: { data: invoices(1, 3) } },
		});
		expect(requests[0].params).toEqual({ id: SUBSCRIPTION_ID });
		expect(items.map((o) => o.json.id)).toEqual([id(1), id(2), id(3)]);
		expect(items.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
	});

	it('an empty array is a readable "not found" error', async () => {
		const { error, requests } = await op.run({
			parameters: get(),
			replies: { [ONE]: { data: [] } },
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toBe(`No invoice found for ID "${INVOICE_ID}" (item 0)`);
		expect(error.description).toMatch(/subscription without invoices yet/);
	});

	it('a 404 is reported readably', async () => {
		const { error } = await op.run({
			parameters: get(),
			replies: { [ONE]: reply(404, { error: 'not_found' }) },
		});
		expect(error.message).toMatch(/FacilitaPay did not find the record \(item 0\): not_found/);
	});

	it.each([
		['an empty ID', '', /Parameter "Invoice" is required/],
		['an ID with a space', 'inv 1', /Not a valid invoice ID: letters, digits, _ and - only/],
	])('typed in, n8n refuses %s before the workflow starts', async (_name, invoiceId, message) => {
		const { error, requests, items } = await op.run({ parameters: get(byId(invoiceId)) });
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
		expect(error.message).toMatch(message);
	});

	it.each([
		['an empty ID', '', /Invoice ID \(item 0\): is empty/],
		[
			'an ID with a space',
			'inv 1',
			/Invoice ID \(item 0\): contains .*; an ID uses only letters, digits/,
		],
	])('refuses %s before sending', async (_name, invoiceId, message) => {
		const { error, requests } = await op.run({
			parameters: get(byId('={{ $json.invoice }}')),
			items: [{ json: { invoice: invoiceId } }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('masks a card number or security code the service includes in an invoice', async () => {
		const { items } = await op.run({
			parameters: get(),
			replies: {
				[ONE]: {
					data: {
						id: INVOICE_ID,
						charges: [{ card_number: '4111111111111111', card_security_code: '737' }],
					},
				},
			},
		});
		expect(items[0].json.charges).toEqual([
			{ card_number: '**** **** **** 1111', card_security_code: '***' },
		]);
	});
});
