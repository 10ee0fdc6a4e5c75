// Charge and wait (issue 37): every charge a "Wait for Payment" can wait on is paid, expired or
// failed on demand, now or after REAL seconds, or many at once, each with its event delivered and
// its notification record listed (with the wall-clock time it was listed).
import { pseBody } from '../fixtures/transactions.js';
import { PAY_IN_ACCOUNT_IDS } from '../../sandbox/domain/localPayIns.mjs';
import { ACCOUNT_IDS, dynamicPix, localPayIn, startReceiver, useSandbox } from './helpers.mjs';

const t = useSandbox({ withPerson: true });
/** @type {Awaited<ReturnType<typeof startReceiver>>} */
let receiver;
beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(async () => {
	receiver.received.length = 0;
	await t.api('POST', '/enable_webhooks', { url: receiver.url });
});

const create = async (body) => {
	const r = await t.api('POST', '/transactions', body);
	if (r.status !== 200) throw new Error(`not created: ${r.text}`);
	return r.json.data;
};
const pix = () => create(dynamicPix(t.subject.id));
const status = async (id) => (await t.api('GET', `/transactions/${id}`)).json.data;
const listed = async () => (await t.control('GET', '/notifications')).json.data;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a charge paid after a delay (real seconds)', () => {
	test('answers 202 at once, stays pending until then, then is identified with its event and record', async () => {
		const charge = await pix();
		const asked = Date.now();
		const r = await t.control('POST', `/transactions/${charge.id}/pay`, { after_seconds: 1 });
		expect(r.status).toBe(202);
		expect(r.json.data).toMatchObject({ ids: [charge.id], outcome: 'paid', done: false });
		expect((await status(charge.id)).status).toBe('pending');
		expect(await listed()).toEqual([]);
		await sleep(1300);
		expect((await status(charge.id)).status).toBe('identified');
		await t.control('POST', '/deliveries/wait');
		const [record] = await listed();
		expect(record.notification).toMatchObject({ type: 'identified', transaction_id: charge.id });
		expect(record.listed_at_ms).toBeGreaterThanOrEqual(asked + 1000);
		expect(receiver.received.map((body) => body.notification.type)).toEqual(['identified']);
		const [outcome] = (await t.control('GET', '/outcomes')).json.data;
		expect(outcome.done_at_ms - outcome.requested_at_ms).toBeGreaterThanOrEqual(1000);
	});

	test('with success false after a delay, a dynamic PIX expires (payment_expired, reason expired)', async () => {
		const charge = await pix();
		await t.control('POST', `/transactions/${charge.id}/pay`, {
			success: false,
			after_seconds: 0.3,
		});
		await sleep(600);
		expect(await status(charge.id)).toMatchObject({
			status: 'canceled',
			canceled_reason: 'expired',
		});
		expect((await listed()).map((r) => r.notification.type)).toEqual(['payment_expired']);
	});

	test('the outcome is checked when asked: an unknown id is 404, a decided charge 422', async () => {
		expect((await t.control('POST', '/transactions/nope/pay', { after_seconds: 1 })).status).toBe(
			404,
		);
		const charge = await pix();
		await t.control('POST', `/transactions/${charge.id}/pay`, {});
		const again = await t.control('POST', `/transactions/${charge.id}/pay`, { after_seconds: 1 });
		expect(again.status).toBe(422);
		expect(JSON.stringify(again.json.errors)).toMatch(/identified/);
	});

	test('a charge decided in between is not decided twice: the scheduled outcome records the error', async () => {
		const charge = await pix();
		await t.control('POST', `/transactions/${charge.id}/pay`, { after_seconds: 0.3 });
		await t.control('POST', `/transactions/${charge.id}/expire`, {});
		await sleep(600);
		expect((await status(charge.id)).status).toBe('canceled');
		const outcomes = (await t.control('GET', '/outcomes')).json.data;
		expect(outcomes[0].errors).toEqual([
			{ id: charge.id, error: expect.stringMatching(/canceled/) },
		]);
		expect((await listed()).map((r) => r.notification.type)).toEqual(['payment_expired']);
	});

	test('a reset cancels outcomes not yet due', async () => {
		const charge = await pix();
		await t.control('POST', `/transactions/${charge.id}/pay`, { after_seconds: 0.3 });
		await t.control('POST', '/reset');
		await sleep(500);
		expect((await t.control('GET', '/outcomes')).json.data).toEqual([]);
		expect((await t.control('GET', '/events')).json.data).toEqual([]);
	});

	test('after_seconds out of range is refused', async () => {
		const charge = await pix();
		const r = await t.control('POST', `/transactions/${charge.id}/pay`, { after_seconds: 99999 });
		expect(r.status).toBe(422);
		expect(Object.keys(r.json.errors)).toEqual(['after_seconds']);
	});
});

describe('expiry and failure now, for every kind of charge', () => {
	test('expire: dynamic PIX, boleto, local pay-in (MXN), SPEI and PSE are canceled (expired) at once, the clock unmoved', async () => {
		const before = (await t.control('GET', '/clock')).json.data.now;
		const charges = [
			await pix(),
			await create({
				transaction: {
					subject_id: t.subject.id,
					currency: 'BRL',
					exchange_currency: 'BRL',
					value: '250.75',
					to_bank_account_id: ACCOUNT_IDS.brlNoPixKey,
					from_boleto: { expire_at: '2025-03-20' },
				},
			}),
			await create({ transaction: localPayIn(t.subject.id) }),
			await create({
				transaction: (({ from_bank_account_id: _none, ...body }) => ({
					...body,
					from_spei: { dynamic_clabe: true },
				}))(localPayIn(t.subject.id)),
			}),
			await create(pseBody(t.subject.id, PAY_IN_ACCOUNT_IDS.usdCashIn, {})),
		];
		for (const charge of charges) {
			const r = await t.control('POST', `/transactions/${charge.id}/expire`, {});
			expect(r.status).toBe(200);
			expect(r.json.data).toMatchObject({ status: 'canceled', canceled_reason: 'expired' });
		}
		expect((await t.control('GET', '/clock')).json.data.now).toBe(before);
		const records = await listed();
		expect(records.map((r) => [r.notification.type, r.notification.transaction_id])).toEqual(
			charges.map((charge) => ['payment_expired', charge.id]),
		);
	});

	test('fail: a checkout attempt is declined (payment_failed, page still active), a pending card payment is declined; a PIX cannot fail', async () => {
		const checkout = (
			await t.api('POST', '/transactions/checkout', {
				subject_id: t.subject.id,
				value: '99.90',
				currency: 'BRL',
				exchange_currency: 'BRL',
				to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
			})
		).json.data;
		const declined = await t.control('POST', `/transactions/${checkout.id}/fail`, {});
		expect(declined.json.data).toMatchObject({
			status: 'canceled',
			canceled_reason: 'card_declined',
			checkout_id: checkout.id,
		});
		expect((await t.control('GET', `/checkouts/${checkout.id}`)).json.data.status).toBe('active');

		await t.control('POST', '/play', { card_identification: 'later' });
		const card = await create({
			transaction: {
				currency: 'BRL',
				exchange_currency: 'BRL',
				value: '120.50',
				subject_id: t.subject.id,
				to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
				from_credit_card: {
					card_number: '4111111111111111',
					card_expiration_date: '12/2030',
					card_security_code: '123',
					card_brand: 'visa',
					fullname: 'Maria da Silva',
				},
			},
		});
		expect(card.status).toBe('pending');
		const failed = await t.control('POST', `/transactions/${card.id}/fail`, {});
		expect(failed.json.data).toMatchObject({
			status: 'canceled',
			canceled_reason: 'card_declined',
		});

		const charge = await pix();
		const refused = await t.control('POST', `/transactions/${charge.id}/fail`, {});
		expect(refused.status).toBe(422);
		expect(refused.json.errors.outcome[0]).toMatch(/does not fail/);
		expect((await listed()).map((r) => r.notification.type)).toEqual([
			'payment_failed',
			'payment_approved',
			'payment_failed',
		]);
	});
});

describe('a burst: many charges decided at once', () => {
	test('300 dynamic PIX paid in one call: 300 identified records, one each; decided ones are refused, the rest go on', async () => {
		const charges = [];
		for (let n = 0; n < 302; n++) charges.push(await pix());
		await t.control('POST', `/transactions/${charges[300].id}/expire`, {});
		const ids = charges.map((charge) => charge.id);
		const r = await t.control('POST', '/transactions/decide_many', {
			ids: [...ids.slice(0, 300), ids[300], 'unknown-id'],
			outcome: 'paid',
		});
		expect(r.status).toBe(200);
		expect(r.json.data.ids).toEqual(ids.slice(0, 300));
		expect(r.json.data.refused.map((one) => one.id)).toEqual([ids[300], 'unknown-id']);
		const identified = (await listed()).filter((rec) => rec.notification.type === 'identified');
		expect(identified.map((rec) => rec.notification.transaction_id).sort()).toEqual(
			ids.slice(0, 300).sort(),
		);
		expect((await status(ids[301])).status).toBe('pending');
		expect(receiver.received.filter((b) => b.notification.type === 'identified')).toHaveLength(300);
	}, 60_000);

	test('a burst after a delay: 202 at once, all decided together later', async () => {
		const charges = [await pix(), await pix(), await pix()];
		const r = await t.control('POST', '/transactions/decide_many', {
			ids: charges.map((c) => c.id),
			outcome: 'expired',
			after_seconds: 0.3,
		});
		expect(r.status).toBe(202);
		expect((await status(charges[0].id)).status).toBe('pending');
		await sleep(600);
		for (const charge of charges) expect((await status(charge.id)).canceled_reason).toBe('expired');
	});

	test('ids must be a non-empty list', async () => {
		const r = await t.control('POST', '/transactions/decide_many', { ids: [] });
		expect(r.status).toBe(422);
		expect(Object.keys(r.json.errors)).toEqual(['ids']);
	});
});

describe('request totals (reads per second over a long run)', () => {
	test('count every request per route, beyond what the request log keeps, until a reset', async () => {
		const before = (await t.control('GET', '/requests/totals')).json.data;
		for (let n = 0; n < 3; n++) await t.api('GET', '/notifications');
		await t.control('DELETE', '/requests');
		await t.api('GET', '/notifications');
		const after = (await t.control('GET', '/requests/totals')).json;
		expect(
			after.data['GET /api/v1/notifications'] - (before['GET /api/v1/notifications'] ?? 0),
		).toBe(4);
		expect(after.at_ms).toBeGreaterThan(0);
		await t.control('POST', '/reset');
		expect((await t.control('GET', '/requests/totals')).json.data).toEqual({});
	});
});
