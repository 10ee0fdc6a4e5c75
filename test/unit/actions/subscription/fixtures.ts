import type { IDataObject } from 'n8n-workflow';

import { browserParameters } from '../../../fixtures/cards';
import { SUBJECT_ID } from '../../../fixtures/subjects';

// Card data used by the subscription tests. No other fixture contains these digits, so a test can
// search every output and error for them.
export const CARD_NUMBER = '4111111111111111';
export const MASKED_CARD_NUMBER = '**** **** **** 1111';
export const SECURITY_CODE = '737';

export { SUBJECT_ID };
export const TO_ACCOUNT_ID = '0b5e7c2a-1f3d-4a8e-9c61-000000000001';
export const FROM_ACCOUNT_ID = '0b5e7c2a-1f3d-4a8e-9c61-000000000002';
export const SUBSCRIPTION_ID = '6d2f1a3b-8c4e-4b7a-9f10-3e5d7c9b1a20';

export const cardParameters: IDataObject = {
	cardNumber: CARD_NUMBER,
	cardExpirationDate: '08/2099',
	cardBrand: 'visa',
	cardSecurityCode: SECURITY_CODE,
	fullname: 'Maria Silva',
};

export const cardSubscription = (overrides: IDataObject = {}): IDataObject => ({
	resource: 'subscription',
	operation: 'create',
	paymentMethod: 'card',
	subjectId: SUBJECT_ID,
	value: '49.90',
	frequency: 'month',
	cycles: 12,
	toBankAccountId: TO_ACCOUNT_ID,
	...cardParameters,
	cardType: 'credit',
	dfReferenceId: 'df-session-0001',
	mcc: '8999',
	...browserParameters,
	additionalFields: {},
	...overrides,
});

export const pixSubscription = (overrides: IDataObject = {}): IDataObject => ({
	resource: 'subscription',
	operation: 'create',
	paymentMethod: 'automaticPix',
	subjectId: SUBJECT_ID,
	value: '49.90',
	frequency: 'month',
	cycles: 12,
	toBankAccountId: TO_ACCOUNT_ID,
	fromBankAccountId: FROM_ACCOUNT_ID,
	additionalFields: {},
	...overrides,
});

export const threedsChallenge = (overrides: IDataObject = {}): IDataObject => ({
	resource: 'subscription',
	operation: 'submitThreedsChallenge',
	subscriptionId: SUBSCRIPTION_ID,
	...cardParameters,
	...overrides,
});

/**
 * Everything a user could read from a failed run: message, description, the error as n8n
 * serialises it, the answer it keeps (errorResponse), its messages and its cause.
 */
export function everythingIn(error: unknown): string {
	const e = error as Error & { description?: string; errorResponse?: unknown; messages?: string[] };
	// n8n's error timestamp (13 digits of the clock) is left out: a card's digits could stand in it
	// by chance, and it carries nothing the user typed.
	return [
		e.message,
		e.description ?? '',
		JSON.stringify(error),
		JSON.stringify(e.errorResponse ?? null),
		JSON.stringify(e.messages ?? []),
		String(e.cause ?? ''),
		JSON.stringify(e.cause ?? null),
	]
		.join('\n')
		.replace(/"timestamp":\d+/g, '"timestamp":0');
}

/** The subscription a request sent, and its card. */
export const sentSubscription = (request: { body?: unknown }) =>
	(request.body as IDataObject).subscription as IDataObject;
export const sentCard = (request: { body?: unknown }) =>
	sentSubscription(request).from_card as IDataObject;
