// Subscription > Get, Get Many, Cancel and Submit 3DS Challenge on n8n's engine, against a
// FacilitaPay scripted by route.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import {
	byId,
	CARD_NUMBER,
	fromItem,
	SECURITY_CODE,
	SUBSCRIPTION_ID,
	threedsChallenge,
} from './lib.mjs';
import { expectOneRequest } from '../subject/lib.mjs';

const GET = 'GET /subscriptions/:id';
const LIST = 'GET /subscriptions';
const CANCEL = 'PUT /subscriptions/:id/cancel';
const CHALLENGE = 'POST /subscriptions/:id/threeds_challenge';

const op = useOperations();
const waits = skipRetryWaits();

const id = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const subscriptions = (from, count) =>
	Array.from({ length: count }, (_, k) => ({ id: id(from + k), status: 'active' }));

const get = (subscriptionId) => ({
	resource: 'subscription',
	operation: 'get',
	subscriptionId: byId(subscriptionId),
});

describe('Subscription > Get', () => {
	it('sends GET /subscriptions/:id and returns the subscription', async () => {
		const { items, requests, error } = await op.run({
			parameters: get(` ${SUBSCRIPTION_ID} `),
			replies: { [GET]: { data: { id: SUBSCRIPTION_ID, status: 'active', subject_id: 's-1' } } },
		});
		expect(error).toBeUndefined();
		expectOneRequest(requests, {
			method: 'GET',
			route: GET,
			params: { id: SUBSCRIPTION_ID },
			query: {},
		});
		expect(requests[0].headers.authorization).toBe('Bearer test-token');
		expect(requests[0].body).toBeUndefined();
		expect(items).toEqual([
			{
				json: { id: SUBSCRIPTION_ID, status: 'active', subject_id: 's-1' },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('is a read: retried after a 503', async () => {
		const { requests, items } = await op.run({
			parameters: get(SUBSCRIPTION_ID),
			replies: { [GET]: [reply(503, 'Service Unavailable'), { data: { id: SUBSCRIPTION_ID } }] },
		});
		expect(requests).toHaveLength(2);
		expect(waits).toHaveLength(1);
		expect(items[0].json.id).toBe(SUBSCRIPTION_ID);
	});

	it.each([
		['an empty ID', '', /Subscription ID \(item 0\): is empty/],
		[
			'an ID with a slash',
			'abc/cancel',
			/Subscription ID \(item 0\): contains .*; an ID uses only letters, digits/,
		],
	])('refuses %s before sending', async (_name, subscriptionId, message) => {
		// From an expression: the node's own check.
		const { error, requests } = await op.run({
			...fromItem(get(subscriptionId), ['subscriptionId']),
			replies: {},
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it.each([
		['an empty ID', '', /Parameter "Subscription" is required/],
		[
			'an ID with a slash',
			'abc/cancel',
			/Not a valid subscription ID: letters, digits, _ and - only/,
		],
	])(
		'typed in the Subscription field, %s is refused by n8n before the workflow starts',
		async (_name, subscriptionId, message) => {
			const { error, requests } = await op.run({ parameters: get(subscriptionId), replies: {} });
			expect(requests).toHaveLength(0);
			expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
			expect(error.message).toMatch(message);
		},
	);
});

describe('Subscription > Get Many', () => {
	const getMany = (overrides = {}) => ({
		resource: 'subscription',
		operation: 'getMany',
		returnAll: false,
		limit: 50,
		...overrides,
	});

	it('sends GET /subscriptions and returns one item per subscription', async () => {
		const { items, requests } = await op.run({
			parameters: getMany(),
			replies: { [LIST]: { data: subscriptions(1, 3) } },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', route: LIST, query: {} });
		expect(items.map((o) => o.json.id)).toEqual([id(1), id(2), id(3)]);
		expect(items.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
	});

	it('Subscription Get Many sends one request and no undocumented paged request (Return All)', async () => {
		const { items, requests } = await op.run({
			parameters: getMany({ returnAll: true }),
			replies: { [LIST]: { data: subscriptions(1, 150) } },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toEqual({});
		expect(items).toHaveLength(150);
	});

	it('Subscription Get Many applies Limit to the one answer without asking for more', async () => {
		const { items, requests } = await op.run({
			parameters: getMany({ limit: 4 }),
			replies: { [LIST]: { data: subscriptions(1, 3) } },
		});
		expect(requests).toHaveLength(1);
		expect(items.map((o) => o.json.id)).toEqual([id(1), id(2), id(3)]);
		const limited = await op.run({
			parameters: getMany({ limit: 2 }),
			replies: { [LIST]: { data: subscriptions(1, 3) } },
		});
		expect(limited.requests).toHaveLength(1);
		expect(limited.items.map((o) => o.json.id)).toEqual([id(1), id(2)]);
	});
});

describe('Subscription > Cancel', () => {
	const cancel = (overrides = {}) => ({
		resource: 'subscription',
		operation: 'cancel',
		subscriptionId: byId(SUBSCRIPTION_ID),
		reason: 'Customer asked to stop',
		...overrides,
	});

	it('sends PUT /subscriptions/:id/cancel with the reason', async () => {
		const { items, requests } = await op.run({
			parameters: cancel(),
			replies: { [CANCEL]: { data: { id: SUBSCRIPTION_ID, status: 'canceled' } } },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject(
			{
				method: 'PUT',
				route: CANCEL,
				params: { id: SUBSCRIPTION_ID },
			},
			{ reason: 'Customer asked to stop' },
		);
		expect(items[0].json).toEqual({ id: SUBSCRIPTION_ID, status: 'canceled' });
	});

	it('trims the reason', async () => {
		const { requests } = await op.run({
			parameters: cancel({ reason: '  Fraud suspected \n' }),
			replies: { [CANCEL]: { data: {} } },
		});
		expect(requests[0].body).toEqual({ reason: 'Fraud suspected' });
	});

	it('says the subscription was cancelled when the service answers with no body', async () => {
		const { items } = await op.run({
			parameters: cancel(),
			replies: { [CANCEL]: reply(204, undefined) },
		});
		expect(items).toEqual([
			{ json: { subscription_id: SUBSCRIPTION_ID, canceled: true }, pairedItem: { item: 0 } },
		]);
	});

	it.each([[''], ['   ']])('refuses an empty reason (%j) before sending', async (reason) => {
		// An expression giving it (typed in, an empty Reason is n8n's own pre-run refusal).
		const { error, requests } = await op.run({
			...fromItem(cancel({ reason }), ['reason']),
			replies: {},
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Reason \(item 0\): is required/);
		expect(error.description).toContain('Nothing was sent');
	});

	it('shows why a subscription that is not active cannot be cancelled (422), without repeating', async () => {
		const { error, requests } = await op.run({
			parameters: cancel(),
			replies: {
				[CANCEL]: [
					reply(422, { errors: { status: ['subscription is not active'] } }),
					{ data: {} },
				],
			},
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toBe(
			'FacilitaPay rejected the data (item 0): status: subscription is not active',
		);
		expect(error.description).toContain(`PUT /subscriptions/${SUBSCRIPTION_ID}/cancel, HTTP 422`);
	});

	it('is sent once: a 502 is not repeated', async () => {
		const { error, requests } = await op.run({
			parameters: cancel(),
			replies: { [CANCEL]: [reply(502, ''), { data: {} }] },
		});
		expect(requests).toHaveLength(1);
		expect(waits).toHaveLength(0);
		expect(error.message).toMatch(/^Outcome unknown \(item 0\)/);
		expect(error.description).toMatch(
			/may have been processed by FacilitaPay, so it was not repeated/,
		);
	});

	it('with Continue On Fail, a refused cancel becomes an error item', async () => {
		const { items, requests, status } = await op.run({
			parameters: [cancel(), cancel({ subscriptionId: byId(id(2)) })],
			continueOnFail: true,
			replies: {
				[CANCEL]: (request) =>
					request.params.id === SUBSCRIPTION_ID
						? reply(422, { error: 'subscription_not_active' })
						: { data: { id: id(2), status: 'canceled' } },
			},
		});
		expect(status).toBe('success');
		expect(requests.map((request) => request.params.id).sort()).toEqual(
			[SUBSCRIPTION_ID, id(2)].sort(),
		);
		expect(items[0].json.error).toMatch(/subscription_not_active/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1]).toEqual({
			json: { id: id(2), status: 'canceled' },
			pairedItem: { item: 1 },
		});
	});
});

describe('Subscription > Submit 3DS Challenge', () => {
	it('sends POST /subscriptions/:id/threeds_challenge with the card under credit_card', async () => {
		const { items, requests } = await op.run({
			...fromItem(
				threedsChallenge({
					cardNumber: '4111-1111-1111-1111',
					cardExpirationDate: '8/2099',
					cardBrand: 'Elo',
				}),
				// A brand written otherwise than the list's value comes from an expression.
				['cardBrand'],
			),
			replies: { [CHALLENGE]: { data: { id: SUBSCRIPTION_ID, status: 'pending' } } },
		});
		expectOneRequest(
			requests,
			{
				method: 'POST',
				route: CHALLENGE,
				params: { id: SUBSCRIPTION_ID },
			},
			{
				credit_card: {
					card_number: CARD_NUMBER,
					card_expiration_date: '08/2099',
					card_brand: 'elo',
					card_security_code: SECURITY_CODE,
					fullname: 'Maria Silva',
				},
			},
		);
		expect(items[0]).toEqual({
			json: { id: SUBSCRIPTION_ID, status: 'pending' },
			pairedItem: { item: 0 },
		});
	});

	it.each([
		[
			'a short card number',
			{ cardNumber: '4111 1111 1111' },
			/Card Number \(item 0\): has 12 digits/,
		],
		[
			'an expired card',
			{ cardExpirationDate: '02/2021' },
			/Card Expiration Date \(item 0\): is 02\/2021: the card has expired/,
		],
		[
			'a 4-digit security code',
			{ cardSecurityCode: '7370' },
			/Card Security Code \(item 0\): has 4 digits/,
		],
		['a single name', { fullname: 'SILVA' }, /Cardholder Full Name \(item 0\): is not a full name/],
		['no brand', { cardBrand: ' ' }, /Card Brand \(item 0\): is empty/],
		['no subscription', { subscriptionId: byId('') }, /Subscription ID \(item 0\): is empty/],
	])('refuses %s before sending', async (_name, overrides, message) => {
		// The card data comes from the item, through expressions, as a checkout hands it over.
		const { error, requests, items } = await op.run({
			...fromItem(threedsChallenge(overrides), Object.keys(overrides)),
			replies: {},
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.context.itemIndex).toBe(0);
	});

	it('is sent once: a 504 is not repeated', async () => {
		const { requests, error } = await op.run({
			parameters: threedsChallenge(),
			replies: { [CHALLENGE]: [reply(504, ''), { data: {} }] },
		});
		expect(requests).toHaveLength(1);
		expect(waits).toHaveLength(0);
		expect(error.message).toMatch(/^Outcome unknown \(item 0\)/);
	});
});
