import { crc16, buildDynamicBrCode, parseBrCode } from '../../sandbox/brcode.mjs';
import {
	barcodeDv,
	mod10,
	barcodeToDigitalLine,
	digitalLineToBarcode,
	buildBarcode,
	dueFactor,
} from '../../sandbox/boleto.mjs';
import {
	isValidCpf,
	isValidCnpj,
	isValidCurp,
	isValidRut,
	documentNumberError,
} from '../../sandbox/validation.mjs';
import { renderPdf } from '../../sandbox/pdf.mjs';
import { addPeriods, dueDate } from '../../sandbox/domain/subscriptions/schedule.mjs';
import { convert } from '../../sandbox/money.mjs';

describe('BR Code', () => {
	test('CRC-16/CCITT-FALSE of "123456789" is 29B1', () => {
		expect(crc16('123456789')).toBe('29B1');
	});

	test('a dynamic code starts with 000201, is single-use (01=12) and ends with its own correct CRC', () => {
		const code = buildDynamicBrCode({
			location: '127.0.0.1:4010/_sandbox/pix/abc',
			value: '10.50',
			reference: 'abc',
		});
		const { fields, crcOk } = parseBrCode(code);
		expect(code.startsWith('000201010212')).toBe(true);
		expect(fields['26']).toBe('0014br.gov.bcb.pix2531127.0.0.1:4010/_sandbox/pix/abc');
		expect(fields['53']).toBe('986');
		expect(fields['58']).toBe('BR');
		expect(fields['54']).toBe('10.50');
		expect(code.slice(-8, -4)).toBe('6304');
		expect(crcOk).toBe(true);
	});
});

describe('boleto check digits (the service’s published test vectors)', () => {
	const line = '34191090086357127730871444640008581960000000062';
	const bar = '34195819600000000621090063571277307144464000';

	test('the digital line maps to the bar code and back', () => {
		expect(digitalLineToBarcode(line)).toBe(bar);
		expect(barcodeToDigitalLine(bar)).toBe(line);
	});

	test('the bar code DV (position 5) is the mod-11 of the other 43 digits', () => {
		expect(barcodeDv(bar.slice(0, 4) + bar.slice(5))).toBe(Number(bar[4]));
	});

	test("each of the line's first three fields ends with its mod-10 DV", () => {
		expect(mod10(line.slice(0, 9))).toBe(Number(line[9]));
		expect(mod10(line.slice(10, 20))).toBe(Number(line[20]));
		expect(mod10(line.slice(21, 31))).toBe(Number(line[31]));
	});

	test('a generated bar code has 44 digits, a valid DV and the value in cents', () => {
		const b = buildBarcode({
			expireAt: '2025-03-20',
			cents: 12345n,
			freeField: '1234567890123456789012345',
		});
		expect(b).toMatch(/^\d{44}$/);
		expect(barcodeDv(b.slice(0, 4) + b.slice(5))).toBe(Number(b[4]));
		expect(b.slice(9, 19)).toBe('0000012345');
		expect(b.slice(5, 9)).toBe(dueFactor('2025-03-20'));
	});

	test('the due factor restarts at 1000 on 2025-02-22', () => {
		expect(dueFactor('2025-02-21')).toBe('9999');
		expect(dueFactor('2025-02-22')).toBe('1000');
	});
});

describe('document numbers', () => {
	test.each([
		['39053344705', true],
		['70590071050', true],
		['23100299900', false],
		['11111111111', false],
		['3905334470', false],
	])('CPF %s valid=%s', (v, ok) => expect(isValidCpf(v)).toBe(ok));
	test.each([
		['16727230000197', true],
		['12ABC34501DE35', true],
		['12ABC34501DE36', false],
	])('CNPJ %s valid=%s', (v, ok) => expect(isValidCnpj(v)).toBe(ok));
	test.each([
		['BOXW310820HNERXN09', true],
		['BOXW310820HNERXN08', false],
		['BOXW310820HNERX', false],
	])('CURP %s valid=%s', (v, ok) => expect(isValidCurp(v)).toBe(ok));
	test.each([
		['123456785', true],
		['123456784', false],
		['12345678K', false],
	])('RUT %s valid=%s', (v, ok) => expect(isValidRut(v)).toBe(ok));
	test('dots and dashes are rejected whatever the type', () => {
		expect(documentNumberError('cpf', '390.533.447-05')).toMatch(/without dots, dashes/);
		expect(documentNumberError('rut', '12345678-5')).toMatch(/without dots, dashes/);
	});
	test('CC and CE take 6 to 10 digits; a passport only needs to be present', () => {
		expect(documentNumberError('cc', '123456')).toBeNull();
		expect(documentNumberError('ce', '12345678901')).toMatch(/6 to 10/);
		expect(documentNumberError('passport', 'X1234567')).toBeNull();
		expect(documentNumberError('passport', '')).toBe("can't be blank");
	});
});

describe('schedule arithmetic', () => {
	test('month-end rule: Jan 31 → Feb 28 → Mar 31 (reverts to the original day)', () => {
		expect(addPeriods('2025-01-31', 'month', 1)).toBe('2025-02-28');
		expect(addPeriods('2025-01-31', 'month', 2)).toBe('2025-03-31');
		expect(addPeriods('2024-01-31', 'month', 1)).toBe('2024-02-29');
		expect(addPeriods('2025-08-31', 'semester', 1)).toBe('2026-02-28');
	});
	test('trial days delay only the first invoice; free days shift the whole schedule', () => {
		const base = { start_date: '2025-03-10', frequency: 'month', trial_days: 0, free_days: 0 };
		expect(dueDate({ ...base, trial_days: 7 }, 0)).toBe('2025-03-17');
		expect(dueDate({ ...base, trial_days: 7 }, 1)).toBe('2025-04-10');
		expect(dueDate({ ...base, free_days: 7 }, 0)).toBe('2025-03-17');
		expect(dueDate({ ...base, free_days: 7 }, 1)).toBe('2025-04-17');
	});
});

test('the PDF is a real PDF with an xref table', () => {
	const pdf = renderPdf(['hello']).toString('latin1');
	expect(pdf.startsWith('%PDF-1.4')).toBe(true);
	const xref = Number(/startxref\n(\d+)/.exec(pdf)[1]);
	expect(pdf.slice(xref, xref + 4)).toBe('xref');
	expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
});

test('sandbox exchange rates are fixed: 100.00 USD = 500.00 BRL', () => {
	expect(convert('100.00', 'USD', 'BRL')).toBe('500.00');
	expect(convert('500.00', 'BRL', 'USD')).toBe('100.00');
});
