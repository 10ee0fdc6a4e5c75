// Issue 26 against the sandbox over real HTTP, the compiled node on one side: card payments,
// Colombia's PSE and Mexico's dynamic CLABE as FacilitaPay's public clients send them, the PSE bank
// list and its unreadable variant, NIT and RFC companies, and FacilitaPay's live timestamp form.
import { createSandbox } from '../../sandbox/server.mjs';
import { PAY_IN_ACCOUNT_IDS } from '../../sandbox/domain/localPayIns.mjs';
import { ACCOUNTS, useSandbox } from './lib/harness.mjs';
import { companyParameters } from '../fixtures/subjects.js';
import { cardPaymentParameters, psePaymentParameters } from '../fixtures/transactions.js';
import { fullAddress } from './lib/parameters.mjs';

const env = useSandbox(createSandbox);

const address = fullAddress();

/** Transaction > Create SPEI Payment of 1,500.00 MXN for a new subject. */
const speiPayment = async () => {
	const subject = await env.createSubject(address);
	return await env.run({
		resource: 'transaction',
		operation: 'createSpeiPayment',
		subjectId: subject.id,
		value: '1500.00',
		exchangeCurrency: 'MXN',
		toBankAccountId: PAY_IN_ACCOUNT_IDS.mxnCashIn,
		paymentDescription: '',
	});
};

const cardPayment = (subjectId, overrides) =>
	cardPaymentParameters(subjectId, ACCOUNTS.brlPixExclusive, overrides);

const pse = psePaymentParameters;

describe('Transaction > Create Card Payment against the sandbox', () => {
	test('an approved card: one request, approved, identified; the events of the trigger follow', async () => {
		const subject = await env.createSubject(address);
		const { output } = await env.run(cardPayment(subject.id));
		expect(output[0].json).toMatchObject({ status: 'identified', approved: true, value: '80.00' });
		expect(JSON.stringify(output[0].json)).not.toContain('4111111111111111');
		expect(await env.control.received('POST /api/v1/transactions')).toHaveLength(1);
		const events = (await env.control.get('/events')).data.map((event) => event.type);
		expect(events).toEqual(['payment_approved', 'identified']);
	});

	test('the declining card: the payment comes back canceled, not approved, with payment_failed', async () => {
		const subject = await env.createSubject(address);
		const { output } = await env.run(cardPayment(subject.id, { cardNumber: '4000000000000002' }));
		expect(output[0].json).toMatchObject({
			status: 'canceled',
			canceled_reason: 'card_declined',
			approved: false,
		});
		const events = (await env.control.get('/events')).data.map((event) => event.type);
		expect(events).toEqual(['payment_failed']);
	});

	test('a mistyped card (Luhn) is refused by the node and never reaches the sandbox', async () => {
		const subject = await env.createSubject(address);
		const error = await env.runExpectingError(
			cardPayment(subject.id, { cardNumber: '4111111111111112' }),
		);
		expect(error.message).toMatch(/Card Number \(item 0\).*Luhn/);
		expect(await env.control.received('POST /api/v1/transactions')).toHaveLength(0);
	});
});

describe('PSE and dynamic CLABE against the sandbox', () => {
	test('PSE: the payment URL and its validity, read from a live timestamp (microseconds, no zone)', async () => {
		await env.control.post('/clock', { timestamps: 'live' });
		const subject = await env.createSubject(address);
		const { output } = await env.run(pse(subject.id));
		const json = output[0].json;
		expect(json.from_pse.creation_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
		const created = Date.parse(`${json.from_pse.creation_date.slice(0, 23)}Z`);
		expect(json.payment_url).toMatch(/\/_sandbox\/pse\//);
		expect(Date.parse(json.payment_url_valid_until)).toBe(
			Math.floor(created / 1000) * 1000 + 21 * 60 * 1000,
		);
	});

	test('the PSE bank list: the picker reads it, and when it cannot be read the bank By ID still pays', async () => {
		await env.control.post('/pse/banks', { listed: false });
		const subject = await env.createSubject(address);
		const { output } = await env.run(
			pse(subject.id, { financialInstitutionCode: { __rl: true, mode: 'id', value: '1051' } }),
		);
		expect(output[0].json).toMatchObject({ from_pse: { bank_name: 'DAVIVIENDA' } });
	});

	test('SPEI: a CLABE valid 30 days, no source account sent', async () => {
		const { output } = await speiPayment();
		const json = output[0].json;
		expect(json.dynamic_clabe).toMatch(/^\d{18}$/);
		expect(Date.parse(json.dynamic_clabe_valid_until) - Date.parse(json.inserted_at)).toBe(
			30 * 24 * 3600 * 1000,
		);
		const [sent] = await env.control.received('POST /api/v1/transactions');
		expect(sent.body.transaction).not.toHaveProperty('from_bank_account_id');
	});

	test('SPEI answered only in payment_info (where the CLABE goes is not published): the CLABE and 30 days from FacilitaPay’s live timestamp', async () => {
		await env.control.post('/spei', { answer: 'payment_info' });
		await env.control.post('/clock', { timestamps: 'live' });
		const { output } = await speiPayment();
		const json = output[0].json;
		expect(json.from_spei).toBeUndefined();
		expect(json.inserted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
		expect(json.dynamic_clabe).toBe(json.payment_info.dynamic_clabe);
		const created = Math.floor(Date.parse(`${json.inserted_at.slice(0, 23)}Z`) / 1000) * 1000;
		expect(Date.parse(json.dynamic_clabe_valid_until)).toBe(created + 30 * 24 * 3600 * 1000);
	});
});

describe('Companies of Colombia and Mexico against the sandbox', () => {
	test.each([
		['nit', '900.123.456-8', '9001234568', 'Colombia'],
		['rfc', 'ABC-010203-XY1', 'ABC010203XY1', 'MEX'],
	])('a %s company is registered with its document as sent', async (type, typed, sent, country) => {
		const { output } = await env.run(
			companyParameters({ documentType: type, documentNumber: typed, fiscalCountry: country }),
		);
		expect(output[0].json).toMatchObject({ document_type: type, document_number: sent });
	});
});
