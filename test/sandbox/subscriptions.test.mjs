import { startSandbox, createPerson, ACCOUNT_IDS } from './helpers.mjs';
import { parseBrCode } from '../../sandbox/brcode.mjs';
import { threedsBody } from '../fixtures/cards.js';

let t;
let subject;
beforeAll(async () => (t = await startSandbox()));
afterAll(() => t.close());
beforeEach(async () => {
	await t.control('POST', '/reset');
	subject = await createPerson(t);
});

const threeds = () => ({ softDescriptor: 'MYSHOP', ...threedsBody });
const card = (o = {}) => ({
	card_type: 'credit',
	card_number: '4111111111111111',
	card_expiration_date: '12/2030',
	card_brand: 'visa',
	card_security_code: '123',
	fullname: 'Maria da Silva',
	meta: { df_reference_id: 'df-123', mcc: '8999' },
	threeds: threeds(),
	...o,
});
const cardSub = (o = {}, sid = subject.id) => ({
	subscription: {
		value: '49.90',
		currency: 'BRL',
		frequency: 'month',
		cycles: 3,
		to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
		subject_id: sid,
		from_card: card(),
		...o,
	},
});
const pixSub = (o = {}) => ({
	subscription: {
		value: '29.90',
		currency: 'BRL',
		frequency: 'month',
		cycles: 2,
		to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
		subject_id: subject.id,
		from_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
		...o,
	},
});
const create = (body) => t.api('POST', '/subscriptions', body);
const get = async (id) => (await t.api('GET', `/subscriptions/${id}`)).json.data;
const types = async () => (await t.events()).map((e) => e.type);
/** Seconds from the sandbox's current time to an ISO instant. */
const until = async (iso) =>
	(Date.parse(iso) - Date.parse((await t.control('GET', '/clock')).json.data.now)) / 1000;
const advanceTo = async (iso) => t.advance(await until(iso));

describe('validation', () => {
	test.each([
		[{ currency: 'USD' }, 'currency', 'only BRL is accepted'],
		[
			{ frequency: 'hour' },
			'frequency',
			'must be one of: day, week, month, quarter, semester, year',
		],
		[{ total_retry_attempts: 4 }, 'total_retry_attempts', 'must be between 0 and 3'],
		[{ cycles: 0 }, 'cycles', 'must be at least 1'],
		[{ value: '49.9' }, 'value', 'must be a string with exactly two decimals, e.g. "10.50"'],
		[
			{ to_bank_account_id: ACCOUNT_IDS.brlCustomer },
			'to_bank_account_id',
			"must be one of the partner's internal or international accounts",
		],
		[
			{ from_card: card({ card_number: '411111111111' }) },
			'from_card.card_number',
			'must have at least 13 digits',
		],
		[
			{ from_card: card({ card_number: '4111 1111 1111 1111' }) },
			'from_card.card_number',
			'must contain only digits, without spaces',
		],
		[
			{ from_card: card({ card_expiration_date: '02/2025' }) },
			'from_card.card_expiration_date',
			'is in the past (the card has expired)',
		],
		[
			{ from_card: card({ card_expiration_date: '2030-12' }) },
			'from_card.card_expiration_date',
			'must be in the form MM/YYYY',
		],
		[
			{ from_card: card({ card_security_code: '1234' }) },
			'from_card.card_security_code',
			'must be 3 digits',
		],
		[
			{ from_card: card({ fullname: 'Maria' }) },
			'from_card.fullname',
			"must be the cardholder's full name (first and last name)",
		],
		[
			{ from_card: card({ meta: { df_reference_id: 'x', mcc: '1234' } }) },
			'from_card.meta.mcc',
			'must be one of: 8999, 5045, 4722, 8299, 5947, 5065, 7372',
		],
		[
			{ from_card: card({ meta: { mcc: '8999' } }) },
			'from_card.meta.df_reference_id',
			"can't be blank",
		],
		[
			{ from_card: card({ threeds: { ...threeds(), ipAddress: undefined } }) },
			'from_card.threeds.ipAddress',
			"can't be blank",
		],
		[
			{ from_card: card({ threeds: { ...threeds(), challengeWindowSize: '100x100' } }) },
			'from_card.threeds.challengeWindowSize',
			'must be one of: fullPage, 250x400, 390x400, 500x600, 600x400',
		],
		[
			{ from_card: card({ threeds: { ...threeds(), httpBrowserJavaEnabled: 'yes' } }) },
			'from_card.threeds.httpBrowserJavaEnabled',
			'must be "true" or "false"',
		],
		[{ from_card: card({ threeds: undefined }) }, 'from_card.threeds', "can't be blank"],
		[
			{ from_card: undefined },
			'from_card',
			"can't be blank: give from_card (card) or from_bank_account_id (automatic PIX)",
		],
	])('a card subscription with %j is refused', async (o, field, message) => {
		const r = await create(cardSub(o));
		expect(r.status).toBe(422);
		expect(r.json.errors[field]).toEqual([message]);
	});

	test('softDescriptor is optional; card_type may be omitted; booleans arrive as strings', async () => {
		const th = threeds();
		delete th.softDescriptor;
		expect(
			(await create(cardSub({ from_card: card({ threeds: th, card_type: undefined }) }))).status,
		).toBe(200);
	});

	test.each([
		[{ frequency: 'day' }, 'frequency', 'day is not allowed for automatic PIX'],
		[
			{ from_bank_account_id: ACCOUNT_IDS.brlNoPixKey },
			'from_bank_account_id',
			"must be the partner's exclusive BRL bank account with a PIX key",
		],
		[
			{ from_bank_account_id: ACCOUNT_IDS.usdCashOut },
			'from_bank_account_id',
			"must be the partner's exclusive BRL bank account with a PIX key",
		],
	])('an automatic PIX subscription with %j is refused', async (o, field, message) => {
		const r = await create(pixSub(o));
		expect(r.status).toBe(422);
		expect(r.json.errors[field]).toEqual([message]);
	});

	test('a card subscription needs the subject address, email and phone', async () => {
		const bare = await createPerson(t, { document_number: '70590071050', email: undefined });
		const r = await create(cardSub({}, bare.id));
		expect(r.json.errors.subject_id[0]).toMatch(
			/^the subject must have email registered for card payments/,
		);
	});
});

describe('card subscriptions', () => {
	test('pending → first invoice paid at once (due today, 06:00 passed) → active → one invoice a month → completed', async () => {
		const r = await create(cardSub());
		expect(r.status).toBe(200);
		const s = r.json.data;
		expect(s).toMatchObject({
			status: 'pending',
			payment_method: 'card',
			from_card: { last4: '1111', card_brand: 'visa' },
		});
		expect(JSON.stringify(s)).not.toContain('4111111111111111');
		expect(s.invoices).toEqual([
			expect.objectContaining({ cycle: 1, due_date: '2025-03-10', status: 'pending' }),
		]);
		await t.advance(0);
		expect((await get(s.id)).status).toBe('active');
		expect(await types()).toEqual(['invoice_paid', 'subscription_activated']);
		const inv2 = (await get(s.id)).invoices[1];
		expect(inv2).toMatchObject({
			due_date: '2025-04-10',
			next_attempt_at: '2025-04-10T06:00:00Z',
			status: 'pending',
		});
		await advanceTo('2025-04-10T05:59:59Z');
		expect((await get(s.id)).invoices[1].status).toBe('pending');
		await t.advance(1);
		expect((await get(s.id)).invoices[1]).toMatchObject({
			status: 'paid',
			paid_at: '2025-04-10T06:00:00Z',
		});
		await advanceTo('2025-05-10T06:00:00Z');
		const done = await get(s.id);
		expect(done.status).toBe('completed');
		expect(done.invoices.map((i) => i.status)).toEqual(['paid', 'paid', 'paid']);
		expect(await types()).toEqual([
			'invoice_paid',
			'subscription_activated',
			'invoice_paid',
			'invoice_paid',
			'subscription_completed',
		]);
		const ev = (await t.events()).at(-1);
		expect(ev.subscription).toEqual({ id: s.id, status: 'completed', subject_id: subject.id });
		const paid = (await t.events())[0];
		expect(paid.invoice).toEqual({
			id: s.invoices[0].id,
			status: 'paid',
			subject_id: subject.id,
			subscription_id: s.id,
		});
	});

	test('a failed charge is retried once a day up to total_retry_attempts, then the subscription is canceled', async () => {
		const s = (await create(cardSub({ total_retry_attempts: 2 }))).json.data;
		await t.advance(0);
		await t.control('POST', `/subscriptions/${s.id}/decline`, { count: 3 });
		await advanceTo('2025-04-10T06:00:00Z');
		let inv = (await get(s.id)).invoices[1];
		expect(inv).toMatchObject({ status: 'pending', next_attempt_at: '2025-04-11T06:00:00Z' });
		await advanceTo('2025-04-12T06:00:00Z');
		const after = await get(s.id);
		inv = after.invoices[1];
		expect(inv.status).toBe('failed');
		expect(inv.charges.map((c) => [c.status, c.attempted_at, c.failure_reason])).toEqual([
			['failed', '2025-04-10T06:00:00Z', 'card_declined'],
			['failed', '2025-04-11T06:00:00Z', 'card_declined'],
			['failed', '2025-04-12T06:00:00Z', 'card_declined'],
		]);
		expect(after).toMatchObject({
			status: 'canceled',
			canceled_by_payer: false,
			canceled_reason: 'retry_attempts_exhausted',
		});
		expect(after.invoices).toHaveLength(2);
		expect((await t.events()).at(-1)).toEqual(
			expect.objectContaining({
				type: 'subscription_canceled',
				subscription: {
					id: s.id,
					status: 'canceled',
					subject_id: subject.id,
					canceled_by_payer: false,
					canceled_reason: 'retry_attempts_exhausted',
				},
			}),
		);
	});

	test('a retry that succeeds pays the invoice and the schedule keeps the original dates', async () => {
		const s = (await create(cardSub({ total_retry_attempts: 1 }))).json.data;
		await t.advance(0);
		await t.control('POST', `/subscriptions/${s.id}/decline`, { count: 1 });
		await advanceTo('2025-04-11T06:00:00Z');
		const after = await get(s.id);
		expect(after.invoices[1]).toMatchObject({ status: 'paid', paid_at: '2025-04-11T06:00:00Z' });
		expect(after.invoices[2].due_date).toBe('2025-05-10');
	});

	test('frequency day: the retry comes 4 hours later', async () => {
		const s = (await create(cardSub({ frequency: 'day', total_retry_attempts: 1 }))).json.data;
		await t.advance(0);
		await t.control('POST', `/subscriptions/${s.id}/decline`, { count: 1 });
		await advanceTo('2025-03-11T06:00:00Z');
		expect((await get(s.id)).invoices[1].next_attempt_at).toBe('2025-03-11T10:00:00Z');
	});

	test('a declined first invoice leaves the subscription pending; a 3DS challenge with another card pays it', async () => {
		const s = (await create(cardSub({ from_card: card({ card_number: '4000000000000002' }) }))).json
			.data;
		await t.advance(0);
		let now = await get(s.id);
		expect(now.status).toBe('pending');
		expect(now.invoices[0]).toMatchObject({
			status: 'failed',
			charges: [expect.objectContaining({ status: 'failed', failure_reason: 'card_declined' })],
		});
		const bad = await t.api('POST', `/subscriptions/${s.id}/threeds_challenge`, {
			credit_card: { card_number: '1' },
		});
		expect(bad.status).toBe(422);
		expect(Object.keys(bad.json.errors).sort()).toEqual([
			'credit_card.card_brand',
			'credit_card.card_expiration_date',
			'credit_card.card_number',
			'credit_card.card_security_code',
			'credit_card.fullname',
		]);
		const ok = await t.api('POST', `/subscriptions/${s.id}/threeds_challenge`, {
			credit_card: {
				card_number: '5555555555554444',
				card_expiration_date: '01/2031',
				card_brand: 'mastercard',
				card_security_code: '321',
				fullname: 'Maria da Silva',
			},
		});
		expect(ok.json.data).toMatchObject({
			status: 'active',
			from_card: { last4: '4444', card_brand: 'mastercard' },
		});
		expect(ok.json.data.invoices[0].status).toBe('paid');
	});

	test('month-end rule: from Jan 31, invoices fall on Feb 28 and then Mar 31', async () => {
		const other = await startSandbox({ now: '2025-01-31T05:00:00Z' });
		try {
			const p = await createPerson(other);
			const s = (await other.api('POST', '/subscriptions', cardSub({}, p.id))).json.data;
			await other.advance(62 * 86400);
			const invoices = (await other.api('GET', `/subscriptions/invoices/${s.id}`)).json.data;
			expect(invoices.map((i) => [i.due_date, i.status, i.paid_at])).toEqual([
				['2025-01-31', 'paid', '2025-01-31T06:00:00Z'],
				['2025-02-28', 'paid', '2025-02-28T06:00:00Z'],
				['2025-03-31', 'paid', '2025-03-31T06:00:00Z'],
			]);
		} finally {
			await other.close();
		}
	});

	test('trial days delay the first invoice only; free days shift the whole schedule', async () => {
		const trial = (await create(cardSub({ trial_days: 7 }))).json.data;
		await advanceTo('2025-03-17T06:00:00Z');
		expect((await get(trial.id)).invoices.map((i) => i.due_date)).toEqual([
			'2025-03-17',
			'2025-04-10',
		]);
		await t.control('POST', '/reset');
		const p = await createPerson(t);
		const free = (await create(cardSub({ free_days: 7 }, p.id))).json.data;
		await advanceTo('2025-03-17T06:00:00Z');
		expect((await get(free.id)).invoices.map((i) => i.due_date)).toEqual([
			'2025-03-17',
			'2025-04-17',
		]);
	});

	test('the partner cancels an active subscription (reason required); no invoice or charge follows', async () => {
		const s = (await create(cardSub())).json.data;
		const early = await t.api('PUT', `/subscriptions/${s.id}/cancel`, { reason: 'customer asked' });
		expect(early.status).toBe(422);
		expect(early.json.errors.status).toEqual([
			'only an active subscription can be canceled (this one is pending)',
		]);
		await t.advance(0);
		expect((await t.api('PUT', `/subscriptions/${s.id}/cancel`, {})).json.errors.reason).toEqual([
			"can't be blank",
		]);
		const r = await t.api('PUT', `/subscriptions/${s.id}/cancel`, { reason: 'customer asked' });
		expect(r.json.data).toMatchObject({
			status: 'canceled',
			canceled_by_payer: false,
			canceled_reason: 'customer asked',
		});
		expect(r.json.data.invoices.map((i) => i.status)).toEqual(['paid', 'canceled']);
		await t.advance(90 * 86400);
		expect(await types()).toEqual([
			'invoice_paid',
			'subscription_activated',
			'subscription_canceled',
		]);
		expect((await t.api('PUT', `/subscriptions/${s.id}/cancel`, { reason: 'again' })).status).toBe(
			422,
		);
	});

	test('the payer cancels: canceled_by_payer true', async () => {
		const s = (await create(cardSub())).json.data;
		await t.advance(0);
		const r = await t.control('POST', `/subscriptions/${s.id}/payer_cancel`, {
			reason: 'no longer needed',
		});
		expect(r.json.data).toMatchObject({ status: 'canceled', canceled_by_payer: true });
		expect((await t.events()).at(-1).subscription).toMatchObject({
			canceled_by_payer: true,
			canceled_reason: 'no longer needed',
		});
	});
});

describe('automatic PIX subscriptions', () => {
	test('pending → QR code ready → payer authorises → active → debits on schedule', async () => {
		const s = (await create(pixSub())).json.data;
		expect(s).toMatchObject({
			status: 'pending',
			payment_method: 'automatic_pix',
			from_pix: null,
			invoices: [],
		});
		const early = await t.control('POST', `/subscriptions/${s.id}/authorize`);
		expect(early.status).toBe(422);
		await t.advance(0);
		const ready = await get(s.id);
		expect(ready.from_pix.status).toBe('waiting_authorization');
		const { fields, crcOk } = parseBrCode(ready.from_pix.qr_code);
		expect(crcOk).toBe(true);
		expect(fields['80']).toMatch(/^0014br\.gov\.bcb\.pix25/);
		expect(await types()).toEqual(['subscription_qr_code_ready']);
		const auth = await t.control('POST', `/subscriptions/${s.id}/authorize`);
		expect(auth.json.data).toMatchObject({ status: 'active', from_pix: { status: 'authorized' } });
		await t.advance(0);
		await advanceTo('2025-04-10T06:00:00Z');
		const done = await get(s.id);
		expect(done.status).toBe('completed');
		expect(await types()).toEqual([
			'subscription_qr_code_ready',
			'subscription_activated',
			'invoice_paid',
			'invoice_paid',
			'subscription_completed',
		]);
	});

	test('insufficient funds: retried every second day, then canceled automatically', async () => {
		const s = (await create(pixSub({ cycles: 3, total_retry_attempts: 1 }))).json.data;
		await t.advance(0);
		await t.control('POST', `/subscriptions/${s.id}/authorize`);
		await t.advance(0);
		await t.control('POST', `/subscriptions/${s.id}/decline`, { count: 2 });
		await advanceTo('2025-04-10T06:00:00Z');
		expect((await get(s.id)).invoices[1]).toMatchObject({
			next_attempt_at: '2025-04-12T06:00:00Z',
		});
		await advanceTo('2025-04-12T06:00:00Z');
		const after = await get(s.id);
		expect(after).toMatchObject({ status: 'canceled', canceled_by_payer: false });
		expect(after.invoices[1].charges.map((c) => c.failure_reason)).toEqual([
			'insufficient_funds',
			'insufficient_funds',
		]);
	});
});

describe('reading subscriptions and invoices', () => {
	test('GET /subscriptions/invoices/:id answers an array for a subscription id and the object for an invoice id', async () => {
		const s = (await create(cardSub())).json.data;
		await t.advance(0);
		const list = (await t.api('GET', `/subscriptions/invoices/${s.id}`)).json.data;
		expect(Array.isArray(list)).toBe(true);
		expect(list).toHaveLength(2);
		const one = (await t.api('GET', `/subscriptions/invoices/${list[0].id}`)).json.data;
		expect(one).toMatchObject({
			id: list[0].id,
			subscription_id: s.id,
			status: 'paid',
			charges: [expect.objectContaining({ status: 'succeeded' })],
		});
		expect(
			(await t.api('GET', '/subscriptions/invoices/00000000-0000-4000-8000-000000000000')).json,
		).toEqual({ error: 'not_found' });
	});

	test('lists of subscriptions and all invoices page by last_id', async () => {
		const a = (await create(cardSub())).json.data;
		const b = (await create(cardSub({ cycles: 1 }))).json.data;
		expect((await t.api('GET', '/subscriptions')).json.data.map((s) => s.id)).toEqual([a.id, b.id]);
		expect(
			(await t.api('GET', `/subscriptions?last_id=${a.id}`)).json.data.map((s) => s.id),
		).toEqual([b.id]);
		const all = (await t.api('GET', '/subscriptions/invoices')).json.data;
		expect(all.map((i) => i.subscription_id)).toEqual([a.id, b.id]);
		expect(
			(await t.api('GET', `/subscriptions/invoices?last_id=${all[0].id}`)).json.data,
		).toHaveLength(1);
		expect((await t.api('GET', '/subscriptions/00000000-0000-4000-8000-000000000000')).status).toBe(
			404,
		);
	});
});
