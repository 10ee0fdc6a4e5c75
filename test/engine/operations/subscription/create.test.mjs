// Subscription > Create (rules of both methods, automatic PIX) on n8n's engine, against a
// FacilitaPay scripted by route.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import {
	CARD_NUMBER,
	cardSubscription,
	emptyOnes,
	FROM_ACCOUNT_ID,
	fromItem,
	pixSubscription,
	SECURITY_CODE,
	sentSubscription,
	SUBJECT_ID,
	TO_ACCOUNT_ID,
	expectSubscriptionSent,
} from './lib.mjs';

const SUBSCRIPTIONS = 'POST /subscriptions';

const op = useOperations();
const waits = skipRetryWaits();

/**
 * Runs the node; the fields `names`, and any field left empty, reach it through expressions
 * reading the input item (typed in, n8n refuses an empty required field before the workflow
 * starts, and a value outside an options list can only come from an expression).
 */
const runWith = (parameters, replies = {}, names = []) =>
	op.run({
		...fromItem(parameters, [...new Set([...names, ...emptyOnes(parameters)])]),
		replies,
	});

describe('Subscription > Create: rules shared by both methods', () => {
	it.each([
		[
			'a value with a comma',
			{ value: '49,90' },
			/Value \(item 0\): contains a comma; use a dot .* e\.g\. 49\.90/,
		],
		[
			'a value without decimals',
			{ value: '50' },
			/Value \(item 0\): has no decimals; an amount needs exactly 2 decimals: write 50\.00/,
		],
		['a zero value', { value: '0.00' }, /Value \(item 0\): is zero/],
		['zero cycles', { cycles: 0 }, /Cycles \(item 0\): is 0; enter a whole number of at least 1/],
		[
			'fractional cycles',
			{ cycles: 1.5 },
			/Cycles \(item 0\): is 1\.5; enter a whole number of at least 1/,
		],
		[
			'an unknown frequency',
			{ frequency: 'fortnight' },
			/Frequency \(item 0\): must be one of day, week, month, quarter, semester, year/,
		],
		[
			'4 retry attempts',
			{ additionalFields: { totalRetryAttempts: 4 } },
			/Total Retry Attempts \(item 0\): is 4; enter a whole number from 0 to 3/,
		],
		[
			'negative retry attempts',
			{ additionalFields: { totalRetryAttempts: -1 } },
			/Total Retry Attempts \(item 0\): is -1; enter a whole number from 0 to 3/,
		],
		[
			'negative trial days',
			{ additionalFields: { trialDays: -5 } },
			/Trial Days \(item 0\): is -5; enter a whole number of at least 0/,
		],
		[
			'fractional free days',
			{ additionalFields: { freeDays: 2.5 } },
			/Free Days \(item 0\): is 2\.5/,
		],
		[
			'meta that is not JSON',
			{ additionalFields: { meta: '{order: 1' } },
			/Meta \(JSON\) \(item 0\): is not valid JSON/,
		],
		[
			'meta that is a list',
			{ additionalFields: { meta: '[1, 2]' } },
			/Meta \(JSON\) \(item 0\): must be a JSON object/,
		],
		[
			'meta using the key the node keeps there',
			{ additionalFields: { meta: '{"n8n_facilitapay_ref": "x"}' } },
			/Meta \(JSON\) \(item 0\): uses n8n_facilitapay_ref, which the node keeps there itself/,
		],
		[
			'meta over 8 kB',
			{ additionalFields: { meta: JSON.stringify({ note: 'x'.repeat(9000) }) } },
			/Meta \(JSON\) \(item 0\): is 9011 bytes as JSON; keep it to at most 8192/,
		],
		[
			'a destination account that is not an id',
			{ toBankAccountId: 'acct-1' },
			/To Bank Account ID \(item 0\): is not an id/,
		],
		[
			'no subject',
			{ subjectId: { __rl: true, mode: 'id', value: '' } },
			/Subject ID \(item 0\): is empty/,
		],
	])('%s is refused for a card and for automatic PIX', async (_name, overrides, message) => {
		for (const parameters of [cardSubscription(overrides), pixSubscription(overrides)]) {
			const fromTheItem = Object.keys(overrides).filter((name) => name !== 'additionalFields');
			const { error, requests, items } = await runWith(parameters, {}, fromTheItem);
			expect(requests).toHaveLength(0);
			expect(items).toHaveLength(0);
			expect(error.message).toMatch(message);
			expect(error.description).toContain('Nothing was sent');
		}
	});

	it('no subject typed in: n8n refuses the workflow before it starts', async () => {
		const { error, requests } = await op.run({
			parameters: pixSubscription({ subjectId: { __rl: true, mode: 'id', value: '' } }),
			replies: {},
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
		expect(error.message).toMatch(/Parameter "Subject" is required/);
	});

	it.each([0, 1, 2, 3])('accepts %i retry attempts', async (totalRetryAttempts) => {
		const { requests } = await runWith(
			pixSubscription({ additionalFields: { totalRetryAttempts } }),
			{ [SUBSCRIPTIONS]: { data: {} } },
		);
		expect(sentSubscription(requests[0]).total_retry_attempts).toBe(totalRetryAttempts);
	});
});

describe('Subscription > Create by automatic PIX', () => {
	it('sends the partner BRL account and no card', async () => {
		const { items, requests, error } = await runWith(
			pixSubscription({
				frequency: 'week',
				cycles: 4,
				additionalFields: { freeDays: 10 },
			}),
			{ [SUBSCRIPTIONS]: { data: { id: 'sub-2', status: 'pending', from_pix: null } } },
		);
		expectSubscriptionSent(
			{ error, requests },
			{
				value: '49.90',
				currency: 'BRL',
				frequency: 'week',
				cycles: 4,
				free_days: 10,
				to_bank_account_id: TO_ACCOUNT_ID,
				subject_id: SUBJECT_ID,
				from_bank_account_id: FROM_ACCOUNT_ID,
			},
		);
		expect(items).toEqual([
			{ json: { id: 'sub-2', status: 'pending', from_pix: null }, pairedItem: { item: 0 } },
		]);
	});

	it('ignores card parameters left over from the card method', async () => {
		const { requests } = await runWith(
			pixSubscription({ cardNumber: CARD_NUMBER, cardSecurityCode: SECURITY_CODE }),
			{ [SUBSCRIPTIONS]: { data: {} } },
		);
		expect(JSON.stringify(requests[0].body)).not.toContain(CARD_NUMBER);
		expect(sentSubscription(requests[0])).not.toHaveProperty('from_card');
	});

	it.each(['week', 'month', 'quarter', 'semester', 'year'])(
		'accepts frequency %s',
		async (frequency) => {
			const { requests } = await runWith(pixSubscription({ frequency }), {
				[SUBSCRIPTIONS]: { data: {} },
			});
			expect(sentSubscription(requests[0]).frequency).toBe(frequency);
		},
	);

	it('refuses a daily frequency before sending', async () => {
		const { error, requests } = await runWith(pixSubscription({ frequency: 'day' }));
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(
			/Frequency \(item 0\): is day, which automatic PIX does not allow; choose week, month, quarter, semester or year/,
		);
	});

	it('refuses a partner account that is not an id', async () => {
		const { error, requests } = await runWith(
			pixSubscription({ fromBankAccountId: 'my-brl-account' }),
		);
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/From Bank Account ID \(item 0\): is not an id/);
	});

	it('shows the service’s rejection of the partner account in readable form, sent once', async () => {
		const { error, requests } = await runWith(pixSubscription(), {
			[SUBSCRIPTIONS]: [
				reply(422, { errors: { from_bank_account_id: ['is invalid'] } }),
				{ data: {} },
			],
		});
		expect(requests).toHaveLength(1);
		expect(waits).toHaveLength(0);
		expect(error.message).toMatch(
			/FacilitaPay rejected the data \(item 0\): from_bank_account_id: is invalid/,
		);
	});
});

describe('Subscription > Create: a value from an expression', () => {
	it.each([
		[49.9, '49.90'],
		[100, '100.00'],
	])(
		'a subscription value given as the number %p is sent as the money text %p, as transactions take it',
		async (value, text) => {
			const replies = { [SUBSCRIPTIONS]: { data: { id: 'sub-1', status: 'pending' } } };
			const pix = await op.run({
				parameters: pixSubscription({ value: '={{ $json.value }}' }),
				items: [{ json: { value } }],
				replies,
			});
			expect(sentSubscription(pix.requests[0]).value).toBe(text);
			const card = await op.run({
				parameters: cardSubscription({ value: '={{ $json.value }}' }),
				items: [{ json: { value } }],
				replies,
			});
			expect(sentSubscription(card.requests[0]).value).toBe(text);
		},
	);

	it('a subscription value given as a number with three decimals is refused, not rounded', async () => {
		const { error, requests } = await op.run({
			parameters: pixSubscription({ value: '={{ $json.value }}' }),
			items: [{ json: { value: 10.555 } }],
			replies: {},
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Value \(item 0\): has 3 decimals/);
	});
});
