import {
	boletoSchema,
	checkoutSchema,
	dynamicPixSchema,
} from '../../../nodes/FacilitaPay/schemas/transaction';
import { CARD_CURRENCIES } from '../../../nodes/FacilitaPay/validation/amount';

const NOW = new Date('2026-03-15T12:00:00.000Z'); // 09:00 in São Paulo
const SUBJECT = '3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b';
const FROM = '11111111-2222-4333-8444-555555555555';
const TO = '66666666-7777-4888-8999-aaaaaaaaaaaa';

const pix = (fields: Record<string, unknown> = {}) => ({
	subject_id: SUBJECT,
	from_bank_account_id: FROM,
	to_bank_account_id: TO,
	currency: 'BRL',
	exchange_currency: 'BRL',
	value: '25.00',
	use_dynamic_pix: true,
	...fields,
});

describe('dynamicPixSchema', () => {
	it('reads the date picker’s value (no offset) in the workflow’s time zone and sends it in UTC', () => {
		const result = dynamicPixSchema(NOW, { timeZone: 'America/Sao_Paulo' }).parse(
			pix({ dynamic_pix_expires_at: '2026-03-15T10:00:00' }),
		);
		expect(result.dynamic_pix_expires_at).toBe('2026-03-15T13:00:00Z');
	});

	it('keeps an explicit offset whatever the workflow’s time zone', () => {
		const result = dynamicPixSchema(NOW, { timeZone: 'Asia/Tokyo' }).parse(
			pix({ dynamic_pix_expires_at: '2026-03-15T10:00:00-03:00' }),
		);
		expect(result.dynamic_pix_expires_at).toBe('2026-03-15T13:00:00Z');
	});

	it.each([
		['left out', {}],
		['empty', { dynamic_pix_expires_at: '' }],
		['only spaces', { dynamic_pix_expires_at: '  ' }],
		['null', { dynamic_pix_expires_at: null }],
	])('accepts an expiry %s and does not send the field (optional in the spec)', (_name, fields) => {
		const result = dynamicPixSchema(NOW).parse(pix(fields));
		expect(result).not.toHaveProperty('dynamic_pix_expires_at');
		expect(result.use_dynamic_pix).toBe(true);
	});

	it('still refuses an expiry in the past', () => {
		const result = dynamicPixSchema(NOW, { timeZone: 'America/Sao_Paulo' }).safeParse(
			pix({ dynamic_pix_expires_at: '2026-03-15T08:00:00' }),
		);
		expect(result.success).toBe(false);
		expect(result.error?.issues[0].message).toMatch(/^is in the past/);
	});

	it('keeps the old one-argument form (UTC)', () => {
		const result = dynamicPixSchema(NOW).parse(
			pix({ dynamic_pix_expires_at: '2026-03-15T13:00:00' }),
		);
		expect(result.dynamic_pix_expires_at).toBe('2026-03-15T13:00:00Z');
	});
});

describe('boletoSchema', () => {
	const boleto = (expireAt: string) => ({
		subject_id: SUBJECT,
		to_bank_account_id: TO,
		currency: 'BRL',
		exchange_currency: 'BRL',
		value: '10.00',
		from_boleto: { expire_at: expireAt },
	});

	it('accepts today’s local date late in the evening in São Paulo (already tomorrow in UTC)', () => {
		const lateEvening = new Date('2026-03-15T23:30:00-03:00');
		expect(
			boletoSchema(lateEvening, { timeZone: 'America/Sao_Paulo' }).parse(boleto('2026-03-15'))
				.from_boleto.expire_at,
		).toBe('2026-03-15');
		expect(boletoSchema(lateEvening).safeParse(boleto('2026-03-15')).success).toBe(false);
	});
});

describe('checkoutSchema (hosted card checkout)', () => {
	const checkout = (currency: string) => ({
		subject_id: SUBJECT,
		to_bank_account_id: TO,
		currency,
		exchange_currency: 'USD',
		value: '10.00',
	});

	it('knows the currencies the service’s cards take', () => {
		expect(CARD_CURRENCIES).toEqual(['BRL', 'CLP', 'COP', 'MXN']);
	});

	it.each(['BRL', 'CLP', 'COP', 'MXN', 'mxn'])('accepts the card currency %s', (currency) => {
		expect(checkoutSchema.parse(checkout(currency)).currency).toBe(currency.toUpperCase());
	});

	it.each(['USD', 'EUR'])(
		'refuses %s, which cards do not take, and says which ones do',
		(currency) => {
			const result = checkoutSchema.safeParse(checkout(currency));
			expect(result.success).toBe(false);
			expect(result.error?.issues).toEqual([
				expect.objectContaining({
					path: ['currency'],
					message: `is ${currency}; use one of BRL, CLP, COP, MXN`,
				}),
			]);
		},
	);
});
