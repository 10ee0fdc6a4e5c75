import type { IDataObject } from 'n8n-workflow';

import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { IDENTITY } from '../../helpers/identity';
import { httpError } from '../../helpers/serviceAnswers';
import { skipRetryWaits } from '../../helpers/retryWaits';
import {
	CARD_NUMBER,
	cardSubscription,
	FROM_ACCOUNT_ID,
	pixSubscription,
	SECURITY_CODE,
	sentSubscription,
	SUBJECT_ID,
	TO_ACCOUNT_ID,
} from './fixtures';

skipRetryWaits();

describe('Subscription > Create: rules shared by both methods', () => {
	it.each<[string, IDataObject, RegExp]>([
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
		['no subject', { subjectId: '' }, /Subject ID \(item 0\): is empty/],
	])('%s is refused for a card and for automatic PIX', async (_name, overrides, message) => {
		for (const parameters of [cardSubscription(overrides), pixSubscription(overrides)]) {
			const { error, requests } = await runNodeExpectingError({ parameters, replies: [] });
			expect(requests).toHaveLength(0);
			expect(error.message).toMatch(message);
			expect(error.description).toContain('Nothing was sent');
		}
	});

	it.each([0, 1, 2, 3])('accepts %i retry attempts', async (totalRetryAttempts) => {
		const { requests } = await runNode({
			parameters: pixSubscription({ additionalFields: { totalRetryAttempts } }),
			replies: [{ data: {} }],
		});
		expect(sentSubscription(requests[0]).total_retry_attempts).toBe(totalRetryAttempts);
	});
});

describe('Subscription > Create by automatic PIX', () => {
	it('sends the partner BRL account and no card', async () => {
		const { output, requests } = await runNode({
			parameters: pixSubscription({
				frequency: 'week',
				cycles: 4,
				additionalFields: { freeDays: 10 },
			}),
			replies: [{ data: { id: 'sub-2', status: 'pending', from_pix: null } }],
		});
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/subscriptions');
		expect(requests[0].body).toEqual({
			subscription: {
				meta: IDENTITY,
				value: '49.90',
				currency: 'BRL',
				frequency: 'week',
				cycles: 4,
				free_days: 10,
				to_bank_account_id: TO_ACCOUNT_ID,
				subject_id: SUBJECT_ID,
				from_bank_account_id: FROM_ACCOUNT_ID,
			},
		});
		expect(output[0].json).toEqual({ id: 'sub-2', status: 'pending', from_pix: null });
	});

	it('ignores card parameters left over from the card method', async () => {
		const { requests } = await runNode({
			parameters: pixSubscription({ cardNumber: CARD_NUMBER, cardSecurityCode: SECURITY_CODE }),
			replies: [{ data: {} }],
		});
		expect(JSON.stringify(requests[0].body)).not.toContain(CARD_NUMBER);
		expect(sentSubscription(requests[0])).not.toHaveProperty('from_card');
	});

	it.each(['week', 'month', 'quarter', 'semester', 'year'])(
		'accepts frequency %s',
		async (frequency) => {
			const { requests } = await runNode({
				parameters: pixSubscription({ frequency }),
				replies: [{ data: {} }],
			});
			expect(sentSubscription(requests[0]).frequency).toBe(frequency);
		},
	);

	it('refuses a daily frequency before sending', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: pixSubscription({ frequency: 'day' }),
			replies: [],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(
			/Frequency \(item 0\): is day, which automatic PIX does not allow; choose week, month, quarter, semester or year/,
		);
	});

	it('refuses a partner account that is not an id', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: pixSubscription({ fromBankAccountId: 'my-brl-account' }),
			replies: [],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/From Bank Account ID \(item 0\): is not an id/);
	});

	it('shows the service’s rejection of the partner account in readable form, sent once', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: pixSubscription(),
			replies: [httpError(422, { errors: { from_bank_account_id: ['is invalid'] } })],
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toMatch(
			/FacilitaPay rejected the data \(item 0\): from_bank_account_id: is invalid/,
		);
	});
});

describe('Subscription > Create: a value from an expression', () => {
	it.each<[number, string]>([
		[49.9, '49.90'],
		[100, '100.00'],
	])(
		'a subscription value given as the number %p is sent as the money text %p, as transactions take it',
		async (value, text) => {
			const pix = await runNode({
				parameters: pixSubscription({ value }),
				replies: [{ data: { id: 'sub-1', status: 'pending' } }],
			});
			expect(sentSubscription(pix.requests[0]).value).toBe(text);
			const card = await runNode({
				parameters: cardSubscription({ value }),
				replies: [{ data: { id: 'sub-2', status: 'pending' } }],
			});
			expect(sentSubscription(card.requests[0]).value).toBe(text);
		},
	);

	it('a subscription value given as a number with three decimals is refused, not rounded', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: pixSubscription({ value: 10.555 }),
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Value \(item 0\): has 3 decimals/);
	});
});
