import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FacilitaPay } from '../../../nodes/FacilitaPay/FacilitaPay.node';
import { maskCardData } from '../../../nodes/FacilitaPay/security/cardData';
import { runNode, runNodeExpectingError } from '../helpers/executeContext';
import { httpError } from '../helpers/serviceAnswers';
import { skipRetryWaits } from '../helpers/retryWaits';
import {
	CARD_NUMBER,
	cardSubscription,
	everythingIn,
	MASKED_CARD_NUMBER,
	SECURITY_CODE,
	SUBSCRIPTION_ID,
	threedsChallenge,
} from '../actions/subscription/fixtures';

skipRetryWaits();

const outputText = (output: INodeExecutionData[]) =>
	JSON.stringify(output.map((item) => item.json));

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

const operations: Array<[string, IDataObject]> = [
	['Create by card', cardSubscription()],
	['Submit 3DS Challenge', threedsChallenge()],
];

describe.each(operations)(
	'%s never shows the card number or the security code',
	(_name, parameters) => {
		it('in the output, when the service echoes the card back', async () => {
			const { output, requests } = await runNode({
				parameters,
				replies: [{ data: echoingAnswer }],
			});
			// The service does receive the card…
			expect(JSON.stringify(requests[0].body)).toContain(CARD_NUMBER);
			// …but nothing the user sees afterwards contains it.
			const text = outputText(output);
			expect(text).not.toContain(CARD_NUMBER);
			expect(text).not.toContain('4111 1111 1111 1111');
			expect(text).not.toContain(SECURITY_CODE);
			const json = output[0].json as IDataObject;
			expect(json.from_card).toMatchObject({
				card_number: MASKED_CARD_NUMBER,
				card_security_code: '***',
				card_brand: 'visa',
				fullname: 'Maria Silva',
			});
			expect(json.credit_card).toEqual({ number: MASKED_CARD_NUMBER, cvv: '***' });
			expect((json.charges as IDataObject[])[0]).toEqual({
				id: 'ch-1',
				message: `Card ${MASKED_CARD_NUMBER} declined`,
				card_number: '**** 1111',
			});
			expect(json.id).toBe(SUBSCRIPTION_ID);
		});

		it.each<[string, number, unknown]>([
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
				`Internal error processing card=${CARD_NUMBER}&cvv=${SECURITY_CODE}`,
			],
		])('in the error, when the service answers with %s', async (_case, status, body) => {
			const { error, requests } = await runNodeExpectingError({
				parameters,
				replies: [httpError(status, body)],
			});
			expect(requests).toHaveLength(1);
			const text = everythingIn(error);
			expect(text).not.toContain(CARD_NUMBER);
			expect(text).not.toMatch(new RegExp(`(?<![0-9A-Za-z])${SECURITY_CODE}(?![0-9A-Za-z])`));
			// The answer kept with the error is there, masked.
			expect(JSON.stringify((error as unknown as IDataObject).errorResponse)).toContain('1111');
			// The error still says what went wrong, with the status and the request.
			expect(error.description).toContain(`HTTP ${status}`);
			expect(error.context.itemIndex).toBe(0);
		});

		it('keeps the readable reason of a field error while hiding the values', async () => {
			const { error } = await runNodeExpectingError({
				parameters,
				replies: [httpError(422, { errors: { card_number: [`${CARD_NUMBER} is not accepted`] } })],
			});
			expect(error.message).toBe(
				`FacilitaPay rejected the data (item 0): card_number: ${MASKED_CARD_NUMBER} is not accepted`,
			);
		});

		it('in the error item of Continue On Fail', async () => {
			const { output } = await runNode({
				parameters,
				continueOnFail: true,
				replies: [
					httpError(422, {
						errors: { card_number: [`${CARD_NUMBER} / ${SECURITY_CODE} rejected`] },
					}),
				],
			});
			const text = outputText(output);
			expect(text).not.toContain(CARD_NUMBER);
			expect(text).not.toContain(SECURITY_CODE);
			expect(output[0].json.error).toMatch(
				/card_number: \*\*\*\* \*\*\*\* \*\*\*\* 1111 \/ \*\*\* rejected/,
			);
		});

		it.each<[string, IDataObject]>([
			['a short card number', { cardNumber: '411111111111' }],
			['a card number with a letter', { cardNumber: `${CARD_NUMBER.slice(0, 15)}X` }],
			['a long card number', { cardNumber: `${CARD_NUMBER}1234` }],
			['a wrong security code', { cardSecurityCode: '7371' }],
		])('in a validation error, for %s', async (_case, overrides) => {
			const wrong = { ...parameters, ...overrides };
			const { error, requests } = await runNodeExpectingError({ parameters: wrong, replies: [] });
			expect(requests).toHaveLength(0);
			const text = everythingIn(error);
			expect(text).not.toContain(String(wrong.cardNumber));
			expect(text).not.toContain(String(wrong.cardSecurityCode));
		});
	},
);

describe('Card data in the node’s description', () => {
	const properties = new FacilitaPay().description.properties;

	it.each(['cardNumber', 'cardSecurityCode'])(
		'%s is a password field wherever it appears',
		(name) => {
			const fields = properties.filter((property) => property.name === name);
			expect(fields.length).toBeGreaterThanOrEqual(2);
			for (const field of fields) expect(field.typeOptions).toMatchObject({ password: true });
		},
	);

	it('the soft descriptor hint says it is cut to 13 characters', () => {
		const collection = properties.find(
			(property) =>
				property.name === 'additionalFields' &&
				property.displayOptions?.show?.resource?.includes('subscription'),
		);
		const softDescriptor = (collection?.options as unknown as IDataObject[]).find(
			(option) => option.name === 'softDescriptor',
		);
		expect(softDescriptor?.hint).toMatch(/first 13 characters/);
	});

	it('the trial days and free days hints explain what they do to the schedule', () => {
		const collection = properties.find(
			(property) =>
				property.name === 'additionalFields' &&
				property.displayOptions?.show?.resource?.includes('subscription'),
		);
		const options = collection?.options as unknown as IDataObject[];
		expect(options.find((o) => o.name === 'trialDays')?.hint).toMatch(
			/later charges still fall on the original dates/,
		);
		expect(options.find((o) => o.name === 'freeDays')?.hint).toMatch(/shift every later charge/);
	});
});

describe('Subscription reads mask card data the service returns', () => {
	it('Get masks from_card', async () => {
		const { output } = await runNode({
			parameters: { resource: 'subscription', operation: 'get', subscriptionId: SUBSCRIPTION_ID },
			replies: [{ data: echoingAnswer }],
		});
		const json = output[0].json as IDataObject;
		expect(json.from_card).toMatchObject({
			card_number: MASKED_CARD_NUMBER,
			card_security_code: '***',
		});
		expect(outputText(output)).not.toContain(CARD_NUMBER);
	});

	it('Get Many masks every subscription', async () => {
		const { output } = await runNode({
			parameters: { resource: 'subscription', operation: 'getMany', returnAll: false, limit: 2 },
			replies: [{ data: [echoingAnswer, { ...echoingAnswer, id: 'sub-2' }] }],
		});
		expect(output).toHaveLength(2);
		const text = outputText(output);
		expect(text).not.toContain(CARD_NUMBER);
		expect(text).not.toContain('"card_security_code":"737"');
	});
});

describe('maskCardData (pure)', () => {
	it('masks Luhn-valid card numbers in any text, even when the card is not known', () => {
		expect(maskCardData({ note: 'paid with 5555-5555-5555-4444 today' })).toEqual({
			note: 'paid with **** **** **** 4444 today',
		});
	});

	it.each([
		['an id made of digit groups', '12345678-1234-1234-1234-123456789012'],
		['a 13-digit timestamp that fails Luhn', '1717171717172'],
		['an amount', '4111111.11'],
		['a boleto digital line', '34191090086357127730871444640008581960000000062'],
	])('leaves %s alone', (_name, text) => {
		expect(maskCardData({ text })).toEqual({ text });
	});

	it('keeps numbers that are not strings and values that are already masked', () => {
		const answer = {
			value: 4111111111111111,
			from_card: { card_number: '411111******1111', last4: '1111' },
		};
		expect(maskCardData(answer)).toEqual({
			value: 4111111111111111,
			from_card: { card_number: '**** ** 1111', last4: '1111' },
		});
		expect(maskCardData({ from_card: { card_number: '**** 1111' } })).toEqual({
			from_card: { card_number: '**** 1111' },
		});
	});

	it('hides a known security code only where the card data can be quoted', () => {
		const secrets = { cardNumber: CARD_NUMBER, securityCode: SECURITY_CODE };
		expect(maskCardData({ total: '737.00', from_card: { note: 'cvv 737' } }, secrets)).toEqual({
			total: '737.00',
			from_card: { note: 'cvv ***' },
		});
		expect(maskCardData({ message: 'cvv 737 refused' }, secrets, true)).toEqual({
			message: 'cvv *** refused',
		});
	});
});
