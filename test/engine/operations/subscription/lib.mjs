// What the Subscription operation tests share on n8n's engine: the card, the subscriptions and the
// 3-D Secure challenge as the editor saves them (the Subject and Subscription fields are resource
// locators), and the node's clock fixed for a test.
import { nodeRequire } from '../../lib/nodeRequire.mjs';
import path from 'node:path';
import { ROOT } from '../../lib/engine.mjs';
import { browserParameters } from '../../../fixtures/cards.js';
import { SUBJECT_ID } from '../../../fixtures/subjects.js';
import { byId } from '../subject/lib.mjs';

export { byId, fromItem, emptyOnes } from '../subject/lib.mjs';

const require = nodeRequire;

// Card data used by the subscription tests. No other fixture contains these digits, so a test can
// search every output and error for them.
export const CARD_NUMBER = '4111111111111111';
export const SECURITY_CODE = '737';

export { SUBJECT_ID };
export const TO_ACCOUNT_ID = '0b5e7c2a-1f3d-4a8e-9c61-000000000001';
export const FROM_ACCOUNT_ID = '0b5e7c2a-1f3d-4a8e-9c61-000000000002';
export const SUBSCRIPTION_ID = '6d2f1a3b-8c4e-4b7a-9f10-3e5d7c9b1a20';

/** What the node adds to the meta of a subscription it creates: the payment's identity. */
export const IDENTITY = { n8n_facilitapay_ref: expect.stringMatching(/^run:/) };

export const cardParameters = {
	cardNumber: CARD_NUMBER,
	cardExpirationDate: '08/2099',
	cardBrand: 'visa',
	cardSecurityCode: SECURITY_CODE,
	fullname: 'Maria Silva',
};

export const cardSubscription = (overrides = {}) => ({
	resource: 'subscription',
	operation: 'create',
	paymentMethod: 'card',
	subjectId: byId(SUBJECT_ID),
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

export const pixSubscription = (overrides = {}) => ({
	resource: 'subscription',
	operation: 'create',
	paymentMethod: 'automaticPix',
	subjectId: byId(SUBJECT_ID),
	value: '49.90',
	frequency: 'month',
	cycles: 12,
	toBankAccountId: TO_ACCOUNT_ID,
	fromBankAccountId: FROM_ACCOUNT_ID,
	additionalFields: {},
	...overrides,
});

export const threedsChallenge = (overrides = {}) => ({
	resource: 'subscription',
	operation: 'submitThreedsChallenge',
	subscriptionId: byId(SUBSCRIPTION_ID),
	...cardParameters,
	...overrides,
});

/** The subscription a request sent, and its card. */
export const sentSubscription = (request) => request.body.subscription;
export const sentCard = (request) => sentSubscription(request).from_card;

/**
 * For every test of the calling file: `fixClock(date)` sets the node's clock (the dist/ module
 * n8n-core loaded, `clock.now()`, the one place its rules read the time from) until the test ends.
 */
export function useNodeClock() {
	const { clock } = require(path.join(ROOT, 'dist/nodes/FacilitaPay/clock.js'));
	const real = clock.now;
	afterEach(() => {
		clock.now = real;
	});
	return (date) => {
		clock.now = () => new Date(date);
	};
}
