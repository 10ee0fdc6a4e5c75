import {
	defaultLimit,
	limitOf,
	limitProblem,
	chargeExpiry,
} from '../../../nodes/FacilitaPay/waiting';

const NOW = Date.parse('2030-01-01T12:00:00Z');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

describe('the default limit: the charge’s own expiry plus a margin', () => {
	test.each([
		[
			'dynamic PIX',
			{ meta: { dynamic_pix_due_date: '2030-01-01T13:00:00Z' } },
			Date.parse('2030-01-01T13:10:00Z'),
		],
		[
			'dynamic PIX, zoneless timestamp (UTC)',
			{ meta: { dynamic_pix_due_date: '2030-01-01T13:00:00.123456' } },
			Date.parse('2030-01-01T13:10:00.123Z'),
		],
		[
			'boleto: due date, end of day, + 5 days',
			{ from_boleto: { expire_at: '2030-01-03' } },
			Date.parse('2030-01-04T00:00:00Z') + 5 * DAY,
		],
		[
			'dynamic CLABE',
			{ from_spei: { expires_at: '2030-01-31T12:00:00Z' } },
			Date.parse('2030-01-31T12:10:00Z'),
		],
		[
			'dynamic CLABE (payment_info)',
			{ payment_info: { expires_at: '2030-01-31T12:00:00Z' } },
			Date.parse('2030-01-31T12:10:00Z'),
		],
		[
			'PSE: created + 21 min + 10',
			{ from_pse: { payment_url: 'x' }, inserted_at: '2030-01-01T12:00:00Z' },
			NOW + 31 * MIN,
		],
		['card payment (no expiry): 24 h', { from_credit_card: { id: 'c' } }, NOW + DAY],
	])('%s', (_name, transaction, expected) => {
		expect(defaultLimit(transaction, NOW)).toBe(expected);
	});

	test('a checkout (no transaction to read): 24 h', () => {
		expect(defaultLimit(undefined, NOW)).toBe(NOW + DAY);
	});

	test('an expiry already past: at least a minute, so one last read decides', () => {
		expect(defaultLimit({ meta: { dynamic_pix_due_date: '2029-12-31T00:00:00Z' } }, NOW)).toBe(
			NOW + MIN,
		);
	});

	test('an unreadable expiry is no expiry', () => {
		expect(chargeExpiry({ meta: { dynamic_pix_due_date: 'soon' } })).toBeUndefined();
	});
});

describe('the limits a user sets', () => {
	test.each([
		[{ type: 'afterInterval' as const, amount: 30, unit: 'minutes' as const }, NOW + 30 * MIN],
		[{ type: 'afterInterval' as const, amount: 2, unit: 'hours' as const }, NOW + 120 * MIN],
		[{ type: 'afterInterval' as const, amount: 3, unit: 'days' as const }, NOW + 3 * DAY],
		[{ type: 'atTime' as const, at: NOW + 5 * MIN }, NOW + 5 * MIN],
	])('%j', (settings, expected) => {
		expect(limitProblem(settings, NOW)).toBeUndefined();
		expect(limitOf(settings, undefined, NOW)).toBe(expected);
	});

	test.each([
		[
			{ type: 'afterInterval' as const, amount: 0, unit: 'minutes' as const },
			'must be a number above 0',
		],
		[
			{ type: 'afterInterval' as const, amount: Number.NaN, unit: 'minutes' as const },
			'must be a number above 0',
		],
		[
			{ type: 'afterInterval' as const, amount: 32, unit: 'days' as const },
			'is longer than 31 days',
		],
		[{ type: 'atTime' as const, at: NOW - 1 }, 'is in the past'],
		[{ type: 'atTime' as const, at: Number.NaN }, 'is not a date and time'],
		[{ type: 'atTime' as const, at: NOW + 40 * DAY }, 'is more than 31 days ahead'],
	])('%j is refused: %s', (settings, problem) => {
		expect(limitProblem(settings, NOW)).toBe(problem);
	});
});
