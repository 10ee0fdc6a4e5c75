// Transaction > Create Card Payment on n8n's engine, against a FacilitaPay scripted by route.
import subjects from '../../../fixtures/subjects.js';
import { reply, resetNodeMemory, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import {
	CARD_PAYMENT_TO_ACCOUNT as TO_ACCOUNT,
	cardPayment,
	everythingIn,
	fixClock,
	holdingService,
	sent,
} from './lib.mjs';

const { SUBJECT_ID } = subjects;
const CREATE = 'POST /transactions';

const op = useOperations();
skipRetryWaits();
fixClock('2026-11-27T12:00:00Z');

const approved = {
	data: {
		id: 'tx-card-1',
		status: 'identified',
		value: '120.50',
		from_credit_card: { id: 'cc-1', status: 'approved', document_type: 'cpf' },
	},
};

describe('Transaction > Create Card Payment', () => {
	it('sends POST /transactions with from_credit_card, once, and outputs the payment without card data', async () => {
		const { items, requests, error } = await op.run({
			parameters: cardPayment({
				additionalFields: { documentType: 'cpf', documentNumber: '390.533.447-05' },
			}),
			replies: { [CREATE]: approved },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', route: CREATE });
		expect(requests[0].headers.authorization).toBe('Bearer test-token');
		expect(sent(requests[0])).toMatchObject({
			subject_id: SUBJECT_ID,
			to_bank_account_id: TO_ACCOUNT,
			currency: 'BRL',
			exchange_currency: 'BRL',
			value: '120.50',
			from_credit_card: {
				card_number: '4111111111111111',
				card_expiration_date: '12/2030',
				card_security_code: '123',
				card_brand: 'visa',
				fullname: 'Maria da Silva',
				document_type: 'cpf',
				document_number: '39053344705',
			},
		});
		expect(items[0].json).toMatchObject({ id: 'tx-card-1', approved: true });
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(JSON.stringify(items[0].json)).not.toContain('4111111111111111');
	});

	it('an answer that echoes the card shows only its last 4 digits and no security code', async () => {
		const { items } = await op.run({
			parameters: cardPayment(),
			replies: {
				[CREATE]: {
					data: {
						id: 'tx-card-2',
						from_credit_card: {
							status: 'declined',
							card_number: '4111111111111111',
							card_security_code: '123',
						},
					},
				},
			},
		});
		const text = JSON.stringify(items[0].json);
		expect(text).not.toContain('4111111111111111');
		expect(text).not.toContain('"123"');
		expect(text).toContain('1111');
		expect(items[0].json.approved).toBe(false);
	});

	it.each([
		['a number failing the Luhn check', { cardNumber: '4111111111111112' }, /Card Number.*Luhn/],
		['an expired card', { cardExpirationDate: '10/2026' }, /Card Expiration Date.*expired/],
		[
			'a 4-digit security code',
			{ cardSecurityCode: '1234' },
			/Card Security Code.*exactly 3 digits/,
		],
		['a single name', { fullname: 'Maria' }, /Cardholder Full Name.*not a full name/],
		['a brand that is no card brand', { cardBrand: '$$' }, /Card Brand.*is not a card brand/],
		[
			'a Mastercard number given as Visa',
			{ cardNumber: '5555 5555 5555 4444', cardBrand: 'visa' },
			/Card Brand \(item 0\): is visa, but the card number is not a Visa number/,
		],
		[
			'an American Express number given as Mastercard',
			{ cardNumber: '3782 822463 10005', cardBrand: 'mastercard' },
			/Card Brand \(item 0\): is mastercard, but the card number is not a Mastercard number/,
		],
		['a value with three decimals', { value: '10.005' }, /Value/],
		[
			'a holder CPF with wrong check digits',
			{ additionalFields: { documentType: 'cpf', documentNumber: '23100299900' } },
			/Cardholder Document Number/,
		],
	])(
		'refuses %s before charging anything, without repeating the card',
		async (_name, overrides, message) => {
			const { error, requests, items } = await op.run({
				parameters: cardPayment(overrides),
				replies: { [CREATE]: approved },
			});
			expect(requests).toHaveLength(0);
			expect(items).toHaveLength(0);
			expect(error.message).toMatch(message);
			expect(`${error.message} ${error.description ?? ''}`).not.toMatch(
				/4111\s?1111\s?1111\s?111[12]/,
			);
		},
	);

	it('no brand chosen: n8n refuses to start the workflow (Card Brand is required), nothing is charged', async () => {
		const { error, requests, items } = await op.run({
			parameters: cardPayment({ cardBrand: '' }),
			replies: { [CREATE]: approved },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
		expect(error.message).toMatch(/Parameter "Card Brand" is required/);
	});

	it('refuses no brand (from an expression) before charging anything, without repeating the card', async () => {
		const { error, requests, items } = await op.run({
			parameters: cardPayment({ cardBrand: '={{ $json.brand }}' }),
			items: [{ json: { brand: '' } }],
			replies: { [CREATE]: approved },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/Card Brand \(item 0\): is empty; choose the brand/);
		expect(`${error.message} ${error.description ?? ''}`).not.toMatch(/4111\s?1111/);
	});

	it('an error answer quoting the card is shown with the card masked, and the payment is not sent again', async () => {
		const { error, requests } = await op.run({
			parameters: cardPayment(),
			replies: {
				[CREATE]: [
					reply(422, { errors: { card_number: ['4111111111111111 was refused'] } }),
					approved,
				],
			},
		});
		expect(requests).toHaveLength(1);
		expect(error).toBeDefined();
		expect(
			JSON.stringify({ message: error.message, description: error.description }),
		).not.toContain('4111111111111111');
	});

	it('names the field and the item: the second item’s expired card stops the run before anything is charged', async () => {
		const { error, requests, items } = await op.run({
			parameters: [cardPayment(), cardPayment({ cardExpirationDate: '10/2026' })],
			replies: { [CREATE]: approved },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(
			/Card Expiration Date \(item 1\): is 10\/2026: the card has expired/,
		);
	});

	it.each([
		['Visa', '4111 1111 1111 1111', 'visa'],
		['Mastercard (2-series)', '2223 0000 4841 0010', 'mastercard'],
		['American Express', '3782 822463 10005', 'amex'],
		['Elo (its ranges are not checked)', '5067 2300 0000 0002', 'elo'],
	])('charges a %s card whose number fits its brand', async (_name, cardNumber, cardBrand) => {
		const { requests, error } = await op.run({
			parameters: cardPayment({ cardNumber, cardBrand }),
			replies: { [CREATE]: approved },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(sent(requests[0]).from_credit_card).toMatchObject({
			card_number: cardNumber.replace(/ /g, ''),
			card_brand: cardBrand,
		});
	});

	it('Preview Only shows the request with the card masked and charges nothing', async () => {
		const { items, requests, error } = await op.run({
			parameters: { ...cardPayment(), previewOnly: true },
			replies: { [CREATE]: approved },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(0);
		const body = items[0].json.body;
		expect(body.transaction.from_credit_card).toMatchObject({
			card_number: '**** **** **** 1111',
			card_security_code: '***',
			card_brand: 'visa',
		});
		expect(JSON.stringify(items[0].json)).not.toContain('4111111111111111');
	});

	it('an error answer quoting the security code shows it as ***', async () => {
		const { error, requests } = await op.run({
			parameters: cardPayment({ cardSecurityCode: '739' }),
			replies: { [CREATE]: reply(422, { errors: { card_security_code: ['739 is not valid'] } }) },
		});
		expect(requests).toHaveLength(1);
		expect(everythingIn(error)).not.toContain('739');
		expect(error.message).toContain('***');
	});

	it('a payment FacilitaPay already holds under its Idempotency Key comes out with its record masked, not charged again', async () => {
		const service = holdingService();
		const key = 'order-card-1';
		const engine = await op.engine();
		const run = async () =>
			await op.run({
				engine,
				parameters: cardPayment({ idempotencyKey: key }),
				replies: service.replies,
			});
		const first = await run();
		expect(first.error).toBeUndefined();
		// Another n8n process (or a restart) runs the workflow again: only FacilitaPay remembers.
		resetNodeMemory();
		const again = await run();
		expect(again.error).toBeUndefined();
		expect(service.created).toHaveLength(1);
		expect(again.requests.map((request) => request.route)).not.toContain(CREATE);
		// The stand-in echoes the card in its record, as a careless service might.
		expect(JSON.stringify(service.records)).toContain('4111111111111111');
		expect(again.items[0].json).toMatchObject({
			alreadyDone: true,
			from_credit_card: { card_number: '**** **** **** 1111', card_security_code: '***' },
		});
		expect(JSON.stringify(again.items[0].json)).not.toContain('4111111111111111');
	});
});
