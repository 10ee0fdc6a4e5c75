import { addDecimal } from '../../../../nodes/FacilitaPay/actions/common/moneySummary';

describe('money totals are added as decimal strings, never floats', () => {
	it.each([
		['0.10', '0.20', '0.30'],
		['15000', '1', '15001'],
		['999999999999.99', '0.01', '1000000000000.00'],
		['1.5', '0.25', '1.75'],
	])('%s + %s = %s', (a, b, sum) => {
		expect(addDecimal(a, b)).toBe(sum);
	});
});
