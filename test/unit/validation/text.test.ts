import { checkCurrency } from '../../../nodes/FacilitaPay/validation/amount';
import { checkUuid } from '../../../nodes/FacilitaPay/validation/uuid';
import { checkPixKey } from '../../../nodes/FacilitaPay/validation/pix';
import { checkLabels } from '../../../nodes/FacilitaPay/validation/files';
import { asciiLowerCase, asciiUpperCase } from '../../../nodes/FacilitaPay/validation/text';

describe('ASCII-only case mapping', () => {
	it.each([
		['sp', 'SP'],
		['ſp', 'ſP'],
		['straße', 'STRAßE'],
		['ﬁx', 'ﬁX'],
		['ı', 'ı'],
		['ñ', 'ñ'],
	])('asciiUpperCase(%j) is %j', (raw, value) => {
		expect(asciiUpperCase(raw)).toBe(value);
	});

	it.each([
		['ABC', 'abc'],
		['\u212A', '\u212A'], // Kelvin sign: Unicode lower-cases it to "k"
		['İ', 'İ'],
	])('asciiLowerCase(%j) is %j', (raw, value) => {
		expect(asciiLowerCase(raw)).toBe(value);
	});
});

describe('validators that normalise case refuse letters Unicode would turn into others', () => {
	it('refuses the currency "uſd" instead of sending USD', () => {
		expect(checkCurrency('uſd').ok).toBe(false);
		expect(checkCurrency('usd')).toEqual({ ok: true, value: 'USD' });
	});

	it('keeps a UUID check to ASCII hex digits', () => {
		expect(checkUuid('3F2B8C1E-9D4A-4F6B-8E2A-1C5D7E9F0A1B').ok).toBe(true);
	});

	it('does not change an e-mail PIX key typed with the Kelvin sign into another address', () => {
		const result = checkPixKey('\u212Aate@example.com');
		expect(result.ok && result.value).not.toBe('kate@example.com');
	});

	it('refuses a label typed with the Kelvin sign', () => {
		expect(checkLabels(['\u212Aey']).ok).toBe(false);
	});
});
