// Card data never shown back: the card operations (Subscription > Create by card, Submit 3DS
// Challenge) and the subscription reads on n8n's engine, against a FacilitaPay scripted by route
// that echoes the card in its answers and errors. What is asserted is what n8n keeps of the run:
// the items out, the error it records (message, description, errorResponse, messages, cause),
// the error item of On Error "Continue". The pure masking rule (maskCardData) and the description's
// password fields are plain unit tests: test/unit/security/maskCardData.test.ts.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { everythingIn } from '../transaction/lib.mjs';
import {
	CARD_NUMBER,
	cardSubscription,
	MASKED_CARD_NUMBER,
	SECURITY_CODE,
	SUBSCRIPTION_ID,
	threedsChallenge,
} from '../../../fixtures/subscriptions.js';

const op = useOperations();
skipRetryWaits();

const outputText = (items) => JSON.stringify(items.map((item) => item.json));

/** An answer that echoes the card back in every way seen in card APIs. */
const echoingAnswer = {
	id: SUBSCRIPTION_ID,
	status: 'pending',
	from_card: {
		card_number: CARD_NUMBER,
		card_security_code: SECURITY_CODE,
		card_brand: 'visa',
		fullname: 'Maria Silva',
		threeds: { note: `challenge for card ${CARD_NUMBER} cvv ${SECURITY_CODE}` },
	},
	credit_card: { number: CARD_NUMBER, cvv: SECURITY_CODE },
	charges: [{ id: 'ch-1', message: `Card 4111 1111 1111 1111 declined`, card_number: '**** 1111' }],
};

/** The route each card operation sends the card to. */
const operations = [
	['Create by card', cardSubscription(), 'POST /subscriptions'],
	['Submit 3DS Challenge', threedsChallenge(), 'POST /subscriptions/:id/threeds_challenge'],
];

/**
 * The service's script: `answer` on the operation's route; the reads the node may make to learn
 * whether a failed send took effect find nothing new.
 */
const script = (route, answer) => ({
	[route]: answer,
	'GET /subscriptions/:id': { data: { id: SUBSCRIPTION_ID, status: 'pending' } },
	'GET /subscriptions': { data: [] },
});

describe.each(operations)(
	'%s never shows the card number or the security code',
	(_name, parameters, route) => {
		it('in the output, when the service echoes the card back', async () => {
			const { items, requests, error } = await op.run({
				parameters,
				replies: script(route, { data: echoingAnswer }),
			});
			expect(error).toBeUndefined();
			// The service does receive the card…
			const sends = requests.filter((request) => request.route === route);
			expect(sends).toHaveLength(1);
			expect(JSON.stringify(sends[0].body)).toContain(CARD_NUMBER);
			// …but nothing the user sees afterwards contains it.
			const text = outputText(items);
			expect(text).not.toContain(CARD_NUMBER);
			expect(text).not.toContain('4111 1111 1111 1111');
			expect(text).not.toContain(SECURITY_CODE);
			const { json } = items[0];
			expect(json.from_card).toMatchObject({
				card_number: MASKED_CARD_NUMBER,
				card_security_code: '***',
				card_brand: 'visa',
				fullname: 'Maria Silva',
			});
			expect(json.credit_card).toEqual({ number: MASKED_CARD_NUMBER, cvv: '***' });
			expect(json.charges[0]).toEqual({
				id: 'ch-1',
				message: `Card ${MASKED_CARD_NUMBER} declined`,
				card_number: '**** 1111',
			});
			expect(json.id).toBe(SUBSCRIPTION_ID);
		});

		it.each([
			[
				'field errors quoting the card',
				422,
				{
					errors: {
						card_number: [`${CARD_NUMBER} is not accepted`],
						card_security_code: [`${SECURITY_CODE} is invalid`],
					},
				},
			],
			[
				'an object echoing the card',
				400,
				{
					from_card: { card_number: CARD_NUMBER, card_security_code: SECURITY_CODE },
					error: 'declined',
				},
			],
			[
				'a message quoting the card',
				400,
				{ message: `card ${CARD_NUMBER} with cvv ${SECURITY_CODE} refused` },
			],
			[
				'plain text quoting the card',
				500,
				Buffer.from(`Internal error processing card=${CARD_NUMBER}&cvv=${SECURITY_CODE}`),
			],
		])('in the error, when the service answers with %s', async (_case, status, body) => {
			const headers = Buffer.isBuffer(body) ? { 'content-type': 'text/plain' } : {};
			const { error, requests, items } = await op.run({
				parameters,
				replies: script(route, reply(status, body, headers)),
			});
			expect(items).toHaveLength(0);
			expect(requests.filter((request) => request.route === route)).toHaveLength(1);
			const text = everythingIn(error);
			expect(text).not.toContain(CARD_NUMBER);
			expect(text).not.toMatch(new RegExp(`(?<![0-9A-Za-z])${SECURITY_CODE}(?![0-9A-Za-z])`));
			// The answer kept with the error is there, masked.
			expect(JSON.stringify(error.errorResponse)).toContain('1111');
			// The error still says what went wrong, with the status and the request.
			expect(error.description).toContain(`HTTP ${status}`);
			expect(error.context.itemIndex).toBe(0);
		});

		it('keeps the readable reason of a field error while hiding the values', async () => {
			const { error } = await op.run({
				parameters,
				replies: script(
					route,
					reply(422, { errors: { card_number: [`${CARD_NUMBER} is not accepted`] } }),
				),
			});
			expect(error.message).toBe(
				`FacilitaPay rejected the data (item 0): card_number: ${MASKED_CARD_NUMBER} is not accepted`,
			);
		});

		it('in the error item of Continue On Fail', async () => {
			const { items, error } = await op.run({
				parameters,
				onError: 'continueRegularOutput',
				replies: script(
					route,
					reply(422, {
						errors: { card_number: [`${CARD_NUMBER} / ${SECURITY_CODE} rejected`] },
					}),
				),
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(items[0].pairedItem).toEqual({ item: 0 });
			const text = outputText(items);
			expect(text).not.toContain(CARD_NUMBER);
			expect(text).not.toContain(SECURITY_CODE);
			expect(items[0].json.error).toMatch(
				/card_number: \*\*\*\* \*\*\*\* \*\*\*\* 1111 \/ \*\*\* rejected/,
			);
		});

		it.each([
			['a short card number', { cardNumber: '411111111111' }],
			['a card number with a letter', { cardNumber: `${CARD_NUMBER.slice(0, 15)}X` }],
			['a long card number', { cardNumber: `${CARD_NUMBER}1234` }],
			['a wrong security code', { cardSecurityCode: '7371' }],
		])('in a validation error, for %s', async (_case, overrides) => {
			const wrong = { ...parameters, ...overrides };
			const { error, requests, items } = await op.run({
				parameters: wrong,
				replies: script(route, { data: echoingAnswer }),
			});
			expect(requests).toHaveLength(0);
			expect(items).toHaveLength(0);
			expect(error).toBeDefined();
			const text = everythingIn(error);
			expect(text).not.toContain(String(wrong.cardNumber));
			expect(text).not.toContain(String(wrong.cardSecurityCode));
		});
	},
);

describe('Subscription reads mask card data the service returns', () => {
	it('Get masks from_card', async () => {
		const { items, requests } = await op.run({
			parameters: {
				resource: 'subscription',
				operation: 'get',
				subscriptionId: SUBSCRIPTION_ID,
			},
			replies: { 'GET /subscriptions/:id': { data: echoingAnswer } },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].params).toEqual({ id: SUBSCRIPTION_ID });
		expect(items[0].json.from_card).toMatchObject({
			card_number: MASKED_CARD_NUMBER,
			card_security_code: '***',
		});
		expect(outputText(items)).not.toContain(CARD_NUMBER);
	});

	it('Get Many masks every subscription', async () => {
		const { items, requests } = await op.run({
			parameters: { resource: 'subscription', operation: 'getMany', returnAll: false, limit: 2 },
			replies: {
				'GET /subscriptions': { data: [echoingAnswer, { ...echoingAnswer, id: 'sub-2' }] },
			},
		});
		expect(requests[0]).toMatchObject({ method: 'GET', route: 'GET /subscriptions' });
		expect(items).toHaveLength(2);
		const text = outputText(items);
		expect(text).not.toContain(CARD_NUMBER);
		expect(text).not.toContain('"card_security_code":"737"');
	});
});
