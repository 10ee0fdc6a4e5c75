import type { IDataObject } from 'n8n-workflow';

import { SUBJECT_ID } from '../../../fixtures/subjects';

/** The account a card payment of the unit tests pays into. */
export const CARD_PAYMENT_TO_ACCOUNT = '0b5e7c2a-1f3d-4a8e-9c61-000000000001';

/** Transaction > Create Card Payment's parameters: an approved Visa, 120.50 BRL. */
export const cardPayment = (overrides: IDataObject = {}): IDataObject => ({
	resource: 'transaction',
	operation: 'createCardPayment',
	subjectId: SUBJECT_ID,
	value: '120.50',
	currency: 'BRL',
	exchangeCurrency: 'BRL',
	toBankAccountId: CARD_PAYMENT_TO_ACCOUNT,
	cardNumber: '4111 1111 1111 1111',
	cardExpirationDate: '12/2030',
	cardBrand: 'visa',
	cardSecurityCode: '123',
	fullname: 'Maria da Silva',
	additionalFields: {},
	...overrides,
});
