// Card payments created with POST /transactions and `from_credit_card` (the public connector's body):
// every card field checked, the card never echoed, approved or declined at once with its event.
import { useSandbox, ACCOUNT_IDS } from './helpers.mjs';

const t = useSandbox({ withPerson: true });

const card = (overrides = {}) => ({
	card_number: '4111111111111111',
	card_expiration_date: '12/2030',
	card_security_code: '123',
	card_brand: 'visa',
	fullname: 'Maria da Silva',
	...overrides,
});

const cardPayment = (overrides = {}, cardOverrides = {}) => ({
	transaction: {
		currency: 'BRL',
		exchange_currency: 'BRL',
		value: '120.50',
		subject_id: t.subject.id,
		to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
		from_credit_card: card(cardOverrides),
		...overrides,
	},
});

describe('card payment (POST /transactions with from_credit_card)', () => {
	test('an approved card: payment_approved, identified, and no card data in the answer', async () => {
		const r = await t.api(
			'POST',
			'/transactions',
			cardPayment(
				{ meta: { order: 'A-1' } },
				{ document_type: 'cpf', document_number: '39053344705' },
			),
		);
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			status: 'identified',
			value: '120.50',
			subject_is_receiver: false,
			meta: { order: 'A-1' },
			from_credit_card: {
				id: expect.any(String),
				status: 'approved',
				document_type: 'cpf',
				document_number: '39053344705',
				birthdate: null,
			},
		});
		expect(r.text).not.toContain('4111111111111111');
		expect(r.text).not.toContain('"123"');
		expect(await t.events()).toEqual([
			expect.objectContaining({ type: 'payment_approved', transaction_id: r.json.data.id }),
			expect.objectContaining({ type: 'identified', transaction_id: r.json.data.id }),
		]);
	});

	test('the declining card: canceled card_declined and payment_failed', async () => {
		const r = await t.api(
			'POST',
			'/transactions',
			cardPayment({}, { card_number: '4000000000000002' }),
		);
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			status: 'canceled',
			canceled_reason: 'card_declined',
			from_credit_card: { status: 'declined' },
		});
		expect(await t.eventTypes()).toEqual(['payment_failed']);
	});

	test.each([
		[{ card_number: '4111 1111' }, 'from_credit_card.card_number'],
		[{ card_expiration_date: '2030-12' }, 'from_credit_card.card_expiration_date'],
		[{ card_expiration_date: '01/2025' }, 'from_credit_card.card_expiration_date'],
		[{ card_security_code: '12' }, 'from_credit_card.card_security_code'],
		[{ card_brand: '' }, 'from_credit_card.card_brand'],
		[{ fullname: 'Maria' }, 'from_credit_card.fullname'],
		[{ document_type: 'cpf', document_number: '11111111111' }, 'from_credit_card.document_number'],
	])('card field %p is refused under %s, and nothing is charged', async (cardOverrides, field) => {
		const r = await t.api('POST', '/transactions', cardPayment({}, cardOverrides));
		expect(r.status).toBe(422);
		expect(Object.keys(r.json.errors)).toEqual([field]);
		expect(await t.events()).toEqual([]);
	});

	test('a value with three decimals and an unknown destination are refused', async () => {
		const r = await t.api(
			'POST',
			'/transactions',
			cardPayment({ value: '1.005', to_bank_account_id: '00000000-0000-4000-8000-000000000000' }),
		);
		expect(r.status).toBe(422);
		expect(Object.keys(r.json.errors).sort()).toEqual(['to_bank_account_id', 'value']);
	});
});
