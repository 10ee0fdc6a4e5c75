// The card operations the card-data tests on n8n's engine run: a subscription paid by card and its
// 3-D Secure challenge (no other fixture holds these digits, so a test can search every output and
// error for them). Browser data from test/fixtures/cards.js.
import cards from '../../../fixtures/cards.js';
import subjects from '../../../fixtures/subjects.js';

export const CARD_NUMBER = '4111111111111111';
export const MASKED_CARD_NUMBER = '**** **** **** 1111';
export const SECURITY_CODE = '737';
export const TO_ACCOUNT_ID = '0b5e7c2a-1f3d-4a8e-9c61-000000000001';
export const SUBSCRIPTION_ID = '6d2f1a3b-8c4e-4b7a-9f10-3e5d7c9b1a20';

export const cardParameters = {
	cardNumber: CARD_NUMBER,
	cardExpirationDate: '08/2099',
	cardBrand: 'visa',
	cardSecurityCode: SECURITY_CODE,
	fullname: 'Maria Silva',
};

/** Subscription > Create, paid by card: 49.90 a month, 12 cycles. */
export const cardSubscription = (overrides = {}) => ({
	resource: 'subscription',
	operation: 'create',
	paymentMethod: 'card',
	subjectId: subjects.SUBJECT_ID,
	value: '49.90',
	frequency: 'month',
	cycles: 12,
	toBankAccountId: TO_ACCOUNT_ID,
	...cardParameters,
	cardType: 'credit',
	dfReferenceId: 'df-session-0001',
	mcc: '8999',
	...cards.browserParameters,
	additionalFields: {},
	...overrides,
});

/** Subscription > Submit 3DS Challenge of the test subscription, with the card. */
export const threedsChallenge = (overrides = {}) => ({
	resource: 'subscription',
	operation: 'submitThreedsChallenge',
	subscriptionId: SUBSCRIPTION_ID,
	...cardParameters,
	...overrides,
});
