import {
	checkBrazilianAccountNumber,
	checkBrazilianBankCode,
	checkBrazilianBranchNumber,
	checkBrazilianOwnerDocument,
} from '../../../nodes/FacilitaPay/validation/bankAccount';

describe('checkBrazilianBankCode', () => {
	it.each([['001'], [' 341 '], ['237']])('accepts %p', (raw) => {
		expect(checkBrazilianBankCode(raw)).toEqual({ ok: true, value: raw.trim() });
	});
	it.each([
		['', /is empty/],
		['1', /has 1 digit; .* exactly 3 digits \(write 1 as 001\)/],
		['0001', /has 4 digits/],
		['34A', /digits only/],
		['3-41', /digits only/],
	])('refuses %p', (raw, reason) => {
		const result = checkBrazilianBankCode(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});
});

describe('checkBrazilianBranchNumber', () => {
	it.each([['1'], ['0001'], ['12345']])('accepts %p', (raw) => {
		expect(checkBrazilianBranchNumber(raw)).toEqual({ ok: true, value: raw });
	});
	it.each([
		['', /is empty/],
		['1234-5', /digits only/],
		['12 34', /digits only/],
		['123456', /has 6 digits; .* at most 5/],
	])('refuses %p', (raw, reason) => {
		const result = checkBrazilianBranchNumber(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});
});

describe('checkBrazilianAccountNumber', () => {
	it.each([
		['123456', '123456'],
		['12345-6', '12345-6'],
		['12345-x', '12345-X'],
		['12345678901234567890', '12345678901234567890'],
	])('accepts %p as %p', (raw, value) => {
		expect(checkBrazilianAccountNumber(raw)).toEqual({ ok: true, value });
	});
	it.each([
		['', /is empty/],
		['12.345-6', /digits only/],
		['12345-67', /digits only/],
		['-6', /digits only/],
		['123456789012345678901', /has 21 digits; .* at most 20/],
	])('refuses %p', (raw, reason) => {
		const result = checkBrazilianAccountNumber(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});
});

describe('checkBrazilianOwnerDocument', () => {
	it.each([
		['390.533.447-05', '39053344705'],
		['16.727.230/0001-97', '16727230000197'],
		['12ABC34501DE35', '12ABC34501DE35'],
	])('accepts %p as %p', (raw, value) => {
		expect(checkBrazilianOwnerDocument(raw)).toEqual({ ok: true, value });
	});
	it.each([
		['', /is empty/],
		['23100299900', /check digits do not match: this is not a valid CPF/],
		['12ABC34501DE36', /CNPJ/],
		['1234567890', /has 10 characters; .*CPF \(11 digits\) or a CNPJ \(14 characters\)/],
	])('refuses %p', (raw, reason) => {
		const result = checkBrazilianOwnerDocument(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});
});
