// Local pay-ins (live docs) as sandbox/domain/localPayIns.mjs plays them, and the PIX expiry with
// milliseconds (sandbox/pixExpiry.mjs). Called in process (ctx.localPayIns), and through
// POST /transactions, which routes pay-ins there.
import { useSandbox, createPerson, localPayIn, ACCOUNT_IDS } from './helpers.mjs';
import {
	PAY_IN_ACCOUNT_IDS,
	PSE_SUBJECT_FIELDS,
	clabeFor,
	isLocalPayIn,
} from '../../sandbox/domain/localPayIns.mjs';
import { readPixExpiry } from '../../sandbox/pixExpiry.mjs';
import { pseBody } from '../fixtures/transactions.js';

const t = useSandbox();

const ids = PAY_IN_ACCOUNT_IDS;
/** The error body a refusal carries. */
const refusal = (call) => {
	try {
		call();
	} catch (error) {
		return /** @type {any} */ (error).body;
	}
	throw new Error('not refused');
};

test('Mexico: a pending pay-in with its own dynamic CLABE, readable at GET /transactions/:id; unpaid it expires', async () => {
	const subject = await createPerson(t);
	const transaction = t.sb.ctx.localPayIns.create(localPayIn(subject.id));
	expect(transaction).toMatchObject({
		status: 'pending',
		currency: 'MXN',
		subject_is_receiver: false,
		payment_info: { dynamic_clabe: expect.stringMatching(/^\d{18}$/) },
	});
	const read = await t.api('GET', `/transactions/${transaction.id}`);
	expect(read.json.data.payment_info).toEqual(transaction.payment_info);
	expect(read.json.data).not.toHaveProperty('_kind');
	await t.advance(30 * 24 * 3600 + 1);
	expect((await t.api('GET', `/transactions/${transaction.id}`)).json.data).toMatchObject({
		status: 'canceled',
		canceled_reason: 'expired',
	});
	expect(await t.eventTypes()).toContain('payment_expired');
});

test.each([
	[
		'Chile: CLP without decimals, exchanged to USD into the USD cash-in account',
		{
			from_bank_account_id: ids.clpReal,
			to_bank_account_id: ids.usdCashIn,
			currency: 'CLP',
			exchange_currency: 'USD',
			value: '15000.00',
		},
		{
			value: '15000',
			for_exchange: true,
			payment_info: null,
			estimated_value_until_exchange: '16.50',
		},
	],
	[
		'stablecoins: USDT paid in, converted to USDC at the USD rate',
		{
			from_bank_account_id: ids.usdtReal,
			to_bank_account_id: ids.usdcCashIn,
			currency: 'USDT',
			exchange_currency: 'USDC',
			value: '250.50',
		},
		{ estimated_value_until_exchange: '250.50', status: 'pending' },
	],
])('%s', async (_name, overrides, expected) => {
	const subject = await createPerson(t);
	const transaction = t.sb.ctx.localPayIns.create(localPayIn(subject.id, overrides));
	expect(transaction).toMatchObject(expected);
});

test('Colombia (PSE): needs the subject’s PSE contact fields; the answer holds a bank payment URL valid 21 minutes', async () => {
	const colombian = { document_type: 'cc', document_number: '1234567890', fiscal_country: 'CO' };
	const withoutContact = Object.fromEntries(PSE_SUBJECT_FIELDS.map((field) => [field, undefined]));
	const bare = await createPerson(t, { ...colombian, ...withoutContact });
	const cop = {
		from_bank_account_id: ids.copReal,
		to_bank_account_id: ids.usdCashIn,
		currency: 'COP',
		exchange_currency: 'USD',
		value: '50000.00',
	};
	expect(
		refusal(() => t.sb.ctx.localPayIns.create(localPayIn(bare.id, cop))).errors.subject_id,
	).toEqual([`the subject must have ${PSE_SUBJECT_FIELDS.join(', ')} registered for PSE`]);
	const full = await createPerson(t);
	const transaction = t.sb.ctx.localPayIns.create(localPayIn(full.id, cop));
	expect(transaction.payment_info).toMatchObject({
		pse_url: expect.stringContaining(`/_sandbox/pse/${transaction.id}`),
		expires_at: '2025-03-10T12:21:00Z',
	});
});

// Each row changes one field (and what it needs besides, after it): the refusal names that field.
test.each([
	[
		'a CLP value with cents',
		{
			value: '15000.50',
			from_bank_account_id: ids.clpReal,
			currency: 'CLP',
			exchange_currency: 'MXN',
		},
	],
	['a source account in another currency', { from_bank_account_id: ids.clpReal }],
	['a destination that is not a cash-in account', { to_bank_account_id: ids.mxnReal }],
	['a destination in another currency', { to_bank_account_id: ids.usdCashIn }],
	['BRL', { currency: 'BRL' }],
])('refuses %s (422)', async (_name, overrides) => {
	const [field] = Object.keys(overrides);
	const subject = await createPerson(t);
	const body = refusal(() => t.sb.ctx.localPayIns.create(localPayIn(subject.id, overrides)));
	expect(Object.keys(body.errors)).toContain(field);
});

test('POST /transactions routes a local pay-in (MXN, dynamic CLABE): created pending, paid like a dynamic PIX', async () => {
	const subject = await createPerson(t);
	const r = await t.api('POST', '/transactions', { transaction: localPayIn(subject.id) });
	expect(r.status).toBe(200);
	expect(r.json.data).toMatchObject({
		status: 'pending',
		payment_info: { dynamic_clabe: expect.stringMatching(/^\d{18}$/) },
	});
	const paid = await t.control('POST', `/transactions/${r.json.data.id}/pay`, {});
	expect(paid.json.data.status).toBe('identified');
	expect(await t.eventTypes()).toEqual(['identified']);
});

test('isLocalPayIn: a local currency or stablecoin not paid from a cash-out account; never a PIX or boleto', () => {
	const state = t.sb.ctx.state;
	expect(isLocalPayIn(localPayIn('s'), state)).toBe(true);
	expect(isLocalPayIn({ ...localPayIn('s'), use_dynamic_pix: true }, state)).toBe(false);
	expect(isLocalPayIn({ ...localPayIn('s'), from_boleto: {} }, state)).toBe(false);
	expect(isLocalPayIn({ ...localPayIn('s'), currency: 'USD' }, state)).toBe(false);
	expect(
		isLocalPayIn({ ...localPayIn('s'), from_bank_account_id: ACCOUNT_IDS.usdCashOut }, state),
	).toBe(false);
});

test('the pay-in accounts have a balance; a CLABE carries its check digit', async () => {
	const r = await t.api('GET', `/bank_accounts/${ids.mxnCashIn}/balance`);
	expect(r.json.data).toMatchObject({ balance: '0.00', currency: 'MXN' });
	const clabe = clabeFor(123);
	const weights = [3, 7, 1];
	const sum = [...clabe.slice(0, 17)].reduce(
		(acc, d, i) => acc + ((Number(d) * weights[i % 3]) % 10),
		0,
	);
	expect(Number(clabe[17])).toBe((10 - (sum % 10)) % 10);
});

describe('readPixExpiry: the PIX expiry as the service takes it', () => {
	test.each([
		['2025-05-08T08:30:44Z', Date.parse('2025-05-08T08:30:44Z')],
		['2025-05-08T08:30:44.074Z', Date.parse('2025-05-08T08:30:44.074Z')],
	])('%s is read', (text, ms) => {
		expect(readPixExpiry(text)).toBe(ms);
	});
	test.each([
		'2025-02-30T08:30:44Z',
		'2025-05-08 08:30:44Z',
		'2025-05-08T08:30:44+01:00',
		17,
		null,
	])('%p is not', (value) => {
		expect(readPixExpiry(value)).toBeNull();
	});
});

describe('as FacilitaPay’s public Python client asks for them (no from_bank_account_id)', () => {
	const pse = (subjectId, fromPse, overrides) =>
		pseBody(subjectId, ids.usdCashIn, fromPse, overrides);

	test('Colombia, PSE: the answer’s from_pse has the payment URL, ticket, traceability code and bank', async () => {
		const subject = await createPerson(t);
		const r = await t.api('POST', '/transactions', pse(subject.id, {}, { meta: { order: 77 } }));
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			status: 'pending',
			currency: 'COP',
			from_bank_account: { id: ids.copReal },
			meta: { order: 77 },
			from_pse: {
				financial_institution_code: '1007',
				bank_name: 'BANCOLOMBIA',
				payment_description: 'Order 77',
				payment_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/_sandbox\/pse\//),
				ticket_id: expect.stringMatching(/^\d+$/),
				trazability_code: expect.stringMatching(/^[0-9A-F]{12}$/),
				creation_date: '2025-03-10T12:00:00Z',
			},
		});
	});

	test.each([
		[{ financial_institution_code: '9999' }, 'from_pse.financial_institution_code'],
		[{ financial_institution_code: '' }, 'from_pse.financial_institution_code'],
		[{ redirect_url: 'shop.example.co' }, 'from_pse.redirect_url'],
	])('PSE %p is refused under %s', async (fromPse, field) => {
		const subject = await createPerson(t);
		const r = await t.api('POST', '/transactions', pse(subject.id, fromPse));
		expect(r.status).toBe(422);
		expect(Object.keys(r.json.errors)).toEqual([field]);
	});

	test('the PSE banks are listed, and the list can be played away (503)', async () => {
		const listed = await t.api('GET', '/pse/financial_institutions');
		expect(listed.json.data).toContainEqual({
			financial_institution_code: '1007',
			financial_institution_name: 'BANCOLOMBIA',
		});
		await t.control('POST', '/pse/banks', { listed: false });
		const refused = await t.api('GET', '/pse/financial_institutions');
		expect(refused.status).toBe(503);
		expect((await t.control('GET', '/pse/banks')).json.data).toEqual({ listed: false });
	});

	test('Mexico, SPEI: from_spei {dynamic_clabe: true} gets a CLABE valid 30 days', async () => {
		const subject = await createPerson(t);
		const { from_bank_account_id: _none, ...body } = localPayIn(subject.id);
		const r = await t.api('POST', '/transactions', {
			transaction: { ...body, from_spei: { dynamic_clabe: true }, payment_description: 'Pedido 9' },
		});
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			status: 'pending',
			from_bank_account: { id: ids.mxnReal },
			payment_description: 'Pedido 9',
			from_spei: {
				dynamic_clabe: true,
				clabe: expect.stringMatching(/^\d{18}$/),
				expires_at: '2025-04-09T12:00:00Z',
			},
		});
		expect(r.json.data.payment_info.dynamic_clabe).toBe(r.json.data.from_spei.clabe);
		await t.advance(30 * 24 * 3600 - 1);
		expect((await t.api('GET', `/transactions/${r.json.data.id}`)).json.data.status).toBe(
			'pending',
		);
	});

	test('SPEI played as answered in payment_info only: no from_spei guesses, the CLABE where local pay-ins document it', async () => {
		expect((await t.control('POST', '/spei', { answer: 'payment_info' })).json.data).toEqual({
			answer: 'payment_info',
		});
		const subject = await createPerson(t);
		const { from_bank_account_id: _none, ...body } = localPayIn(subject.id);
		const r = await t.api('POST', '/transactions', {
			transaction: { ...body, from_spei: { dynamic_clabe: true } },
		});
		expect(r.status).toBe(200);
		expect(r.json.data.from_spei).toBeUndefined();
		expect(r.json.data.payment_info.dynamic_clabe).toMatch(/^\d{18}$/);
		expect((await t.control('POST', '/spei', { answer: 'elsewhere' })).status).toBe(422);
	});

	test('SPEI in another currency, or without dynamic_clabe: true, is refused', async () => {
		const subject = await createPerson(t);
		const { from_bank_account_id: _none, ...body } = localPayIn(subject.id);
		const r = await t.api('POST', '/transactions', {
			transaction: { ...body, from_spei: { dynamic_clabe: 'yes' } },
		});
		expect(r.status).toBe(422);
		expect(r.json.errors).toEqual({ 'from_spei.dynamic_clabe': ['must be true'] });
	});
});
