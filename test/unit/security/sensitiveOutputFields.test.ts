import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { FacilitaPay } from '../../../nodes/FacilitaPay/FacilitaPay.node';
import { clock } from '../../../nodes/FacilitaPay/clock';
import { runNode } from '../helpers/executeContext';
import { cardSubscription, threedsChallenge } from '../actions/subscription/fixtures';
import { cardPayment } from '../actions/transaction/fixtures';

// n8n 2.x redacts the paths of `sensitiveOutputFields` (relative to an output item's JSON) wherever
// execution data is shown. The node puts FacilitaPay's answer in the item as it is (the
// `transaction` or `subscription` it was sent in is unwrapped), so every place a card operation
// sends a card number or security code, should the service echo it, is a path to list.

const CARD_KEYS = new Set(['card_number', 'card_security_code', 'number', 'security_code']);

/** Dotted paths of the card number and security code in a body, without its wrapper object. */
function cardPaths(value: unknown, prefix = ''): string[] {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
	return Object.entries(value as IDataObject).flatMap(([key, inner]) => {
		const path = prefix === '' ? key : `${prefix}.${key}`;
		if (CARD_KEYS.has(key) && typeof inner === 'string') return [path];
		return cardPaths(inner, path);
	});
}

const unwrapped = (request: IHttpRequestOptions) => {
	const body = request.body as IDataObject;
	return (body.transaction ?? body.subscription ?? body) as IDataObject;
};

beforeEach(() => {
	jest.spyOn(clock, 'now').mockReturnValue(new Date('2026-11-27T12:00:00Z'));
});
afterEach(() => jest.restoreAllMocks());

describe('sensitiveOutputFields', () => {
	it.each([
		['Transaction > Create Card Payment', cardPayment(), ['from_credit_card.card_number']],
		['Subscription > Create (card)', cardSubscription(), ['from_card.card_number']],
		['Subscription > Submit 3DS Challenge', threedsChallenge(), ['credit_card.card_number']],
	])(
		'%s: every card field it sends is redacted by n8n should the answer echo it',
		async (_name, parameters, expectedAmong) => {
			const { requests } = await runNode({ parameters, replies: [{ data: { id: 'x-1' } }] });
			expect(requests).toHaveLength(1);
			const paths = cardPaths(unwrapped(requests[0]));
			expect(paths).toEqual(expect.arrayContaining(expectedAmong));
			const listed = new FacilitaPay().description.sensitiveOutputFields ?? [];
			for (const path of paths) expect(listed).toContain(path);
		},
	);
});
