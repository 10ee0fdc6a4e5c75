import {
	CHALLENGE_WINDOW_SIZES,
	checkCardNumber,
	checkCardNumberForPayment,
	checkFullName,
	checkSecurityCode,
	maskCardNumber,
	MCC_CODES,
	passesLuhn,
	truncateSoftDescriptor,
} from '../../../nodes/FacilitaPay/validation/card';

describe('checkCardNumber', () => {
	it.each([
		['4111111111111111', '4111111111111111'],
		['4111 1111 1111 1111', '4111111111111111'],
		['4111-1111-1111-1111', '4111111111111111'],
		['4222222222222', '4222222222222'],
		['6062825624254001234', '6062825624254001234'],
		// Fails the Luhn check on purpose: sandbox test cards may, and the spec does not ask for it.
		['4111111111111112', '4111111111111112'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkCardNumber(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter the card number'],
		['411111111111', 'has 12 digits; a card number has at least 13 digits'],
		['41111111111111111111', 'has 20 digits; a card number has at most 19 digits'],
		[
			'4111.1111.1111.1111',
			'contains characters other than digits; enter only the digits of the card number',
		],
		[
			'4111x111111111111',
			'contains characters other than digits; enter only the digits of the card number',
		],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkCardNumber(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkCardNumberForPayment (a card charged once: the Luhn check digit too)', () => {
	it.each([
		['4111 1111 1111 1111', '4111111111111111'],
		['5555555555554444', '5555555555554444'],
		['378282246310005', '378282246310005'],
		['4000000000000002', '4000000000000002'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkCardNumberForPayment(raw)).toEqual({ ok: true, value });
	});

	it.each([
		[
			'4111111111111112',
			'is not a valid card number: its check digit does not match (Luhn); check the digits as printed on the card',
		],
		['411111111111', 'has 12 digits; a card number has at least 13 digits'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkCardNumberForPayment(raw)).toEqual({ ok: false, reason });
	});

	it('passesLuhn follows the checksum digit by digit', () => {
		expect(passesLuhn('79927398713')).toBe(true);
		expect(passesLuhn('79927398710')).toBe(false);
		expect(passesLuhn('')).toBe(false);
	});
});

describe('checkSecurityCode', () => {
	it.each([
		['123', '123'],
		[' 007 ', '007'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkSecurityCode(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter the 3-digit code printed on the back of the card'],
		['1234', 'has 4 digits; the service accepts a security code of exactly 3 digits'],
		['12', 'has 2 digits; the service accepts a security code of exactly 3 digits'],
		['12a', 'must contain digits only; the security code has 3 digits'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkSecurityCode(raw)).toEqual({ ok: false, reason });
	});
});

describe('no error message repeats a card number or a security code', () => {
	it.each([
		'411111111111',
		'4111 1111 1111',
		'41111111111111111111',
		'4111.1111.1111.1111',
		'4111x111111111111',
		'5555-5555-5555-444a',
	])('card number %j', (raw) => {
		const result = checkCardNumber(raw);
		expect(result.ok).toBe(false);
		const reason = result.ok ? '' : result.reason;
		const digits = raw.replace(/\D/g, '');
		expect(reason).not.toContain(raw);
		expect(reason).not.toContain(digits);
		expect(reason).not.toContain(digits.slice(-4));
		expect(reason).not.toContain(digits.slice(0, 6));
	});

	it.each(['1234', '98', '98x', '45678', '9 8 7'])('security code %j', (raw) => {
		const result = checkSecurityCode(raw);
		expect(result.ok).toBe(false);
		const reason = result.ok ? '' : result.reason;
		expect(reason).not.toContain(raw.trim());
		expect(reason).not.toContain(raw.replace(/\D/g, ''));
	});
});

describe('checkFullName', () => {
	it.each([
		['Maria Silva', 'Maria Silva'],
		['  José   da  Conceição ', 'José da Conceição'],
		['O. Pereira', 'O. Pereira'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkFullName(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter the full name as printed on the card, e.g. Maria Silva'],
		['   ', 'is empty; enter the full name as printed on the card, e.g. Maria Silva'],
		[
			'Maria',
			'is not a full name; enter first and last name as printed on the card, e.g. Maria Silva',
		],
		[
			'Maria 123',
			'is not a full name; enter first and last name as printed on the card, e.g. Maria Silva',
		],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkFullName(raw)).toEqual({ ok: false, reason });
	});
});

describe('maskCardNumber', () => {
	it.each([
		['4111111111111234', '**** **** **** 1234'],
		['4111 1111 1111 1234', '**** **** **** 1234'],
		['4222222221234', '**** **** * 1234'],
		['378282246310005', '**** **** *** 0005'],
		['6062825624254001234', '**** **** **** *** 1234'],
		['1234', '****'],
		['', ''],
	])('masks %j as %j', (raw, masked) => {
		expect(maskCardNumber(raw)).toBe(masked);
	});
});

describe('option lists', () => {
	it('has the challenge window sizes of the spec, sorted', () => {
		expect(CHALLENGE_WINDOW_SIZES).toEqual([
			'250x400',
			'390x400',
			'500x600',
			'600x400',
			'fullPage',
		]);
	});

	it('has the merchant category codes of the spec, sorted', () => {
		expect(MCC_CODES).toEqual(['4722', '5045', '5065', '5947', '7372', '8299', '8999']);
	});
});

describe('truncateSoftDescriptor', () => {
	it.each([
		['MYSHOP', 'MYSHOP', false],
		['  MYSHOP  ', 'MYSHOP', false],
		['ABCDEFGHIJKLM', 'ABCDEFGHIJKLM', false],
		['ABCDEFGHIJKLMN', 'ABCDEFGHIJKLM', true],
		['Loja da Conceição Ltda', 'Loja da Conce', true],
		['Açaí do João Ltda', 'Açaí do João', true],
		['', '', false],
	])('%j becomes %j (truncated: %j)', (raw, value, truncated) => {
		expect(truncateSoftDescriptor(raw)).toEqual({ value, truncated });
	});
});
