import {
	barcodeToDigitalLine,
	checkBoletoBarcode,
	checkDigitalLine,
	digitalLineToBarcode,
} from '../../../nodes/FacilitaPay/validation/boleto';

const LINE = '34191090086357127730871444640008581960000000062';
const BARCODE = '34195819600000000621090063571277307144464000';

describe('checkBoletoBarcode', () => {
	it.each([
		[BARCODE, BARCODE],
		[` ${BARCODE.slice(0, 20)} ${BARCODE.slice(20)} `, BARCODE],
	])('accepts %j', (raw, value) => {
		expect(checkBoletoBarcode(raw)).toEqual({ ok: true, value });
	});

	it.each([
		[
			BARCODE.slice(0, 4) + '6' + BARCODE.slice(5),
			'check digit does not match: this is not a valid boleto barcode (check for a typo)',
		],
		[
			BARCODE.slice(0, 43) + '1',
			'check digit does not match: this is not a valid boleto barcode (check for a typo)',
		],
		[BARCODE.slice(1), 'has 43 digits; a boleto barcode has 44 digits'],
		[
			LINE,
			'has 47 digits, which is a digital line (linha digitável), not a barcode; a barcode has 44 digits',
		],
		['', 'is empty; enter the 44 digits of the boleto barcode'],
		[BARCODE.slice(0, 43) + 'X', 'must contain digits only; a boleto barcode has 44 digits'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkBoletoBarcode(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkDigitalLine', () => {
	it.each([
		[LINE, LINE],
		['34191.09008 63571.277308 71444.640008 5 81960000000062', LINE],
	])('accepts %j', (raw, value) => {
		expect(checkDigitalLine(raw)).toEqual({ ok: true, value });
	});

	const change = (index: number, digit: string): string =>
		LINE.slice(0, index) + digit + LINE.slice(index + 1);

	it.each([
		[
			change(0, '4'),
			'check digit of field 1 (digit 10) does not match: check for a typo in the digital line',
		],
		[
			change(9, '9'),
			'check digit of field 1 (digit 10) does not match: check for a typo in the digital line',
		],
		[
			change(12, '0'),
			'check digit of field 2 (digit 21) does not match: check for a typo in the digital line',
		],
		[
			change(25, '0'),
			'check digit of field 3 (digit 32) does not match: check for a typo in the digital line',
		],
		[
			change(46, '3'),
			'general check digit (digit 33) does not match: check for a typo in the digital line',
		],
		[
			change(32, '6'),
			'general check digit (digit 33) does not match: check for a typo in the digital line',
		],
		[LINE.slice(1), 'has 46 digits; a digital line has 47 digits'],
		[
			BARCODE,
			'has 44 digits, which is a barcode, not a digital line (linha digitável); a digital line has 47 digits',
		],
		['', 'is empty; enter the 47 digits of the digital line'],
		[change(3, 'a'), 'must contain digits only; a digital line has 47 digits'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkDigitalLine(raw)).toEqual({ ok: false, reason });
	});
});

describe('digitalLineToBarcode and barcodeToDigitalLine', () => {
	it('turns the digital line of the example into its barcode', () => {
		expect(digitalLineToBarcode(LINE)).toBe(BARCODE);
		expect(digitalLineToBarcode('34191.09008 63571.277308 71444.640008 5 81960000000062')).toBe(
			BARCODE,
		);
	});

	it('turns the barcode of the example back into its digital line', () => {
		expect(barcodeToDigitalLine(BARCODE)).toBe(LINE);
	});

	it('refuses text of the wrong length', () => {
		expect(() => digitalLineToBarcode('123')).toThrow('A boleto digital line has 47 digits');
		expect(() => barcodeToDigitalLine('123')).toThrow('A boleto barcode has 44 digits');
	});
});
