/**
 * Boleto bar code (44 digits) and digital line (47 digits) with the FEBRABAN check digits.
 */

/** Mod-11 DV of the bar code over its 43 other digits, weights 2..9 from the right; 0,1,10,11 → 1. */
export function barcodeDv(digits43) {
	let sum = 0;
	let weight = 2;
	for (let index = digits43.length - 1; index >= 0; index--) {
		sum += Number(digits43[index]) * weight;
		weight = weight === 9 ? 2 : weight + 1;
	}
	const dv = 11 - (sum % 11);
	return dv === 0 || dv === 1 || dv === 10 || dv === 11 ? 1 : dv;
}

/** Mod-10 DV of a digital-line field, weights 2,1,2,1… from the right, products above 9 add digits. */
export function mod10(digits) {
	let sum = 0;
	let weight = 2;
	for (let index = digits.length - 1; index >= 0; index--) {
		let product = Number(digits[index]) * weight;
		if (product > 9) product = Math.floor(product / 10) + (product % 10);
		sum += product;
		weight = weight === 2 ? 1 : 2;
	}
	return (10 - (sum % 10)) % 10;
}

/** Due-date factor: days since 1997-10-07, restarting at 1000 after 9999 (from 2025-02-22). */
export function dueFactor(isoDate) {
	const days = Math.round(
		(Date.parse(`${isoDate}T00:00:00Z`) - Date.parse('1997-10-07T00:00:00Z')) / 86400000,
	);
	if (days <= 9999) return String(days).padStart(4, '0');
	return String(((days - 10000) % 9000) + 1000);
}

/**
 * @param {{ bank?: string, expireAt: string, cents: bigint, freeField: string }} options freeField: 25 digits
 */
export function buildBarcode(options) {
	const bank = options.bank ?? '341';
	const value = options.cents.toString().padStart(10, '0').slice(-10);
	const body = `${bank}9${dueFactor(options.expireAt)}${value}${options.freeField}`;
	const dv = barcodeDv(body);
	return body.slice(0, 4) + dv + body.slice(4);
}

/** @param {string} bar 44-digit bar code */
export function barcodeToDigitalLine(bar) {
	const f1 = bar.slice(0, 4) + bar.slice(19, 24);
	const f2 = bar.slice(24, 34);
	const f3 = bar.slice(34, 44);
	return `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${bar[4]}${bar.slice(5, 19)}`;
}

/** @param {string} line 47-digit digital line */
export function digitalLineToBarcode(line) {
	return (
		line.slice(0, 4) +
		line[32] +
		line.slice(33, 47) +
		line.slice(4, 9) +
		line.slice(10, 20) +
		line.slice(21, 31)
	);
}

/** Derives 25 digits from any id, deterministically. */
export function freeFieldFrom(id) {
	const hex = id.replace(/[^0-9a-f]/gi, '');
	let digits = '';
	for (const ch of hex) digits += (parseInt(ch, 16) % 10).toString();
	return (digits + '0'.repeat(25)).slice(0, 25);
}
