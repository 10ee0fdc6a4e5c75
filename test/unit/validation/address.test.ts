import {
	BRAZILIAN_STATES,
	checkBrazilianState,
	checkCep,
	checkCountryCode2,
	checkPhoneCountryCode,
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

describe('checkCountryCode2', () => {
	it.each([
		['BR', 'BR'],
		[' mx ', 'MX'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkCountryCode2(raw)).toEqual({ ok: true, value });
	});

	it.each(['', 'B', 'BRA', 'B1', 'Brazil'])('rejects %j', (raw) => {
		expect(checkCountryCode2(raw).ok).toBe(false);
	});
});

describe('checkPhoneCountryCode', () => {
	it.each([
		['55', '55'],
		['+55', '55'],
		['0055', '55'],
		[' 52 ', '52'],
		['1', '1'],
		['+351', '351'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkPhoneCountryCode(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter the country calling code, e.g. 55 for Brazil'],
		['BR', 'must contain digits only; enter the country calling code, e.g. 55 for Brazil'],
		['5555', expect.stringContaining('is not a country calling code')],
		['05', expect.stringContaining('is not a country calling code')],
	])('rejects %j', (raw, reason) => {
		expect(checkPhoneCountryCode(raw)).toEqual({ ok: false, reason });
	});
});
