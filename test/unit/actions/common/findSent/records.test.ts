import {
	moneyKey,
	parseServiceTime,
} from '../../../../../nodes/FacilitaPay/actions/common/findSent/records';

describe('moneyKey: amounts compared as money, never as floats', () => {
	it.each([
		['10.50', '10.5'],
		['10.5', '10.5'],
		[10.5, '10.5'],
		['10', '10'],
		['10.00', '10'],
		['010.00', '10'],
		[' 15000 ', '15000'],
		['0.10', '0.1'],
		['0.00', '0'],
		['12345678901234.50', '12345678901234.5'],
		['10,50', undefined],
		['-10.50', undefined],
		['R$ 10.50', undefined],
		[-1, undefined],
		[Number.NaN, undefined],
		[1e21, undefined],
		[null, undefined],
		[undefined, undefined],
	])('%p → %p', (value, key) => {
		expect(moneyKey(value)).toBe(key);
	});
});

describe('parseServiceTime: the times FacilitaPay writes', () => {
	it.each([
		['2025-06-01T12:00:00Z', Date.parse('2025-06-01T12:00:00Z'), true],
		['2025-06-01T12:00:00.123456Z', Date.parse('2025-06-01T12:00:00.123Z'), true],
		['2025-06-01T09:00:00-03:00', Date.parse('2025-06-01T12:00:00Z'), true],
		['2025-06-01T09:00:00-0300', Date.parse('2025-06-01T12:00:00Z'), true],
		['2025-06-01 12:00:00', Date.parse('2025-06-01T12:00:00Z'), false],
		['2025-06-01T12:00:00', Date.parse('2025-06-01T12:00:00Z'), false],
		['2025-06-01T12:00', Date.parse('2025-06-01T12:00:00Z'), false],
		[1748779200, Date.parse('2025-06-01T12:00:00Z'), true],
		[1748779200000, Date.parse('2025-06-01T12:00:00Z'), true],
	])('%p', (value, ms, zoned) => {
		expect(parseServiceTime(value)).toEqual({ ms, zoned });
	});

	it.each([['2025-06-01'], ['yesterday'], ['2025-13-45T99:00:00Z'], [''], [null], [0]])(
		'%p is not a time',
		(value) => {
			expect(parseServiceTime(value)).toBeUndefined();
		},
	);
});
