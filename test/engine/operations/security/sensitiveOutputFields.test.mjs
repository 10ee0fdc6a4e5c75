// n8n 2.x redacts the paths of `sensitiveOutputFields` (relative to an output item's JSON) wherever
// execution data is shown. The node puts FacilitaPay's answer in the item as it is (the
// `transaction` or `subscription` it was sent in is unwrapped), so every place a card operation
// sends a card number or security code, should the service echo it, is a path to list. Run on
// n8n's engine: the paths are read from the request that reached the scripted FacilitaPay.
import { skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { cardPayment, dist, fixClock } from '../transaction/lib.mjs';
import { cardSubscription, threedsChallenge } from '../../../fixtures/subscriptions.js';

const op = useOperations();
skipRetryWaits();
fixClock('2026-11-27T12:00:00Z');

const CARD_KEYS = new Set(['card_number', 'card_security_code', 'number', 'security_code']);

/** Dotted paths of the card number and security code in a body, without its wrapper object. */
function cardPaths(value, prefix = '') {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
	return Object.entries(value).flatMap(([key, inner]) => {
		const path = prefix === '' ? key : `${prefix}.${key}`;
		if (CARD_KEYS.has(key) && typeof inner === 'string') return [path];
		return cardPaths(inner, path);
	});
}

const unwrapped = (request) =>
	request.body.transaction ?? request.body.subscription ?? request.body;

describe('sensitiveOutputFields', () => {
	it.each([
		[
			'Transaction > Create Card Payment',
			cardPayment(),
			'POST /transactions',
			['from_credit_card.card_number'],
		],
		[
			'Subscription > Create (card)',
			cardSubscription(),
			'POST /subscriptions',
			['from_card.card_number'],
		],
		[
			'Subscription > Submit 3DS Challenge',
			threedsChallenge(),
			'POST /subscriptions/:id/threeds_challenge',
			['credit_card.card_number'],
		],
	])(
		'%s: every card field it sends is redacted by n8n should the answer echo it',
		async (_name, parameters, route, expectedAmong) => {
			const { requests, error } = await op.run({
				parameters,
				replies: { [route]: { data: { id: 'x-1' } } },
			});
			expect(error).toBeUndefined();
			expect(requests).toHaveLength(1);
			expect(requests[0].route).toBe(route);
			const paths = cardPaths(unwrapped(requests[0]));
			expect(paths).toEqual(expect.arrayContaining(expectedAmong));
			const { FacilitaPay } = dist('nodes/FacilitaPay/FacilitaPay.node.js');
			const listed = new FacilitaPay().description.sensitiveOutputFields ?? [];
			for (const path of paths) expect(listed).toContain(path);
		},
	);
});
