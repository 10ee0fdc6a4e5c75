// What the Subscription operation tests share on n8n's engine: the card, the subscriptions and the
// 3-D Secure challenge as the editor saves them (the Subject and Subscription fields are resource
// locators), and the node's clock fixed for a test.
import { nodeRequire } from '../../lib/nodeRequire.mjs';
import path from 'node:path';
import { ROOT } from '../../lib/engine.mjs';
import subscriptions from '../../../fixtures/subscriptions.js';
import { SUBJECT_ID } from '../../../fixtures/subjects.js';
import { byId } from '../subject/lib.mjs';

export { byId, fromItem, emptyOnes } from '../subject/lib.mjs';

const require = nodeRequire;

export { SUBJECT_ID };

/** What the node adds to the meta of a subscription it creates: the payment's identity. */
export const IDENTITY = { n8n_facilitapay_ref: expect.stringMatching(/^run:/) };

// The card, the subscriptions and the challenge of every subscription test
// (test/fixtures/subscriptions.js), with the Subject and Subscription fields as resource locators.
export {
	CARD_NUMBER,
	SECURITY_CODE,
	TO_ACCOUNT_ID,
	FROM_ACCOUNT_ID,
	SUBSCRIPTION_ID,
	cardParameters,
	sentSubscription,
	sentCard,
} from '../../../fixtures/subscriptions.js';

export const cardSubscription = (overrides = {}) =>
	subscriptions.cardSubscription({ subjectId: byId(SUBJECT_ID), ...overrides });

export const pixSubscription = (overrides = {}) =>
	subscriptions.pixSubscription({ subjectId: byId(SUBJECT_ID), ...overrides });

export const threedsChallenge = (overrides = {}) =>
	subscriptions.threedsChallenge({
		subscriptionId: byId(subscriptions.SUBSCRIPTION_ID),
		...overrides,
	});

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

/**
 * A run that ended without an error after one POST /subscriptions with the test token, its
 * `subscription` the one given plus the node's identity meta.
 */
export function expectSubscriptionSent({ error, requests }, subscription) {
	expect(error).toBeUndefined();
	expect(requests).toHaveLength(1);
	expect(requests[0]).toMatchObject({ method: 'POST', route: 'POST /subscriptions', query: {} });
	expect(requests[0].headers.authorization).toBe('Bearer test-token');
	expect(requests[0].body).toEqual({ subscription: { meta: IDENTITY, ...subscription } });
}
