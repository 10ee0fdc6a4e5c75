// Subscription > Create by card on n8n's engine, against a FacilitaPay scripted by route. Card and
// browser data reach the node as a checkout hands them over: through expressions reading the item.
import { reply, RESET, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { browserParameters, threedsBody } from '../../../fixtures/cards.js';
import {
	CARD_NUMBER,
	cardSubscription,
	emptyOnes,
	fromItem,
	IDENTITY,
	SECURITY_CODE,
	sentCard,
	sentSubscription,
	SUBJECT_ID,
	TO_ACCOUNT_ID,
	useNodeClock,
	expectSubscriptionSent,
} from './lib.mjs';

const SUBSCRIPTIONS = 'POST /subscriptions';

const op = useOperations();
const waits = skipRetryWaits();
const fixClock = useNodeClock();

/** The overrides' top-level fields (and any left empty) given by expressions reading the item. */
const runCard = (overrides = {}, replies = {}) => {
	const parameters = cardSubscription(overrides);
	const names = Object.keys(overrides).filter((name) => name !== 'additionalFields');
	return op.run({
		...fromItem(parameters, [...new Set([...names, ...emptyOnes(parameters)])]),
		replies,
	});
};

describe('Subscription > Create by card', () => {
	it('sends POST /subscriptions with the subscription, the card, its meta and the 3DS browser data', async () => {
		const { items, requests, error } = await op.run({
			parameters: cardSubscription(),
			replies: {
				[SUBSCRIPTIONS]: { data: { id: 'sub-1', status: 'pending', subject_id: SUBJECT_ID } },
			},
		});
		expectSubscriptionSent(
			{ error, requests },
			{
				value: '49.90',
				currency: 'BRL',
				frequency: 'month',
				cycles: 12,
				to_bank_account_id: TO_ACCOUNT_ID,
				subject_id: SUBJECT_ID,
				from_card: {
					card_type: 'credit',
					card_number: CARD_NUMBER,
					card_expiration_date: '08/2099',
					card_brand: 'visa',
					card_security_code: SECURITY_CODE,
					fullname: 'Maria Silva',
					meta: { df_reference_id: 'df-session-0001', mcc: '8999' },
					threeds: threedsBody,
				},
			},
		);
		expect(items).toEqual([
			{ json: { id: 'sub-1', status: 'pending', subject_id: SUBJECT_ID }, pairedItem: { item: 0 } },
		]);
	});

	it('sends the optional fields given under Additional Fields, and only those', async () => {
		const { requests } = await op.run({
			parameters: cardSubscription({
				additionalFields: {
					description: 'Premium plan',
					trialDays: 7,
					freeDays: 0,
					totalRetryAttempts: 3,
					meta: '{"order_id": "A-1"}',
					softDescriptor: 'MYSHOP',
				},
			}),
			replies: { [SUBSCRIPTIONS]: { data: { id: 'sub-1' } } },
		});
		const subscription = sentSubscription(requests[0]);
		expect(subscription).toMatchObject({
			description: 'Premium plan',
			trial_days: 7,
			free_days: 0,
			total_retry_attempts: 3,
			meta: { order_id: 'A-1' },
		});
		expect(subscription.meta).toEqual({ ...IDENTITY, order_id: 'A-1' });
		expect(sentCard(requests[0]).threeds.softDescriptor).toBe('MYSHOP');
	});

	it('leaves out the soft descriptor and the other optional fields when not given; meta holds only the identity', async () => {
		const { requests } = await op.run({
			parameters: cardSubscription({ additionalFields: { meta: '{}', description: '' } }),
			replies: { [SUBSCRIPTIONS]: { data: { id: 'sub-1' } } },
		});
		const subscription = sentSubscription(requests[0]);
		for (const key of ['description', 'trial_days', 'free_days', 'total_retry_attempts']) {
			expect(subscription).not.toHaveProperty(key);
		}
		expect(subscription.meta).toEqual(IDENTITY);
		expect(sentCard(requests[0]).threeds).not.toHaveProperty('softDescriptor');
	});

	it('cuts the soft descriptor to its first 13 characters', async () => {
		const { requests } = await op.run({
			parameters: cardSubscription({ additionalFields: { softDescriptor: 'MYSHOP PREMIUM PLAN' } }),
			replies: { [SUBSCRIPTIONS]: { data: { id: 'sub-1' } } },
		});
		expect(sentCard(requests[0]).threeds.softDescriptor).toBe('MYSHOP PREMIU');
	});

	it('normalises what the user typed: card number spaces, MM/YY expiry, brand case, boolean texts', async () => {
		const { requests } = await runCard(
			{
				cardNumber: '4111 1111 1111 1111',
				cardExpirationDate: '8/99',
				cardBrand: 'Mastercard',
				fullname: '  Maria   Silva ',
				httpBrowserJavaEnabled: 'TRUE',
				httpBrowserTimeDifference: '-60',
				value: '1500.00',
				cycles: '6',
			},
			{ [SUBSCRIPTIONS]: { data: { id: 'sub-1' } } },
		);
		const card = sentCard(requests[0]);
		expect(card).toMatchObject({
			card_number: CARD_NUMBER,
			card_expiration_date: '08/2099',
			card_brand: 'mastercard',
			fullname: 'Maria Silva',
		});
		expect(card.threeds).toMatchObject({
			httpBrowserJavaEnabled: 'true',
			httpBrowserTimeDifference: '-60',
		});
		expect(sentSubscription(requests[0])).toMatchObject({ value: '1500.00', cycles: 6 });
	});

	it.each(['day', 'week', 'month', 'quarter', 'semester', 'year'])(
		'accepts frequency %s for a card',
		async (frequency) => {
			const { requests } = await op.run({
				parameters: cardSubscription({ frequency }),
				replies: { [SUBSCRIPTIONS]: { data: { id: 's' } } },
			});
			expect(sentSubscription(requests[0]).frequency).toBe(frequency);
		},
	);

	it('accepts a card expiring in the current month', async () => {
		fixClock('2031-05-31T23:00:00Z');
		const { requests } = await op.run({
			parameters: cardSubscription({ cardExpirationDate: '05/2031' }),
			timezone: 'UTC',
			replies: { [SUBSCRIPTIONS]: { data: { id: 's' } } },
		});
		expect(sentCard(requests[0]).card_expiration_date).toBe('05/2031');
	});

	it('is sent once: a connection lost after sending is not repeated', async () => {
		const { error, requests, items } = await op.run({
			parameters: cardSubscription(),
			replies: { [SUBSCRIPTIONS]: [RESET, { data: { id: 'sub-1' } }] },
		});
		expect(requests).toHaveLength(1);
		expect(waits).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/^Outcome unknown \(item 0\)/);
		expect(error.description).toMatch(/not repeated/);
	});

	it('is sent once: a 503 is not repeated', async () => {
		const { requests, error } = await op.run({
			parameters: cardSubscription(),
			replies: { [SUBSCRIPTIONS]: [reply(503, 'Service Unavailable'), { data: { id: 'sub-1' } }] },
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toMatch(/^Outcome unknown \(item 0\)/);
	});
});

describe('Subscription > Create by card: invalid input is refused before sending', () => {
	it.each([
		[
			'a short card number',
			{ cardNumber: '411111111111' },
			/Card Number \(item 0\): has 12 digits; a card number has at least 13/,
		],
		[
			'letters in the card number',
			{ cardNumber: '4111-1111-1111-111X' },
			/Card Number \(item 0\): contains characters other than digits/,
		],
		['an empty card number', { cardNumber: '' }, /Card Number \(item 0\): is empty/],
		[
			'an expired card',
			{ cardExpirationDate: '01/2020' },
			/Card Expiration Date \(item 0\): is 01\/2020: the card has expired/,
		],
		[
			'an expiry not MM/YYYY',
			{ cardExpirationDate: '2029-08' },
			/Card Expiration Date \(item 0\): is not in the form MM\/YYYY/,
		],
		[
			'month 13',
			{ cardExpirationDate: '13/2099' },
			/Card Expiration Date \(item 0\): has month 13/,
		],
		[
			'a 4-digit security code',
			{ cardSecurityCode: '1234' },
			/Card Security Code \(item 0\): has 4 digits; the service accepts a security code of exactly 3 digits/,
		],
		[
			'a 2-digit security code',
			{ cardSecurityCode: '12' },
			/Card Security Code \(item 0\): has 2 digits/,
		],
		[
			'letters in the security code',
			{ cardSecurityCode: '12a' },
			/Card Security Code \(item 0\): must contain digits only/,
		],
		['a single name', { fullname: 'Maria' }, /Cardholder Full Name \(item 0\): is not a full name/],
		['an empty brand', { cardBrand: '' }, /Card Brand \(item 0\): is empty/],
		[
			'a brand that is not a name',
			{ cardBrand: '4111' },
			/Card Brand \(item 0\): is not a card brand/,
		],
		[
			'a card type other than credit or debit',
			{ cardType: 'prepaid' },
			/Card Type \(item 0\): must be one of credit, debit/,
		],
		[
			'an MCC outside the seven codes',
			{ mcc: '5411' },
			/Merchant Category Code \(item 0\): must be one of 4722, 5045, 5065, 5947, 7372, 8299, 8999/,
		],
		[
			'no device fingerprint reference',
			{ dfReferenceId: '  ' },
			/Device Fingerprint Reference ID \(item 0\): is required/,
		],
		[
			'an unknown challenge window size',
			{ challengeWindowSize: '800x600' },
			/Challenge Window Size \(item 0\): must be one of 250x400, 390x400, 500x600, 600x400, fullPage/,
		],
		[
			'a Java flag that is not a boolean',
			{ httpBrowserJavaEnabled: 'yes' },
			/Browser Java Enabled \(item 0\): must be true or false/,
		],
		[
			'a color depth that is not a number',
			{ httpBrowserColorDepth: '24bit' },
			/Browser Color Depth \(item 0\): is "24bit"/,
		],
		[
			'a negative screen height',
			{ httpBrowserScreenHeight: '-1080' },
			/Browser Screen Height \(item 0\)/,
		],
		[
			'an empty screen width',
			{ httpBrowserScreenWidth: '' },
			/Browser Screen Width \(item 0\): is empty/,
		],
		[
			'a time difference that is not a number',
			{ httpBrowserTimeDifference: 'GMT-3' },
			/Browser Time Difference \(item 0\)/,
		],
		[
			'a language that is not a tag',
			{ httpBrowserLanguage: 'Portuguese (Brazil)' },
			/Browser Language \(item 0\)/,
		],
		[
			'no Accept header',
			{ httpAcceptBrowserValue: '' },
			/Browser Accept Header \(item 0\): is required/,
		],
		['no user agent', { userAgentBrowserValue: '' }, /Browser User Agent \(item 0\): is required/],
		[
			'an IP address that is not one',
			{ ipAddress: '203.0.113' },
			/Customer IP Address \(item 0\): is "203.0.113"; enter an IPv4 or IPv6 address/,
		],
	])('%s', async (_name, overrides, message) => {
		const { error, requests, items } = await runCard(overrides);
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent to FacilitaPay for this item.');
		expect(error.context.itemIndex).toBe(0);
	});

	it('an empty card number typed in: n8n refuses the workflow before it starts', async () => {
		const { error, requests } = await op.run({
			parameters: cardSubscription({ cardNumber: '' }),
			replies: {},
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
		expect(error.message).toMatch(/Parameter "Card Number" is required/);
	});

	it.each([['2001:db8::1'], ['10.0.0.1'], ['::1']])(
		'accepts the IP address %s',
		async (ipAddress) => {
			const { requests } = await op.run({
				parameters: cardSubscription({ ipAddress }),
				replies: { [SUBSCRIPTIONS]: { data: {} } },
			});
			expect(sentCard(requests[0]).threeds.ipAddress).toBe(ipAddress);
		},
	);

	it('lists every broken field at once', async () => {
		const { error, requests } = await op.run({
			parameters: cardSubscription({
				cardSecurityCode: '1',
				fullname: 'Maria',
				...browserParameters,
				ipAddress: 'x',
			}),
			replies: {},
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid input \(item 0\): 3 fields need fixing/);
		expect(error.message).toContain('Card Security Code');
		expect(error.message).toContain('Cardholder Full Name');
		expect(error.message).toContain('Customer IP Address');
	});

	it('names the item that failed among several and sends no item', async () => {
		const { error, requests, items } = await op.run({
			parameters: [cardSubscription(), cardSubscription({ cardExpirationDate: '12/2019' })],
			replies: { [SUBSCRIPTIONS]: { data: { id: 'sub-1' } } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(
			/Card Expiration Date \(item 1\): is 12\/2019: the card has expired/,
		);
	});

	it('refuses a card whose month ended, by the clock of the run', async () => {
		fixClock('2031-06-01T00:00:00Z');
		const { error, requests } = await op.run({
			parameters: cardSubscription({ cardExpirationDate: '05/2031' }),
			timezone: 'UTC',
			replies: {},
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(
			/Card Expiration Date \(item 0\): is 05\/2031: the card has expired/,
		);
	});

	it('the month is the one of the workflow’s time zone: still May in São Paulo at 00:00 UTC on 1 June', async () => {
		fixClock('2031-06-01T00:00:00Z');
		const { error, requests } = await op.run({
			parameters: cardSubscription({ cardExpirationDate: '05/2031' }),
			timezone: 'America/Sao_Paulo',
			replies: { [SUBSCRIPTIONS]: { data: { id: 's' } } },
		});
		expect(error).toBeUndefined();
		expect(sentCard(requests[0]).card_expiration_date).toBe('05/2031');
	});
});
