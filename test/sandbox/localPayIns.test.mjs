// Local pay-ins (live docs) as sandbox/domain/localPayIns.mjs plays them, and the PIX expiry with
// milliseconds (sandbox/pixExpiry.mjs). Called in process (ctx.localPayIns) until
// POST /transactions routes pay-ins there.
import { startSandbox, createPerson } from './helpers.mjs';
import { PAY_IN_ACCOUNT_IDS, clabeFor, isLocalPayIn } from '../../sandbox/domain/localPayIns.mjs';
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import { readPixExpiry } from '../../sandbox/pixExpiry.mjs';

let t;
beforeAll(async () => (t = await startSandbox()));
afterAll(() => t.close());
beforeEach(() => t.control('POST', '/reset'));

const ids = PAY_IN_ACCOUNT_IDS;
const payIn = (subjectId, overrides = {}) => ({
	subject_id: subjectId,
	from_bank_account_id: ids.mxnReal,
	to_bank_account_id: ids.mxnCashIn,
	currency: 'MXN',
	exchange_currency: 'MXN',
	value: '1500.00',
	...overrides,
});
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
	const transaction = t.sb.ctx.localPayIns.create(payIn(subject.id));
	expect(transaction).toMatchObject({
		status: 'pending',
		currency: 'MXN',
		subject_is_receiver: false,
		payment_info: { dynamic_clabe: expect.stringMatching(/^\d{18}$/) },
	});
	const read = await t.api('GET', `/transactions/${transaction.id}`);
	expect(read.json.data.payment_info).toEqual(transaction.payment_info);
	expect(read.json.data).not.toHaveProperty('_kind');
	await t.advance(24 * 3600 + 1);
	expect((await t.api('GET', `/transactions/${transaction.id}`)).json.data).toMatchObject({
		status: 'canceled',
		canceled_reason: 'expired',
	});
	expect((await t.events()).map((event) => event.type)).toContain('payment_expired');
});

test('Chile: CLP without decimals, exchanged to USD into the USD cash-in account', async () => {
	const subject = await createPerson(t);
	const transaction = t.sb.ctx.localPayIns.create(
		payIn(subject.id, {
			from_bank_account_id: ids.clpReal,
			to_bank_account_id: ids.usdCashIn,
			currency: 'CLP',
			exchange_currency: 'USD',
			value: '15000.00',
		}),
	);
	expect(transaction).toMatchObject({ value: '15000', for_exchange: true, payment_info: null });
	expect(transaction.estimated_value_until_exchange).toBe('16.50');
});

test('Colombia (PSE): needs the subject’s PSE contact fields; the answer holds a bank payment URL valid 21 minutes', async () => {
	const bare = (
		await t.api('POST', '/subject/people', {
			person: {
				document_type: 'cc',
				document_number: '1234567890',
				social_name: 'Ana Gómez',
				fiscal_country: 'CO',
			},
		})
	).json.data;
	const cop = {
		from_bank_account_id: ids.copReal,
		to_bank_account_id: ids.usdCashIn,
		currency: 'COP',
		exchange_currency: 'USD',
		value: '50000.00',
	};
	expect(
		refusal(() => t.sb.ctx.localPayIns.create(payIn(bare.id, cop))).errors.subject_id[0],
	).toMatch(/phone_area_code/);
	const full = await createPerson(t);
	const transaction = t.sb.ctx.localPayIns.create(payIn(full.id, cop));
	expect(transaction.payment_info).toMatchObject({
		pse_url: expect.stringContaining(`/_sandbox/pse/${transaction.id}`),
		expires_at: '2025-03-10T12:21:00Z',
	});
});

test('stablecoins: USDT paid in, converted to USDC at the USD rate', async () => {
	const subject = await createPerson(t);
	const transaction = t.sb.ctx.localPayIns.create(
		payIn(subject.id, {
			from_bank_account_id: ids.usdtReal,
			to_bank_account_id: ids.usdcCashIn,
			currency: 'USDT',
			exchange_currency: 'USDC',
			value: '250.50',
		}),
	);
	expect(transaction).toMatchObject({
		estimated_value_until_exchange: '250.50',
		status: 'pending',
	});
});

test.each([
	[
		'a CLP value with cents',
		{
			from_bank_account_id: ids.clpReal,
			currency: 'CLP',
			value: '15000.50',
			exchange_currency: 'MXN',
		},
		'value',
	],
	[
		'a source account in another currency',
		{ from_bank_account_id: ids.clpReal },
		'from_bank_account_id',
	],
	[
		'a destination that is not a cash-in account',
		{ to_bank_account_id: ids.mxnReal },
		'to_bank_account_id',
	],
	[
		'a destination in another currency',
		{ to_bank_account_id: ids.usdCashIn },
		'to_bank_account_id',
	],
	['BRL', { currency: 'BRL' }, 'currency'],
])('refuses %s (422)', async (_name, overrides, field) => {
	const subject = await createPerson(t);
	const body = refusal(() => t.sb.ctx.localPayIns.create(payIn(subject.id, overrides)));
	expect(Object.keys(body.errors)).toContain(field);
});

test('isLocalPayIn: a local currency or stablecoin not paid from a cash-out account; never a PIX or boleto', () => {
	const state = t.sb.ctx.state;
	expect(isLocalPayIn(payIn('s'), state)).toBe(true);
	expect(isLocalPayIn({ ...payIn('s'), use_dynamic_pix: true }, state)).toBe(false);
	expect(isLocalPayIn({ ...payIn('s'), from_boleto: {} }, state)).toBe(false);
	expect(isLocalPayIn({ ...payIn('s'), currency: 'USD' }, state)).toBe(false);
	expect(isLocalPayIn({ ...payIn('s'), from_bank_account_id: ACCOUNT_IDS.usdCashOut }, state)).toBe(
		false,
	);
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
