// The pure rules of card data: maskCardData (what the node applies to every answer and error it
// shows) and the card fields of the node's description. The card operations themselves run on
// n8n's engine: test/engine/operations/security/cardData.test.mjs.
import type { IDataObject } from 'n8n-workflow';

import { FacilitaPay } from '../../../nodes/FacilitaPay/FacilitaPay.node';
import { maskCardData } from '../../../nodes/FacilitaPay/security/cardData';
import { CARD_NUMBER, SECURITY_CODE } from '../../fixtures/subscriptions';

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
