import { invalid, plural, valid, type Check } from './result';

function digitsOf(raw: string): string {
	return String(raw ?? '').replace(/[\s.-]/g, '');
}

/** Boleto barcode check digit: mod 11 over 43 digits, weights 2..9 from the right; 0, 1, 10, 11 → 1. */
export function boletoBarcodeCheckDigit(digits43: string): number {
	let sum = 0;
	for (let i = 0; i < digits43.length; i++) {
		sum += Number(digits43[digits43.length - 1 - i]) * ((i % 8) + 2);
	}
	const result = 11 - (sum % 11);
	return result === 0 || result === 1 || result >= 10 ? 1 : result;
}

/** Check digit of a digital-line field: mod 10, weights 2,1,2,1… from the right, products' digits added. */
export function mod10CheckDigit(digits: string): number {
	let sum = 0;
	for (let i = 0; i < digits.length; i++) {
		const product = Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 2 : 1);
		sum += product > 9 ? product - 9 : product;
	}
	return (10 - (sum % 10)) % 10;
}

/** The 44-digit boleto barcode (spaces, dots and dashes removed); its 5th digit is a mod-11 check digit. */
export function checkBoletoBarcode(raw: string): Check {
	const value = digitsOf(raw);
	if (value === '') return invalid('is empty; enter the 44 digits of the boleto barcode');
	if (!/^\d+$/.test(value))
		return invalid('must contain digits only; a boleto barcode has 44 digits');
	if (value.length !== 44) {
		return invalid(
			value.length === 47
				? 'has 47 digits, which is a digital line (linha digitável), not a barcode; a barcode has 44 digits'
				: `has ${plural(value.length, 'digit')}; a boleto barcode has 44 digits`,
		);
	}
	if (boletoBarcodeCheckDigit(value.slice(0, 4) + value.slice(5)) !== Number(value[4])) {
		return invalid(
			'check digit does not match: this is not a valid boleto barcode (check for a typo)',
		);
	}
	return valid(value);
}

/**
 * The 47-digit digital line (linha digitável) of a boleto. Each of its first three fields ends with
 * a mod-10 check digit, and the barcode it encodes must have a valid mod-11 check digit.
 */
export function checkDigitalLine(raw: string): Check {
	const value = digitsOf(raw);
	if (value === '') return invalid('is empty; enter the 47 digits of the digital line');
	if (!/^\d+$/.test(value))
		return invalid('must contain digits only; a digital line has 47 digits');
	if (value.length !== 47) {
		return invalid(
			value.length === 44
				? 'has 44 digits, which is a barcode, not a digital line (linha digitável); a digital line has 47 digits'
				: `has ${plural(value.length, 'digit')}; a digital line has 47 digits`,
		);
	}
	const fields: Array<[number, number]> = [
		[0, 9],
		[10, 20],
		[21, 31],
	];
	for (let f = 0; f < fields.length; f++) {
		const [start, checkIndex] = fields[f];
		if (mod10CheckDigit(value.slice(start, checkIndex)) !== Number(value[checkIndex])) {
			return invalid(
				`check digit of field ${f + 1} (digit ${checkIndex + 1}) does not match: check for a typo in the digital line`,
			);
		}
	}
	const barcode = digitalLineToBarcode(value);
	if (boletoBarcodeCheckDigit(barcode.slice(0, 4) + barcode.slice(5)) !== Number(barcode[4])) {
		return invalid(
			'general check digit (digit 33) does not match: check for a typo in the digital line',
		);
	}
	return valid(value);
}

/**
 * Rebuilds the 44-digit barcode from a 47-digit digital line:
 * `L[0:4] + L[32] + L[33:47] + L[4:9] + L[10:20] + L[21:31]`. Spaces, dots and dashes are ignored.
 * Throws an Error when the line does not have 47 digits (check it with checkDigitalLine first).
 */
export function digitalLineToBarcode(line: string): string {
	const l = digitsOf(line);
	if (!/^\d{47}$/.test(l)) throw new Error('A boleto digital line has 47 digits');
	return (
		l.slice(0, 4) + l[32] + l.slice(33, 47) + l.slice(4, 9) + l.slice(10, 20) + l.slice(21, 31)
	);
}

/**
 * The reverse: the 47-digit digital line of a 44-digit barcode, with the three field check digits.
 * Throws an Error when the barcode does not have 44 digits.
 */
export function barcodeToDigitalLine(barcode: string): string {
	const b = digitsOf(barcode);
	if (!/^\d{44}$/.test(b)) throw new Error('A boleto barcode has 44 digits');
	const field1 = b.slice(0, 4) + b.slice(19, 24);
	const field2 = b.slice(24, 34);
	const field3 = b.slice(34, 44);
	return (
		field1 +
		mod10CheckDigit(field1) +
		field2 +
		mod10CheckDigit(field2) +
		field3 +
		mod10CheckDigit(field3) +
		b[4] +
		b.slice(5, 19)
	);
}
