import type { IDataObject } from 'n8n-workflow';

import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { httpError } from '../../helpers/serviceAnswers';
import { skipRetryWaits } from '../../helpers/retryWaits';

skipRetryWaits();

const SUBSCRIPTION_ID = '6d2f1a3b-8c4e-4b7a-9f10-3e5d7c9b1a20';
const INVOICE_ID = '2c7e9a14-5b3d-4f8e-a1c6-7d9b0e2f4a68';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const invoices = (from: number, count: number) =>
	Array.from({ length: count }, (_, k) => ({
		id: id(from + k),
		status: 'paid',
		subscription_id: SUBSCRIPTION_ID,
	}));

const getMany = (overrides: IDataObject = {}) => ({
	resource: 'invoice',
	operation: 'getMany',
	subscriptionId: '',
	returnAll: false,
	limit: 50,
	...overrides,
});
const get = (invoiceId = INVOICE_ID) => ({ resource: 'invoice', operation: 'get', invoiceId });

describe('Invoice > Get Many, all invoices', () => {
	it('sends GET /subscriptions/invoices and returns one item per invoice', async () => {
		const { output, requests } = await runNode({
			parameters: getMany(),
			replies: [{ data: invoices(1, 2) }, { data: [] }],
		});
		expect(requests[0].method).toBe('GET');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/subscriptions/invoices');
		expect(requests[0].qs).toBeUndefined();
		expect(output.map((o) => o.json.id)).toEqual([id(1), id(2)]);
		expect(output.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('Return All follows last_id page after page until an empty page', async () => {
		const { output, requests } = await runNode({
			parameters: getMany({ returnAll: true }),
			replies: [{ data: invoices(1, 3) }, { data: invoices(4, 3) }, { data: [] }],
		});
		expect(requests.map((r) => r.url)).toEqual(
			Array(3).fill('https://sandbox.test/api/v1/subscriptions/invoices'),
		);
		expect(requests.map((r) => r.qs)).toEqual([undefined, { last_id: id(3) }, { last_id: id(6) }]);
		expect(output).toHaveLength(6);
	});

	it('Limit stops the paging as soon as enough invoices came', async () => {
		const { output, requests } = await runNode({
			parameters: getMany({ limit: 2 }),
			replies: [{ data: invoices(1, 3) }],
		});
		expect(requests).toHaveLength(1);
		expect(output.map((o) => o.json.id)).toEqual([id(1), id(2)]);
	});

	it('a blank Subscription ID lists all invoices', async () => {
		const { requests } = await runNode({
			parameters: getMany({ subscriptionId: '   ' }),
			replies: [{ data: [] }],
		});
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/subscriptions/invoices');
	});

	it('is a read: retried after a 502', async () => {
		const { output, requests } = await runNode({
			parameters: getMany(),
			replies: [httpError(502, ''), { data: invoices(1, 1) }, { data: [] }],
		});
		expect(requests).toHaveLength(3);
		expect(output).toHaveLength(1);
	});
});

describe('Invoice > Get Many, of one subscription', () => {
	it('sends GET /subscriptions/invoices/:subscriptionId once and returns its invoices', async () => {
		const { output, requests } = await runNode({
			parameters: getMany({ subscriptionId: SUBSCRIPTION_ID, returnAll: true }),
			replies: [{ data: invoices(1, 3) }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('GET');
		expect(requests[0].url).toBe(
			`https://sandbox.test/api/v1/subscriptions/invoices/${SUBSCRIPTION_ID}`,
		);
		expect(requests[0].qs).toBeUndefined();
		expect(output.map((o) => o.json.id)).toEqual([id(1), id(2), id(3)]);
	});

	it('applies Limit to the answer', async () => {
		const { output } = await runNode({
			parameters: getMany({ subscriptionId: SUBSCRIPTION_ID, limit: 2 }),
			replies: [{ data: invoices(1, 3) }],
		});
		expect(output.map((o) => o.json.id)).toEqual([id(1), id(2)]);
	});

	it('an answer with one invoice object gives one item; an empty list gives none', async () => {
		const one = await runNode({
			parameters: getMany({ subscriptionId: SUBSCRIPTION_ID }),
			replies: [{ data: { id: id(1), status: 'paid' } }],
		});
		expect(one.output.map((o) => o.json)).toEqual([{ id: id(1), status: 'paid' }]);
		const none = await runNode({
			parameters: getMany({ subscriptionId: SUBSCRIPTION_ID }),
			replies: [{ data: [] }],
		});
		expect(none.output).toEqual([]);
	});

	it('refuses a Subscription ID that would change the path, before sending', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: getMany({ subscriptionId: '../transactions' }),
			replies: [],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(
			/Subscription ID \(item 0\): contains .*; an ID uses only letters, digits/,
		);
	});
});

describe('Invoice > Get', () => {
	it('sends GET /subscriptions/invoices/:id and returns the invoice object', async () => {
		const { output, requests } = await runNode({
			parameters: get(),
			replies: [{ data: { id: INVOICE_ID, status: 'paid', subscription_id: SUBSCRIPTION_ID } }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('GET');
		expect(requests[0].url).toBe(
			`https://sandbox.test/api/v1/subscriptions/invoices/${INVOICE_ID}`,
		);
		expect(output).toEqual([
			{
				json: { id: INVOICE_ID, status: 'paid', subscription_id: SUBSCRIPTION_ID },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('an array of one invoice becomes that invoice', async () => {
		const { output } = await runNode({
			parameters: get(),
			replies: [{ data: [{ id: INVOICE_ID, status: 'paid' }] }],
		});
		expect(output.map((o) => o.json)).toEqual([{ id: INVOICE_ID, status: 'paid' }]);
	});

	it('an array of several (the ID was a subscription’s) gives one item per invoice', async () => {
		const { output } = await runNode({
			parameters: get(SUBSCRIPTION_ID),
			replies: [{ data: invoices(1, 3) }],
		});
		expect(output.map((o) => o.json.id)).toEqual([id(1), id(2), id(3)]);
		expect(output.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
	});

	it('an empty array is a readable "not found" error', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: get(),
			replies: [{ data: [] }],
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toBe(`No invoice found for ID "${INVOICE_ID}" (item 0)`);
		expect(error.description).toMatch(/subscription without invoices yet/);
	});

	it('a 404 is reported readably', async () => {
		const { error } = await runNodeExpectingError({
			parameters: get(),
			replies: [httpError(404, { error: 'not_found' })],
		});
		expect(error.message).toMatch(/FacilitaPay did not find the record \(item 0\): not_found/);
	});

	it.each<[string, string, RegExp]>([
		['an empty ID', '', /Invoice ID \(item 0\): is empty/],
		[
			'an ID with a space',
			'inv 1',
			/Invoice ID \(item 0\): contains .*; an ID uses only letters, digits/,
		],
	])('refuses %s before sending', async (_name, invoiceId, message) => {
		const { error, requests } = await runNodeExpectingError({
			parameters: get(invoiceId),
			replies: [],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('masks a card number or security code the service includes in an invoice', async () => {
		const { output } = await runNode({
			parameters: get(),
			replies: [
				{
					data: {
						id: INVOICE_ID,
						charges: [{ card_number: '4111111111111111', card_security_code: '737' }],
					},
				},
			],
		});
		expect(output[0].json.charges).toEqual([
			{ card_number: '**** **** **** 1111', card_security_code: '***' },
		]);
	});
});
