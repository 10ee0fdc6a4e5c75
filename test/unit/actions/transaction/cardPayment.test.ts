import type { IDataObject } from 'n8n-workflow';

import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { httpError } from '../../helpers/serviceAnswers';
import { skipRetryWaits } from '../../helpers/retryWaits';
import { SUBJECT_ID } from '../../../fixtures/subjects';
import { clock } from '../../../../nodes/FacilitaPay/clock';

const TO_ACCOUNT = '0b5e7c2a-1f3d-4a8e-9c61-000000000001';

skipRetryWaits();

beforeEach(() => {
	jest.spyOn(clock, 'now').mockReturnValue(new Date('2026-11-27T12:00:00Z'));
});
afterEach(() => jest.restoreAllMocks());

const cardPayment = (overrides: IDataObject = {}) => ({
	resource: 'transaction',
	operation: 'createCardPayment',
	subjectId: SUBJECT_ID,
	value: '120.50',
	currency: 'BRL',
	exchangeCurrency: 'BRL',
	toBankAccountId: TO_ACCOUNT,
	cardNumber: '4111 1111 1111 1111',
	cardExpirationDate: '12/2030',
	cardBrand: 'visa',
	cardSecurityCode: '123',
	fullname: 'Maria da Silva',
	additionalFields: {},
	...overrides,
});

const approved = {
	data: {
		id: 'tx-card-1',
		status: 'identified',
		value: '120.50',
		from_credit_card: { id: 'cc-1', status: 'approved', document_type: 'cpf' },
	},
};

describe('Transaction > Create Card Payment', () => {
	it('sends POST /transactions with from_credit_card, once, and outputs the payment without card data', async () => {
		const { output, requests } = await runNode({
			parameters: cardPayment({
				additionalFields: { documentType: 'cpf', documentNumber: '390.533.447-05' },
			}),
			replies: [approved],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/transactions');
		expect((requests[0].body as { transaction: IDataObject }).transaction).toMatchObject({
			subject_id: SUBJECT_ID,
			to_bank_account_id: TO_ACCOUNT,
			currency: 'BRL',
			exchange_currency: 'BRL',
			value: '120.50',
			from_credit_card: {
				card_number: '4111111111111111',
				card_expiration_date: '12/2030',
				card_security_code: '123',
				card_brand: 'visa',
				fullname: 'Maria da Silva',
				document_type: 'cpf',
				document_number: '39053344705',
			},
		});
		expect(output[0].json).toMatchObject({ id: 'tx-card-1', approved: true });
		expect(JSON.stringify(output[0].json)).not.toContain('4111111111111111');
	});

	it('an answer that echoes the card shows only its last 4 digits and no security code', async () => {
		const { output } = await runNode({
			parameters: cardPayment(),
			replies: [
				{
					data: {
						id: 'tx-card-2',
						from_credit_card: {
							status: 'declined',
							card_number: '4111111111111111',
							card_security_code: '123',
						},
					},
				},
			],
		});
		const text = JSON.stringify(output[0].json);
		expect(text).not.toContain('4111111111111111');
		expect(text).not.toContain('"123"');
		expect(text).toContain('1111');
		expect(output[0].json.approved).toBe(false);
	});

	it.each([
		['a number failing the Luhn check', { cardNumber: '4111111111111112' }, /Card Number.*Luhn/],
		['an expired card', { cardExpirationDate: '10/2026' }, /Card Expiration Date.*expired/],
		[
			'a 4-digit security code',
			{ cardSecurityCode: '1234' },
			/Card Security Code.*exactly 3 digits/,
		],
		['a single name', { fullname: 'Maria' }, /Cardholder Full Name.*not a full name/],
		['a value with three decimals', { value: '10.005' }, /Value/],
		[
			'a holder CPF with wrong check digits',
			{ additionalFields: { documentType: 'cpf', documentNumber: '23100299900' } },
			/Cardholder Document Number/,
		],
	])(
		'refuses %s before charging anything, without repeating the card',
		async (_name, overrides, message) => {
			const { error, requests } = await runNodeExpectingError({
				parameters: cardPayment(overrides as IDataObject),
				replies: [approved],
			});
			expect(requests).toHaveLength(0);
			expect(error.message).toMatch(message);
			expect(`${error.message} ${error.description ?? ''}`).not.toMatch(
				/4111\s?1111\s?1111\s?111[12]/,
			);
		},
	);

	it('an error answer quoting the card is shown with the card masked, and the payment is not sent again', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: cardPayment(),
			replies: [
				httpError(422, { errors: { card_number: ['4111111111111111 was refused'] } }),
				approved,
			],
		});
		expect(requests).toHaveLength(1);
		expect(
			JSON.stringify({ message: error.message, description: error.description }),
		).not.toContain('4111111111111111');
	});
});
