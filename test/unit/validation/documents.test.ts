import {
	checkCnpj,
	checkColombianId,
	checkCpf,
	checkCurp,
	checkDocumentNumber,
	checkNit,
	checkPassport,
	checkRfc,
	checkRfcPerson,
	checkRut,
	checkTaxId,
	PERSON_DOCUMENT_TYPES,
	stripDocumentPunctuation,
} from '../../../nodes/FacilitaPay/validation/documents';

describe('stripDocumentPunctuation', () => {
	it.each([
		['390.533.447-05', '39053344705', true],
		['12.ABC.345/01de-35', '12ABC34501DE35', true],
		[' 390 533 447 05 ', '39053344705', true],
		['39053344705', '39053344705', false],
		['boxw310820hnerxn09', 'BOXW310820HNERXN09', false],
		['', '', false],
	])('%j becomes %j (stripped: %j)', (raw, value, stripped) => {
		expect(stripDocumentPunctuation(raw)).toEqual({ value, stripped });
	});

	it.each([
		['ſ', 'ſ'],
		['ß', 'ß'],
		['ﬁ', 'ﬁ'],
		['ı', 'ı'],
		['ñ', 'Ñ'],
		['abcñ', 'ABCÑ'],
	])(
		'upper-cases ASCII letters (and ñ, a letter of Mexican documents) only: %j stays %j',
		(raw, value) => {
			expect(stripDocumentPunctuation(raw).value).toBe(value);
		},
	);
});

describe('letters that Unicode upper-casing would turn into other letters', () => {
	it('refuses a CNPJ typed with "ſ" (which would become "S") instead of checking another number', () => {
		// 12ABC34501DE35 is valid; an "S" CNPJ built from "ſ" must not pass as something else
		const result = checkCnpj('12ABC3450ſDE35');
		expect(result).toEqual({ ok: false, reason: expect.stringContaining('"ſ"') });
	});

	it('refuses a CURP typed with "ß" (which would become "SS")', () => {
		expect(checkCurp('BOXW310820HNERXN09'.slice(0, 13) + 'ß' + 'XN09').ok).toBe(false);
	});

	it('refuses an RFC typed with "ſ"', () => {
		expect(checkRfcPerson('BOXW310820Aſ1')).toEqual({
			ok: false,
			reason: expect.stringContaining('RFC'),
		});
	});

	it('accepts "ñ" in an RFC as "Ñ"', () => {
		expect(checkRfcPerson('ño&a800101xy9')).toEqual({ ok: true, value: 'ÑO&A800101XY9' });
	});
});

describe('checkCpf', () => {
	it.each([
		['39053344705', '39053344705'],
		['70590071050', '70590071050'],
		['390.533.447-05', '39053344705'],
		[' 705 900 710 50 ', '70590071050'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkCpf(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['23100299900', 'check digits do not match: this is not a valid CPF'],
		['39053344704', 'check digits do not match: this is not a valid CPF'],
		['11111111111', 'has all digits equal: this is not a valid CPF'],
		['00000000000', 'has all digits equal: this is not a valid CPF'],
		['3905334470', 'has 10 digits; a CPF has 11 digits'],
		['390533447051', 'has 12 digits; a CPF has 11 digits'],
		['', 'is empty; enter the 11 digits of the CPF'],
		['   ', 'is empty; enter the 11 digits of the CPF'],
		['3905334470a', 'contains "A"; a CPF has digits only (11 digits)'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkCpf(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkCnpj', () => {
	it.each([
		['16727230000197', '16727230000197'],
		['16.727.230/0001-97', '16727230000197'],
		['12ABC34501DE35', '12ABC34501DE35'],
		['12.abc.345/01de-35', '12ABC34501DE35'],
		['11222333000181', '11222333000181'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkCnpj(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['12ABC34501DE36', 'check digits do not match: this is not a valid CNPJ'],
		['16727230000198', 'check digits do not match: this is not a valid CNPJ'],
		['00000000000000', 'has all characters equal: this is not a valid CNPJ'],
		['1672723000019', 'has 13 characters; a CNPJ has 14 characters'],
		[
			'12ABC34501DE3A',
			'ends with a letter; the last 2 characters of a CNPJ (its check digits) are digits',
		],
		['', 'is empty; enter the 14 characters of the CNPJ'],
		['12ABC34501DE3*', 'contains "*"; a CNPJ has only letters A to Z and digits'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkCnpj(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkCurp', () => {
	it.each([
		['BOXW310820HNERXN09', 'BOXW310820HNERXN09'],
		['boxw310820hnerxn09', 'BOXW310820HNERXN09'],
		[' BOXW-310820-HNERXN09 ', 'BOXW310820HNERXN09'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkCurp(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['BOXW310820HNERXN08', 'check digit does not match: this is not a valid CURP'],
		['BOXW310820HNERXN0', 'has 17 characters; a CURP has 18 characters'],
		['', 'is empty; enter the 18 characters of the CURP'],
		[
			'BBXW310820HNERXN09',
			'does not start with 4 letters (the second a vowel or X) as a CURP does',
		],
		['BOXW311320HNERXN09', 'characters 5 to 10 are not a birth date written YYMMDD as in a CURP'],
		['BOXW310832HNERXN09', 'characters 5 to 10 are not a birth date written YYMMDD as in a CURP'],
		['BOXW310820FNERXN09', 'character 11 must be H, M or X in a CURP'],
		[
			'BOXW310820HXXRXN09',
			'characters 12 and 13 are not a Mexican state code (e.g. DF, JC, NL, or NE for born abroad)',
		],
		['BOXW310820HNEAXN09', 'characters 14 to 16 must be consonants in a CURP'],
		[
			'BOXW310820HNERXNA9'.slice(0, 17) + 'A',
			'the last 2 characters do not have the shape of a CURP (a letter or digit, then a digit)',
		],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkCurp(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkRfcPerson', () => {
	it.each([
		['BOXW310820AB1', undefined, 'BOXW310820AB1'],
		['boxw-310820-ab1', undefined, 'BOXW310820AB1'],
		['BOXW310820AB1', 'BOXW310820HNERXN09', 'BOXW310820AB1'],
		['BOXW310820ABA', '', 'BOXW310820ABA'],
		['ÑO&A800101XY9', undefined, 'ÑO&A800101XY9'],
	])('accepts %j (CURP %j) as %j', (raw, curp, value) => {
		expect(checkRfcPerson(raw, curp)).toEqual({ ok: true, value });
	});

	it.each([
		['BOXW310820AB', undefined, 'has 12 characters; the RFC of a person has 13 characters'],
		['', undefined, 'is empty; enter the 13 characters of the RFC'],
		[
			'BOX1310820AB1',
			undefined,
			"does not have the shape of a person's RFC: 4 letters, 6 digits of birth date (YYMMDD), 2 letters or digits, then a digit or A",
		],
		[
			'BOXW310820ABB',
			undefined,
			"does not have the shape of a person's RFC: 4 letters, 6 digits of birth date (YYMMDD), 2 letters or digits, then a digit or A",
		],
		[
			'BOXA310820AB1',
			'BOXW310820HNERXN09',
			'its first 10 characters (BOXA310820) differ from the first 10 of the CURP (BOXW310820); they must be equal',
		],
	])('rejects %j (CURP %j): %s', (raw, curp, reason) => {
		expect(checkRfcPerson(raw, curp)).toEqual({ ok: false, reason });
	});
});

describe('checkRfc', () => {
	it.each([
		['ABC800101XY9', 'ABC800101XY9'],
		['BOXW310820AB1', 'BOXW310820AB1'],
	])('accepts a company or person RFC %j', (raw, value) => {
		expect(checkRfc(raw)).toEqual({ ok: true, value });
	});

	it.each(['AB800101XY9', 'AB1800101XY9', 'BOXW310820AB1X'])('rejects %j', (raw) => {
		expect(checkRfc(raw).ok).toBe(false);
	});

	it.each([
		[
			'ABC801301XY9',
			'has 801301 where its date of incorporation goes (YYMMDD), which is not a date',
		],
		[
			'ABC810229XY9',
			'has 810229 where its date of incorporation goes (YYMMDD), which is not a date',
		],
		['BOXW310931AB1', 'has 310931 where its birth date goes (YYMMDD), which is not a date'],
	])('rejects %j, whose date digits are no date: %s', (raw, reason) => {
		expect(checkRfc(raw)).toEqual({ ok: false, reason: `${reason}; check the RFC` });
	});

	it('takes 29 February of a year divisible by 4', () => {
		expect(checkRfc('ABC000229XY9')).toEqual({ ok: true, value: 'ABC000229XY9' });
	});
});

describe('checkColombianId', () => {
	it.each([
		['123456', '123456'],
		['1234567890', '1234567890'],
		['1.020.304.050', '1020304050'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkColombianId(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['12345', 'has 5 digits; a Colombian CC or CE has 6 to 10 digits'],
		['12345678901', 'has 11 digits; a Colombian CC or CE has 6 to 10 digits'],
		['', 'is empty; enter the 6 to 10 digits of the Colombian CC or CE'],
		['12345A', 'contains "A"; a Colombian CC or CE has digits only (6 to 10 digits)'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkColombianId(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkNit', () => {
	it.each([
		['900123456', '900123456'],
		['900.123.456-8', '9001234568'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkNit(raw)).toEqual({ ok: true, value });
	});

	it.each(['12345', '123456789012', 'NIT900123', ''])('rejects %j', (raw) => {
		expect(checkNit(raw).ok).toBe(false);
	});

	it.each([
		['890.903.938-8', '8909039388'],
		['860034313-7', '8600343137'],
		['8001972684', '8001972684'],
		['1020304050', '1020304050'],
		['52.345.678', '52345678'],
	])('accepts %j, whose verification digit is DIAN’s where it can be told apart', (raw, value) => {
		expect(checkNit(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['900.123.456-7', 'the NIT 900123456 has DV 8, not 7'],
		['8909039381', 'the NIT 890903938 has DV 8, not 1'],
		['1234567-0', 'the NIT 1234567 has DV 2, not 0'],
	])('rejects %j: a verification digit that is not DIAN’s (%s)', (raw, detail) => {
		expect(checkNit(raw)).toEqual({
			ok: false,
			reason: `verification digit does not match: ${detail}; check the number`,
		});
	});
});

describe('checkRut', () => {
	it.each([
		['123456785', '123456785'],
		['12.345.678-5', '123456785'],
		['11111111-1', '111111111'],
		['76086428-5', '760864285'],
		['10000013-K', '10000013K'],
		['10000013-k', '10000013K'],
		['1000005-K', '1000005K'],
		['1000000-9', '10000009'],
		['10000004-0', '100000040'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkRut(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['123456784', 'check digit does not match: this is not a valid RUT'],
		['12345678K', 'check digit does not match: this is not a valid RUT'],
		['10000013-0', 'check digit does not match: this is not a valid RUT'],
		['', 'is empty; enter the RUT, e.g. 12345678-5'],
		['123456-7', 'has 7 characters; a RUT has 8 or 9 (7 or 8 digits plus the check digit or K)'],
		['1234567890', 'has 10 characters; a RUT has 8 or 9 (7 or 8 digits plus the check digit or K)'],
		['K2345678-5', 'must be digits followed by a check digit or K, e.g. 12345678-5 or 7654321-K'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkRut(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkPassport', () => {
	it.each([
		['FX123456', 'FX123456'],
		['fx 123456', 'FX123456'],
		['12345', '12345'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkPassport(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter the passport number'],
		['1234', 'has 4 characters; a passport number has 5 to 20'],
		['FX#123456', 'contains "#"; a passport number has only letters and digits'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkPassport(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkTaxId', () => {
	it.each([
		['12-3456789', '123456789'],
		['DE123456789', 'DE123456789'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkTaxId(raw)).toEqual({ ok: true, value });
	});

	it.each(['', '123', 'A'.repeat(31), 'AB_1234'])('rejects %j', (raw) => {
		expect(checkTaxId(raw).ok).toBe(false);
	});
});

describe('checkDocumentNumber', () => {
	it.each([
		['cpf', '390.533.447-05', '39053344705'],
		['CPF', '39053344705', '39053344705'],
		[' cnpj ', '12ABC34501DE35', '12ABC34501DE35'],
		['curp', 'BOXW310820HNERXN09', 'BOXW310820HNERXN09'],
		['cc', '1020304050', '1020304050'],
		['ce', '123456', '123456'],
		['rut', '12345678-5', '123456785'],
		['passport', 'FX123456', 'FX123456'],
		['rfc', 'BOXW310820AB1', 'BOXW310820AB1'],
		['tax_id', '12-3456789', '123456789'],
		['nit', '900123456', '900123456'],
	])('type %j accepts %j as %j', (type, raw, value) => {
		expect(checkDocumentNumber(type, raw)).toEqual({ ok: true, value });
	});

	it.each([
		['cpf', '23100299900', 'check digits do not match: this is not a valid CPF'],
		['cnpj', '12ABC34501DE36', 'check digits do not match: this is not a valid CNPJ'],
		['curp', 'BOXW310820HNERXN08', 'check digit does not match: this is not a valid CURP'],
		['rut', '123456784', 'check digit does not match: this is not a valid RUT'],
		['cc', '12345', 'has 5 digits; a Colombian CC or CE has 6 to 10 digits'],
	])('type %j rejects %j', (type, raw, reason) => {
		expect(checkDocumentNumber(type, raw)).toEqual({ ok: false, reason });
	});

	it('names the accepted types when the type is unknown', () => {
		expect(checkDocumentNumber('dni', '12345678')).toEqual({
			ok: false,
			reason:
				'cannot be checked because the document type "dni" is unknown; use one of cc, ce, cnpj, cpf, curp, nit, passport, rfc, rut, tax_id',
		});
	});

	it('knows every person document type', () => {
		for (const type of PERSON_DOCUMENT_TYPES) {
			expect(checkDocumentNumber(type, '').ok).toBe(false);
			expect(
				checkDocumentNumber(type, '').ok === false && checkDocumentNumber(type, ''),
			).not.toMatchObject({
				reason: expect.stringContaining('unknown'),
			});
		}
	});
});
