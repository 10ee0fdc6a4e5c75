import type { IDataObject } from 'n8n-workflow';

import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { httpError } from '../../helpers/serviceAnswers';
import { skipRetryWaits } from '../../helpers/retryWaits';
import { CARD_NUMBER, SECURITY_CODE, SUBSCRIPTION_ID, threedsChallenge } from './fixtures';

skipRetryWaits();

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const subscriptions = (from: number, count: number) =>
	Array.from({ length: count }, (_, k) => ({ id: id(from + k), status: 'active' }));

describe('Subscription > Get', () => {
	it('sends GET /subscriptions/:id and returns the subscription', async () => {
		const { output, requests } = await runNode({
			parameters: {
				resource: 'subscription',
				operation: 'get',
				subscriptionId: ` ${SUBSCRIPTION_ID} `,
			},
			replies: [{ data: { id: SUBSCRIPTION_ID, status: 'active', subject_id: 's-1' } }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('GET');
		expect(requests[0].url).toBe(`https://sandbox.test/api/v1/subscriptions/${SUBSCRIPTION_ID}`);
		expect(requests[0].body).toBeUndefined();
		expect(output[0].json).toEqual({ id: SUBSCRIPTION_ID, status: 'active', subject_id: 's-1' });
	});

	it('is a read: retried after a 503', async () => {
		const { requests } = await runNode({
			parameters: { resource: 'subscription', operation: 'get', subscriptionId: SUBSCRIPTION_ID },
			replies: [httpError(503, 'Service Unavailable'), { data: { id: SUBSCRIPTION_ID } }],
		});
		expect(requests).toHaveLength(2);
	});

	it.each<[string, string, RegExp]>([
		['an empty ID', '', /Subscription ID \(item 0\): is empty/],
		[
			'an ID with a slash',
			'abc/cancel',
			/Subscription ID \(item 0\): contains .*; an ID uses only letters, digits/,
		],
	])('refuses %s before sending', async (_name, subscriptionId, message) => {
		const { error, requests } = await runNodeExpectingError({
			parameters: { resource: 'subscription', operation: 'get', subscriptionId },
			replies: [],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});
});

describe('Subscription > Get Many', () => {
	const getMany = (overrides: IDataObject = {}) => ({
		resource: 'subscription',
		operation: 'getMany',
		returnAll: false,
		limit: 50,
		...overrides,
	});

	it('sends GET /subscriptions and returns one item per subscription', async () => {
		const { output, requests } = await runNode({
			parameters: getMany(),
			replies: [{ data: subscriptions(1, 3) }],
		});
		expect(requests[0].method).toBe('GET');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/subscriptions');
		expect(requests[0].qs).toBeUndefined();
		expect(output.map((o) => o.json.id)).toEqual([id(1), id(2), id(3)]);
		expect(output.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
	});

	it('Subscription Get Many sends one request and no undocumented paged request (Return All)', async () => {
		const { output, requests } = await runNode({
			parameters: getMany({ returnAll: true }),
			replies: [{ data: subscriptions(1, 150) }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].qs).toBeUndefined();
		expect(output).toHaveLength(150);
	});

	it('Subscription Get Many applies Limit to the one answer without asking for more', async () => {
		const { output, requests } = await runNode({
			parameters: getMany({ limit: 4 }),
			replies: [{ data: subscriptions(1, 3) }],
		});
		expect(requests).toHaveLength(1);
		expect(output.map((o) => o.json.id)).toEqual([id(1), id(2), id(3)]);
		const limited = await runNode({
			parameters: getMany({ limit: 2 }),
			replies: [{ data: subscriptions(1, 3) }],
		});
		expect(limited.requests).toHaveLength(1);
		expect(limited.output.map((o) => o.json.id)).toEqual([id(1), id(2)]);
	});
});

describe('Subscription > Cancel', () => {
	const cancel = (overrides: IDataObject = {}) => ({
		resource: 'subscription',
		operation: 'cancel',
		subscriptionId: SUBSCRIPTION_ID,
		reason: 'Customer asked to stop',
		...overrides,
	});

	it('sends PUT /subscriptions/:id/cancel with the reason', async () => {
		const { output, requests } = await runNode({
			parameters: cancel(),
			replies: [{ data: { id: SUBSCRIPTION_ID, status: 'canceled' } }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('PUT');
		expect(requests[0].url).toBe(
			`https://sandbox.test/api/v1/subscriptions/${SUBSCRIPTION_ID}/cancel`,
		);
		expect(requests[0].body).toEqual({ reason: 'Customer asked to stop' });
		expect(output[0].json).toEqual({ id: SUBSCRIPTION_ID, status: 'canceled' });
	});

	it('trims the reason', async () => {
		const { requests } = await runNode({
			parameters: cancel({ reason: '  Fraud suspected \n' }),
			replies: [{ data: {} }],
		});
		expect(requests[0].body).toEqual({ reason: 'Fraud suspected' });
	});

	it('says the subscription was cancelled when the service answers with no body', async () => {
		const { output } = await runNode({ parameters: cancel(), replies: [''] });
		expect(output[0].json).toEqual({ subscription_id: SUBSCRIPTION_ID, canceled: true });
	});

	it.each([[''], ['   ']])('refuses an empty reason (%j) before sending', async (reason) => {
		const { error, requests } = await runNodeExpectingError({
			parameters: cancel({ reason }),
			replies: [],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Reason \(item 0\): is required/);
		expect(error.description).toContain('Nothing was sent');
	});

	it('shows why a subscription that is not active cannot be cancelled (422), without repeating', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: cancel(),
			replies: [
				httpError(422, { errors: { status: ['subscription is not active'] } }),
				{ data: {} },
			],
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toBe(
			'FacilitaPay rejected the data (item 0): status: subscription is not active',
		);
		expect(error.description).toContain(`PUT /subscriptions/${SUBSCRIPTION_ID}/cancel, HTTP 422`);
	});

	it('is sent once: a 502 is not repeated', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: cancel(),
			replies: [httpError(502, ''), { data: {} }],
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toMatch(/^Outcome unknown \(item 0\)/);
		expect(error.description).toMatch(
			/may have been processed by FacilitaPay, so it was not repeated/,
		);
	});

	it('with Continue On Fail, a refused cancel becomes an error item', async () => {
		const { output } = await runNode({
			parameters: [cancel(), cancel({ subscriptionId: id(2) })],
			continueOnFail: true,
			replies: [
				httpError(422, { error: 'subscription_not_active' }),
				{ data: { id: id(2), status: 'canceled' } },
			],
		});
		expect(output[0].json.error).toMatch(/subscription_not_active/);
		expect(output[1].json).toEqual({ id: id(2), status: 'canceled' });
	});
});

describe('Subscription > Submit 3DS Challenge', () => {
	it('sends POST /subscriptions/:id/threeds_challenge with the card under credit_card', async () => {
		const { output, requests } = await runNode({
			parameters: threedsChallenge({
				cardNumber: '4111-1111-1111-1111',
				cardExpirationDate: '8/2099',
				cardBrand: 'Elo',
			}),
			replies: [{ data: { id: SUBSCRIPTION_ID, status: 'pending' } }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe(
			`https://sandbox.test/api/v1/subscriptions/${SUBSCRIPTION_ID}/threeds_challenge`,
		);
		expect(requests[0].body).toEqual({
			credit_card: {
				card_number: CARD_NUMBER,
				card_expiration_date: '08/2099',
				card_brand: 'elo',
				card_security_code: SECURITY_CODE,
				fullname: 'Maria Silva',
			},
		});
		expect(output[0].json).toEqual({ id: SUBSCRIPTION_ID, status: 'pending' });
	});

	it.each<[string, IDataObject, RegExp]>([
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
		['no subscription', { subscriptionId: '' }, /Subscription ID \(item 0\): is empty/],
	])('refuses %s before sending', async (_name, overrides, message) => {
		const { error, requests } = await runNodeExpectingError({
			parameters: threedsChallenge(overrides),
			replies: [],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.context.itemIndex).toBe(0);
	});

	it('is sent once: a 504 is not repeated', async () => {
		const { requests } = await runNodeExpectingError({
			parameters: threedsChallenge(),
			replies: [httpError(504, ''), { data: {} }],
		});
		expect(requests).toHaveLength(1);
	});
});
