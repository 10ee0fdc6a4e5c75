// The subscriptions phase: card and automatic PIX subscriptions, a day for the first invoices to
// be charged, the 3DS challenge of the declined card, the reads, then a cancel (7 operations), one
// workflow. Needs `ctx.subjectId` from the first phase. Uses jest's global `expect`.
import { cardSubscriptionParameters } from '../../../integration/lib/parameters.mjs';
import { actionStep, httpStep, sandboxApi } from '../n8n-e2e.mjs';
import { ACCOUNTS, controlUrl, expectRunOk, one, pages, ref } from './shared.mjs';

/* global expect */

/**
 * Subscriptions and invoices (7 operations).
 * @param {import('./shared.mjs').PhaseOptions} options
 */
export async function subscriptionsAndInvoices({ sb, runPhase, ctx, covered }) {
	expect(ctx.subjectId).toBeDefined();
	const { run, log, out } = await runPhase([
		...creationSteps(ctx.subjectId),
		// A day later the first invoices are charged (06:00 UTC): the card pays, the test card declines.
		httpStep('A Day Passes', { url: controlUrl(sb, '/clock/advance'), body: { days: 1 } }),
		...afterADaySteps(),
	]);
	expectRunOk(run);
	// Card data never shows in what n8n keeps of the run.
	expect(run.stdout).not.toContain('4111111111111111');
	expect(run.stdout).not.toContain('5555555555554444');
	const phase = { sb, run, log, out, ctx, covered };

	const { cardSub, pixSub } = checkCreations(phase);
	const declined = await checkChallenge(phase);
	checkReads(phase, [cardSub.id, declined.id, pixSub.id]);
	expect(out('Cancel Subscription')).toEqual([
		expect.objectContaining({ id: cardSub.id, status: 'canceled' }),
	]);
	expect(one(log, 'PUT', new RegExp(`/api/v1/subscriptions/${cardSub.id}/cancel$`)).body).toEqual({
		reason: 'Customer asked to stop',
	});
	covered.add('subscription.cancel');
}

/** The card fields of a subscription or a 3DS challenge. @param {string} number @param {string} brand */
const card = (number, brand) => ({
	cardNumber: number,
	cardExpirationDate: '12/2035',
	cardBrand: brand,
	cardSecurityCode: '123',
	fullname: 'Maria Souza',
});

/**
 * A monthly card subscription with 3DS, 12 cycles (the integration tests' builder, with this
 * phase's card and description). @param {string} subjectId @param {string} number
 */
const cardSubscription = (subjectId, number) =>
	cardSubscriptionParameters(subjectId, number, {
		cycles: 12,
		...card(number, 'visa'),
		dfReferenceId: 'df-e2e-session-1',
		additionalFields: { description: 'Premium plan', softDescriptor: 'E2E PLAN' },
	});

/** A card that pays, a test card that declines, an automatic PIX. @param {string} subjectId */
function creationSteps(subjectId) {
	return [
		actionStep('Card Subscription', cardSubscription(subjectId, '4111 1111 1111 1111')),
		actionStep('Declined Card Subscription', cardSubscription(subjectId, '4000000000000002')),
		actionStep('Automatic PIX Subscription', {
			resource: 'subscription',
			operation: 'create',
			paymentMethod: 'automaticPix',
			subjectId,
			value: '29.90',
			frequency: 'month',
			cycles: 6,
			toBankAccountId: ACCOUNTS.usdDestination,
			fromBankAccountId: ACCOUNTS.brlPixExclusive,
			additionalFields: { totalRetryAttempts: 2, meta: '{"plan": "basic-6"}' },
		}),
	];
}

/** The declined card's 3DS challenge, the reads, then the paying card's subscription cancelled. */
function afterADaySteps() {
	return [
		actionStep('Submit 3DS Challenge', {
			resource: 'subscription',
			operation: 'submitThreedsChallenge',
			subscriptionId: ref('Declined Card Subscription'),
			...card('5555555555554444', 'mastercard'),
		}),
		actionStep('Get Subscription', {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: ref('Card Subscription'),
		}),
		actionStep('Subscriptions', {
			resource: 'subscription',
			operation: 'getMany',
			returnAll: true,
		}),
		actionStep(
			'Invoices',
			{
				resource: 'invoice',
				operation: 'getMany',
				subscriptionId: ref('Card Subscription'),
				returnAll: true,
			},
			{ executeOnce: true },
		),
		actionStep(
			'Get Invoice',
			{ resource: 'invoice', operation: 'get', invoiceId: ref('Invoices') },
			{ executeOnce: true },
		),
		actionStep(
			'Cancel Subscription',
			{
				resource: 'subscription',
				operation: 'cancel',
				subscriptionId: ref('Card Subscription'),
				reason: 'Customer asked to stop',
			},
			{ executeOnce: true },
		),
	];
}

/**
 * The three creations: what the nodes answered and what the sandbox received (the card number
 * without spaces, the 3DS data as strings). Returns the card's and the PIX's subscriptions.
 * @param {import('./shared.mjs').PhaseRun} phase
 */
function checkCreations({ log, out, ctx, covered }) {
	const [cardSub] = out('Card Subscription');
	expect(cardSub).toMatchObject({
		id: expect.any(String),
		status: 'pending',
		value: '49.90',
		frequency: 'month',
	});
	const creations = log.filter(
		(r) => r.method === 'POST' && /\/api\/v1\/subscriptions$/.test(r.url),
	);
	expect(creations).toHaveLength(3);
	expect(creations[0].body.subscription).toMatchObject({
		subject_id: ctx.subjectId,
		value: '49.90',
		currency: 'BRL',
		frequency: 'month',
		cycles: 12,
		description: 'Premium plan',
		from_card: {
			card_type: 'credit',
			card_number: '4111111111111111',
			card_brand: 'visa',
			meta: { df_reference_id: 'df-e2e-session-1', mcc: '8999' },
			threeds: expect.objectContaining({
				softDescriptor: 'E2E PLAN',
				httpBrowserJavaEnabled: 'false',
				challengeWindowSize: 'fullPage',
			}),
		},
	});
	const [pixSub] = out('Automatic PIX Subscription');
	expect(pixSub).toMatchObject({
		status: 'pending',
		from_bank_account_id: ACCOUNTS.brlPixExclusive,
		// The user's Meta (JSON) and the node's key, one object, returned by FacilitaPay.
		meta: { plan: 'basic-6', n8n_facilitapay_ref: expect.stringMatching(/^run:/) },
	});
	expect(creations[2].body.subscription).toEqual({
		value: '29.90',
		currency: 'BRL',
		frequency: 'month',
		cycles: 6,
		total_retry_attempts: 2,
		to_bank_account_id: ACCOUNTS.usdDestination,
		subject_id: ctx.subjectId,
		from_bank_account_id: ACCOUNTS.brlPixExclusive,
		meta: { plan: 'basic-6', n8n_facilitapay_ref: expect.stringMatching(/^run:/) },
	});
	covered.add('subscription.create');
	return { cardSub, pixSub };
}

/**
 * The declined card's 3DS challenge, another card: the subscription turns active. Returns the
 * declined card's subscription.
 * @param {import('./shared.mjs').PhaseRun} phase
 */
async function checkChallenge({ sb, log, out, covered }) {
	const [declined] = out('Declined Card Subscription');
	expect(out('Submit 3DS Challenge')).toEqual([expect.objectContaining({ id: declined.id })]);
	const challenge = one(
		log,
		'POST',
		new RegExp(`/api/v1/subscriptions/${declined.id}/threeds_challenge$`),
	);
	expect(challenge.body.credit_card).toMatchObject({
		card_number: '5555555555554444',
		card_brand: 'mastercard',
		fullname: 'Maria Souza',
	});
	const afterChallenge = await sandboxApi(
		'GET',
		`/subscriptions/${declined.id}`,
		undefined,
		sb.state,
	);
	expect(afterChallenge.json.data.status).toBe('active');
	covered.add('subscription.submitThreedsChallenge');
	return declined;
}

/**
 * Get and Get Many of subscriptions, then the paying card's invoices and the first of them.
 * @param {import('./shared.mjs').PhaseRun} phase
 * @param {string[]} ids the card's, the declined card's and the PIX's subscriptions
 */
function checkReads({ log, out, covered }, ids) {
	const [cardSubId] = ids;
	expect(out('Get Subscription')).toEqual([
		expect.objectContaining({ id: cardSubId, status: 'active' }),
	]);
	one(log, 'GET', new RegExp(`/api/v1/subscriptions/${cardSubId}$`));
	covered.add('subscription.get');
	const all = out('Subscriptions').map((s) => s.id);
	for (const id of ids) expect(all).toContain(id);
	pages(log, 'GET', /\/api\/v1\/subscriptions$/);
	covered.add('subscription.getMany');

	const invoices = out('Invoices');
	expect(invoices.length).toBeGreaterThanOrEqual(1);
	expect(invoices[0]).toMatchObject({ id: expect.any(String), status: 'paid', cycle: 1 });
	one(log, 'GET', new RegExp(`/api/v1/subscriptions/invoices/${cardSubId}$`));
	covered.add('invoice.getMany');
	expect(out('Get Invoice')).toEqual([
		expect.objectContaining({ id: invoices[0].id, status: 'paid' }),
	]);
	one(log, 'GET', new RegExp(`/api/v1/subscriptions/invoices/${invoices[0].id}$`));
	covered.add('invoice.get');
}
