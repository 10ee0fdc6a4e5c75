// Card checkout pages: their attempts and events, identification played on demand, and CLP without
// decimals.
import { useSandbox, ACCOUNT_IDS } from './helpers.mjs';

const t = useSandbox({ withPerson: true });

/** A card checkout page for BRL 99.90, paid into the BRL PIX account. */
const checkout = (o = {}) =>
	t.api('POST', '/transactions/checkout', {
		subject_id: t.subject.id,
		value: '99.90',
		currency: 'BRL',
		exchange_currency: 'BRL',
		to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
		...o,
	});

describe('checkout', () => {
	test('answers an active checkout with its id and url; the url serves an HTML page', async () => {
		const r = await checkout();
		expect(r.status).toBe(200);
		const c = r.json.data;
		expect(c).toMatchObject({ status: 'active', value: '99.90' });
		expect(c.checkout_id).toBe(c.id);
		expect(c.checkout_url).toBe(`${t.sb.url}/_sandbox/checkout/${c.id}`);
		const page = await fetch(c.checkout_url);
		expect(page.headers.get('content-type')).toMatch(/^text\/html/);
		expect(await page.text()).toContain('BRL 99.90');
	});

	test('refuses a non-card currency and a destination in another currency', async () => {
		expect((await checkout({ currency: 'USD' })).json.errors.currency).toEqual([
			'must be one of: BRL, MXN, COP, CLP',
		]);
		expect((await checkout({ exchange_currency: 'USD' })).json.errors.to_bank_account_id).toEqual([
			'currency (BRL) must equal exchange_currency (USD)',
		]);
	});

	test('each failed attempt sends payment_failed with a new transaction id and the same checkout id; success sends payment_approved', async () => {
		const c = (await checkout()).json.data;
		const f1 = (await t.control('POST', `/transactions/${c.id}/pay`, { success: false })).json.data;
		const f2 = (await t.control('POST', `/transactions/${c.id}/pay`, { success: false })).json.data;
		const ok = (await t.control('POST', `/transactions/${c.id}/pay`, { success: true })).json.data;
		expect(new Set([f1.id, f2.id, ok.id]).size).toBe(3);
		expect(f1).toMatchObject({
			status: 'canceled',
			canceled_reason: 'card_declined',
			checkout_id: c.id,
		});
		expect(ok).toMatchObject({ status: 'identified', checkout_id: c.id });
		expect(
			(await t.events()).map(({ type, transaction_id, checkout_id }) => ({
				type,
				transaction_id,
				checkout_id,
			})),
		).toEqual([
			{ type: 'payment_failed', transaction_id: f1.id, checkout_id: c.id },
			{ type: 'payment_failed', transaction_id: f2.id, checkout_id: c.id },
			{ type: 'payment_approved', transaction_id: ok.id, checkout_id: c.id },
			{ type: 'identified', transaction_id: ok.id, checkout_id: undefined },
		]);
		const after = await t.control('POST', `/transactions/${c.id}/pay`, { success: true });
		expect(after.status).toBe(422);
		expect(after.json.errors.status).toEqual([
			'the checkout is paid; only an active checkout page can be paid',
		]);
	});

	test('approval before identification: payment_approved while the API still shows the card payment pending; identified later, on demand', async () => {
		expect((await t.control('GET', '/play')).json.data).toEqual({
			card_identification: 'at_approval',
			read_lag_seconds: 0,
		});
		expect((await t.control('POST', '/play', { card_identification: 'later' })).json.data).toEqual({
			card_identification: 'later',
			read_lag_seconds: 0,
		});
		const c = (await checkout()).json.data;
		const paid = (await t.control('POST', `/transactions/${c.id}/pay`, { success: true })).json
			.data;
		expect(paid.status).toBe('pending');
		expect((await t.api('GET', `/transactions/${paid.id}`)).json.data.status).toBe('pending');
		expect(await t.eventTypes()).toEqual(['payment_approved']);
		const identified = await t.control('POST', `/transactions/${paid.id}/identify`);
		expect(identified.json.data.status).toBe('identified');
		expect(await t.eventTypes()).toEqual(['payment_approved', 'identified']);
		expect((await t.control('POST', `/transactions/${paid.id}/identify`)).status).toBe(422);
		expect((await t.control('POST', '/play', { card_identification: 'never' })).status).toBe(422);
		await t.control('POST', '/reset');
		expect((await t.control('GET', '/play')).json.data.card_identification).toBe('at_approval');
	});
});

describe('read-after-write lag, played on demand (the public material does not rule it out)', () => {
	test('with read_lag_seconds, GET /transactions/:id answers 404 for that long after the create, then the transaction', async () => {
		expect((await t.control('POST', '/play', { read_lag_seconds: 1 })).json.data).toMatchObject({
			read_lag_seconds: 1,
		});
		const created = (await checkout()).json.data;
		const paid = (await t.control('POST', `/transactions/${created.id}/pay`, { success: true }))
			.json.data;
		// A checkout attempt is not created through POST /transactions: no lag for it.
		expect((await t.api('GET', `/transactions/${paid.id}`)).status).toBe(200);
		const card = await t.api('POST', '/transactions', {
			transaction: {
				currency: 'BRL',
				exchange_currency: 'BRL',
				value: '10.00',
				to_bank_account_id: created.to_bank_account_id ?? paid.to_bank_account_id,
				subject_id: paid.subject_id,
				from_credit_card: {
					card_number: '4111111111111111',
					card_expiration_date: '12/2030',
					card_security_code: '123',
					card_brand: 'visa',
					fullname: 'Maria da Silva',
				},
			},
		});
		expect(card.status).toBe(200);
		const id = card.json.data.id;
		expect((await t.api('GET', `/transactions/${id}`)).status).toBe(404);
		await new Promise((resolve) => setTimeout(resolve, 1100));
		expect((await t.api('GET', `/transactions/${id}`)).status).toBe(200);
		expect((await t.control('POST', '/play', { read_lag_seconds: 500 })).status).toBe(422);
		await t.control('POST', '/reset');
		expect((await t.control('GET', '/play')).json.data.read_lag_seconds).toBe(0);
	});
});

describe('Chilean pesos have no decimals', () => {
	test('a CLP card payment is written "15000" and accepted as such ("15000.00" too, written "15000")', async () => {
		const make = (value) =>
			checkout({
				value,
				currency: 'CLP',
				exchange_currency: 'USD',
				to_bank_account_id: ACCOUNT_IDS.usdDestination,
			});
		const whole = await make('15000');
		expect(whole.status).toBe(200);
		expect(whole.json.data.value).toBe('15000');
		expect((await make('15000.00')).json.data.value).toBe('15000');
		for (const bad of ['15000.50', '15.000', '0', 15000]) {
			const refused = await make(bad);
			expect(refused.status).toBe(422);
			expect(refused.json.errors.value).toBeDefined();
		}
		const paid = (
			await t.control('POST', `/transactions/${whole.json.data.id}/pay`, { success: true })
		).json.data;
		// 15 000 CLP at 0.0055 BRL, 1 USD = 5.00 BRL: 16.50 USD.
		expect(paid).toMatchObject({ value: '15000', estimated_value_until_exchange: '16.50' });
	});

	test('BRL still needs two decimals', async () => {
		const r = await checkout({ value: '15000' });
		expect(r.status).toBe(422);
		expect(r.json.errors.value).toBeDefined();
	});
});
