import {
	BRAZILIAN_STATES,
	checkBrazilianState,
	checkCep,
	checkCountryCode,
	checkPhoneAreaCode,
	checkPhoneCountryCode,
	checkPhoneNumber,
	isWrittenCep,
} from '../../../nodes/FacilitaPay/validation/address';

describe('BRAZILIAN_STATES', () => {
	it('holds the 27 codes of the spec, sorted', () => {
		const spec =
			'AC, AL, AP, AM, BA, CE, DF, ES, GO, MA, MT, MS, MG, PA, PB, PR, PE, PI, RJ, RN, RS, RO, RR, SC, SP, SE, TO';
		expect(BRAZILIAN_STATES).toHaveLength(27);
		expect([...BRAZILIAN_STATES]).toEqual(spec.split(', ').sort());
	});
});

describe('checkBrazilianState', () => {
	it.each([
		['SP', 'SP'],
		[' rj ', 'RJ'],
		['df', 'DF'],
		['TO', 'TO'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkBrazilianState(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter the two-letter code of a Brazilian state, e.g. SP'],
		['XX', expect.stringContaining('is not the code of a Brazilian state; use one of AC, AL,')],
		['São Paulo', expect.stringContaining('e.g. SP for São Paulo')],
		['S', expect.stringContaining('is not the code of a Brazilian state')],
	])('rejects %j', (raw, reason) => {
		expect(checkBrazilianState(raw)).toEqual({ ok: false, reason });
	});

	it.each([
		['ſp', 'a long s that Unicode upper-cases to "S"'],
		['eſ', 'a long s at the end'],
		['ﬀ', 'a ligature that Unicode upper-cases to "FF"'],
		['ſe', 'a long s in front of e (would become "SE")'],
		['Sᴘ', 'a small capital'],
	])('refuses %j (%s) instead of sending another state', (raw) => {
		expect(checkBrazilianState(raw)).toEqual({
			ok: false,
			reason: expect.stringContaining('is not the code of a Brazilian state'),
		});
	});
});

describe('checkCep', () => {
	it.each([
		['01310100', '01310100'],
		['01310-100', '01310100'],
		['01.310-100', '01310100'],
		[' 01310 100 ', '01310100'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkCep(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter the 8 digits of the CEP, e.g. 01310-100'],
		['0131010', 'has 7 digits; a CEP has 8 digits'],
		['013101000', 'has 9 digits; a CEP has 8 digits'],
		['0131O100', 'must contain digits only; a CEP has 8 digits, e.g. 01310-100'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkCep(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkCountryCode', () => {
	it.each([
		['BR', 'BR'],
		[' mx ', 'MX'],
		['BRA', 'BRA'],
		['col', 'COL'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkCountryCode(raw)).toEqual({ ok: true, value });
	});

	it.each(['', 'B', 'BRAZ', 'B1', 'Brazil', 'ſE', 'ﬀ', 'ıT'])('rejects %j', (raw) => {
		expect(checkCountryCode(raw).ok).toBe(false);
	});
});

describe('checkPhoneCountryCode', () => {
	it.each([
		['55', '55'],
		['+55', '55'],
		['0055', '55'],
		[' 52 ', '52'],
		['57', '57'],
		['(56)', '56'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkPhoneCountryCode(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter the country calling code, e.g. 55 for Brazil'],
		['BR', 'must contain digits only; enter the country calling code, e.g. 55 for Brazil'],
		[
			'1',
			'has 1 digit; FacilitaPay takes a country calling code of 2 digits, e.g. 55 for Brazil, 52 for Mexico, 57 for Colombia or 56 for Chile',
		],
		[
			'+351',
			'has 3 digits; FacilitaPay takes a country calling code of 2 digits, e.g. 55 for Brazil, 52 for Mexico, 57 for Colombia or 56 for Chile',
		],
		[
			'5555',
			expect.stringContaining('has 4 digits; FacilitaPay takes a country calling code of 2 digits'),
		],
		['05', expect.stringContaining('starts with 0, which no country calling code does')],
		['٥٥', 'must contain digits only; enter the country calling code, e.g. 55 for Brazil'],
	])('rejects %j', (raw, reason) => {
		expect(checkPhoneCountryCode(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkPhoneAreaCode', () => {
	it.each([
		['11', '11'],
		[' 21 ', '21'],
		['1234', '1234'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkPhoneAreaCode(raw)).toEqual({ ok: true, value });
	});

	it.each(['', '12345', '(11)', '1a'])('refuses %j', (raw) => {
		expect(checkPhoneAreaCode(raw)).toEqual({
			ok: false,
			reason: 'must be 1 to 4 digits, e.g. 11',
		});
	});
});

describe('checkPhoneNumber: the sandbox’s rule, 4 to 15 digits', () => {
	it.each<[string | number, string]>([
		['987654321', '987654321'],
		['(11) 98765-4321', '11987654321'],
		['9876.5432', '98765432'],
		[987654321, '987654321'],
		['1234', '1234'],
	])('%p is sent as %p', (raw, expected) => {
		expect(checkPhoneNumber(raw)).toEqual({ ok: true, value: expected });
	});

	it.each<string | number>([
		'123',
		'1234567890123456',
		'+5511987654321',
		'98765a321',
		9876.5,
		-1,
		'',
	])('%p is refused', (raw) => {
		expect(checkPhoneNumber(raw).ok).toBe(false);
	});
});

describe('isWrittenCep', () => {
	it.each(['01310-100', '01.310-100', ' 01310-100 '])('%p is a CEP by its form', (raw) => {
		expect(isWrittenCep(raw)).toBe(true);
	});
	it.each(['01310100', '1000-100', '06600', '12-345'])('%p is not told by its form', (raw) => {
		expect(isWrittenCep(raw)).toBe(false);
	});
});
