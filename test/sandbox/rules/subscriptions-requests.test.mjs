// What a subscription accepts from outside (create request, card data, authorise, 3DS challenge,
// cancel) and what it shows, called on their own (no HTTP, no clock).
import {
	validateSubscriptionRequest,
	newSubscription,
} from '../../../sandbox/domain/subscriptions/request.mjs';
import {
	validateCard,
	maskCard,
	chargeOutcome,
	DECLINED_CARD,
} from '../../../sandbox/domain/subscriptions/card.mjs';
import {
	authorizationRefusal,
	cancelRefusal,
	threedsChallengeRefusal,
} from '../../../sandbox/domain/subscriptions/transitions.mjs';
import {
	subscriptionEvent,
	subscriptionView,
} from '../../../sandbox/domain/subscriptions/views.mjs';
import { Errors } from '../../../sandbox/validation.mjs';

const NOW = Date.parse('2026-05-20T10:00:00Z');

/** The `{errors: {...}}` of the 422 a call throws. */
function errorsOf(call) {
	try {
		call();
	} catch (error) {
		expect(error.status).toBe(422);
		return error.body.errors;
	}
	throw new Error('expected the call to throw');
}

describe('transitions asked from outside', () => {
	test.each([
		['active', 'reason given', 'the partner', 'the reason', false, null],
		['active', 'no reason', 'the payer', undefined, true, null],
		['active', 'no reason', 'the partner', '', false, 'reason'],
		['pending', 'reason given', 'the partner', 'the reason', false, 'status'],
		['canceled', 'reason given', 'the partner', 'the reason', false, 'status'],
		['completed', 'no reason', 'the payer', undefined, true, 'status'],
	])(
		'cancel a %s subscription, %s, by %s → refused on: %s',
		(status, _r, _by, reason, byPayer, field) => {
			expect(cancelRefusal({ status }, reason, byPayer)?.field ?? null).toBe(field);
		},
	);

	test('a refused cancellation says the status it is in', () => {
		expect(cancelRefusal({ status: 'completed' }, 'x', false)).toEqual({
			field: 'status',
			message: 'only an active subscription can be canceled (this one is completed)',
		});
	});

	const qr = { qr_code: '000201…' };
	test.each([
		['automatic_pix', 'pending', qr, null],
		['automatic_pix', 'pending', null, 'from_pix'],
		['automatic_pix', 'active', qr, 'status'],
		['automatic_pix', 'canceled', qr, 'status'],
		['card', 'pending', null, 'payment_method'],
	])(
		'authorise a %s subscription, %s, QR code %p → refused on: %s',
		(method, status, fromPix, field) => {
			const refusal = authorizationRefusal({ payment_method: method, status, from_pix: fromPix });
			expect(refusal?.field ?? null).toBe(field);
		},
	);

	test.each([
		['card', 'pending', null],
		['card', 'active', 'status'],
		['card', 'canceled', 'status'],
		['automatic_pix', 'pending', 'payment_method'],
	])('3DS challenge on a %s subscription, %s → refused on: %s', (method, status, field) => {
		expect(threedsChallengeRefusal({ payment_method: method, status })?.field ?? null).toBe(field);
	});
});

describe('card data', () => {
	const good = {
		card_number: '4111111111111111',
		card_expiration_date: '12/2030',
		card_brand: 'visa',
		card_security_code: '123',
		fullname: 'Maria da Silva',
	};
	const messages = (card) => {
		const errors = new Errors();
		validateCard(errors, card, 'from_card.', NOW);
		return errors.map;
	};

	test('a complete card has no errors', () => {
		expect(messages(good)).toEqual({});
	});

	test.each([
		['card_expiration_date', '04/2026', 'is in the past (the card has expired)'],
		['card_expiration_date', '05/2026', null],
		['card_expiration_date', '5/2026', 'must be in the form MM/YYYY'],
		['card_number', '411111111111', 'must have at least 13 digits'],
		['card_number', '41111111111111111111', 'must have at most 19 digits'],
		['card_number', '4111 1111 1111 1111', 'must contain only digits, without spaces'],
		['card_security_code', '1234', 'must be 3 digits'],
		['fullname', 'Maria', "must be the cardholder's full name (first and last name)"],
		['card_type', 'prepaid', 'must be credit or debit'],
		['card_brand', '', "can't be blank"],
	])('%s %p → %p', (field, value, message) => {
		const map = messages({ ...good, [field]: value });
		expect(map[`from_card.${field}`] ?? null).toEqual(message === null ? null : [message]);
	});

	test('the stored card keeps only the last 4 digits and is credit by default', () => {
		expect(maskCard({ ...good, card_security_code: '123' })).toEqual({
			card_type: 'credit',
			card_brand: 'visa',
			last4: '1111',
			card_expiration_date: '12/2030',
			fullname: 'Maria da Silva',
		});
	});

	test.each([
		[
			'a good card',
			{ payment_method: 'card', _declineNext: 0, _cardNumber: good.card_number },
			{ ok: true },
		],
		[
			'the declining card',
			{ payment_method: 'card', _declineNext: 0, _cardNumber: DECLINED_CARD },
			{ ok: false, reason: 'card_declined' },
		],
		[
			'a forced card decline',
			{ payment_method: 'card', _declineNext: 1, _cardNumber: good.card_number },
			{ ok: false, reason: 'card_declined', forced: true },
		],
		[
			'a forced automatic PIX decline',
			{ payment_method: 'automatic_pix', _declineNext: 2, _cardNumber: null },
			{ ok: false, reason: 'insufficient_funds', forced: true },
		],
	])('a charge with %s', (_case, sub, expected) => {
		expect(chargeOutcome(sub)).toEqual(expected);
	});
});

describe('POST /subscriptions request (automatic PIX)', () => {
	const subject = { id: 'subject-1' };
	const pixAccount = { id: 'acc-pix', currency: 'BRL', pix_info: { key: 'key@example.com' } };
	const state = {
		subjects: new Map([[subject.id, subject]]),
		bankAccounts: new Map([
			[pixAccount.id, pixAccount],
			['acc-usd', { id: 'acc-usd', currency: 'USD' }],
			['acc-customer', { id: 'acc-customer', currency: 'BRL', pix_info: { key: 'k' } }],
		]),
		accountPurposes: { 'acc-pix': { partner: true }, 'acc-usd': { partner: true } },
	};
	const body = (fields = {}) => ({
		subscription: {
			value: '49.90',
			currency: 'BRL',
			frequency: 'month',
			cycles: 12,
			subject_id: subject.id,
			to_bank_account_id: 'acc-usd',
			from_bank_account_id: 'acc-pix',
			...fields,
		},
	});

	test('a valid request names its subject and payment method', () => {
		const request = validateSubscriptionRequest(body(), state, NOW);
		expect(request).toMatchObject({ subject, hasCard: false, hasPix: true });
	});

	test.each([
		[{ frequency: 'day' }, 'frequency', 'day is not allowed for automatic PIX'],
		[
			{ frequency: 'fortnight' },
			'frequency',
			'must be one of: day, week, month, quarter, semester, year',
		],
		[{ currency: 'USD' }, 'currency', 'only BRL is accepted'],
		[{ cycles: 0 }, 'cycles', 'must be at least 1'],
		[{ total_retry_attempts: 4 }, 'total_retry_attempts', 'must be between 0 and 3'],
		[{ trial_days: 1.5 }, 'trial_days', 'must be an integer'],
		[{ subject_id: 'nobody' }, 'subject_id', 'was not found'],
		[
			{ to_bank_account_id: 'acc-customer' },
			'to_bank_account_id',
			"must be one of the partner's internal or international accounts",
		],
		[
			{ from_bank_account_id: 'acc-usd' },
			'from_bank_account_id',
			"must be the partner's exclusive BRL bank account with a PIX key",
		],
		[
			{ from_bank_account_id: undefined },
			'from_card',
			"can't be blank: give from_card (card) or from_bank_account_id (automatic PIX)",
		],
	])('%p → %s: %s', (fields, field, message) => {
		expect(errorsOf(() => validateSubscriptionRequest(body(fields), state, NOW))[field]).toEqual([
			message,
		]);
	});

	test('the new subscription is pending, starts today and takes the defaults of the optional fields', () => {
		const request = validateSubscriptionRequest(body(), state, NOW);
		const sub = newSubscription(request, { id: 'sub-1', now: '2026-05-20T10:00:00Z' });
		expect(sub).toMatchObject({
			id: 'sub-1',
			status: 'pending',
			payment_method: 'automatic_pix',
			subject_id: 'subject-1',
			cycles: 12,
			trial_days: 0,
			free_days: 0,
			total_retry_attempts: 0,
			from_card: null,
			from_pix: null,
			start_date: '2026-05-20',
			next_due_date: null,
		});
	});

	test('the view hides the internals and lists the invoices; events carry id, status and subject', () => {
		const sub = newSubscription(validateSubscriptionRequest(body(), state, NOW), {
			id: 'sub-1',
			now: '2026-05-20T10:00:00Z',
		});
		const view = subscriptionView(sub, [{ id: 'inv-1', _task: {} }]);
		expect(Object.keys(view).filter((key) => key.startsWith('_'))).toEqual([]);
		expect(view.invoices).toEqual([{ id: 'inv-1' }]);
		expect(subscriptionEvent(sub, { canceled_by_payer: true })).toEqual({
			subscription: {
				id: 'sub-1',
				status: 'pending',
				subject_id: 'subject-1',
				canceled_by_payer: true,
			},
		});
	});
});
