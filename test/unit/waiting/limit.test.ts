import {
	atTimeOf,
	bankHolidays,
	easter,
	endOfBusinessDaysAfter,
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
			'boleto due Thursday 3 Jan 2030: the end of Tuesday 8 Jan in Brazil (3 business days) + 10 min',
			{ from_boleto: { expire_at: '2030-01-03' } },
			Date.parse('2030-01-09T02:59:59.999Z') + 10 * MIN,
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

describe('a boleto’s confirmation in Brazil’s calendar (3 business days after its due date)', () => {
	test.each([
		[2024, { month: 3, day: 31 }],
		[2025, { month: 4, day: 20 }],
		[2026, { month: 4, day: 5 }],
		[2030, { month: 4, day: 21 }],
	])('Easter %i', (year, day) => {
		expect(easter(year)).toEqual(day);
	});

	test('2026’s bank holidays include Carnival (16, 17 Feb), Good Friday (3 Apr), Corpus Christi (4 Jun), 20 Nov and 31 Dec', () => {
		const days = bankHolidays(2026);
		for (const day of ['02-16', '02-17', '04-03', '06-04', '11-20', '12-31', '01-01', '04-21'])
			expect(days.has(day)).toBe(true);
		expect(days.has('02-18')).toBe(false);
	});

	test.each([
		// Friday 13 Feb 2026: Mon 16 and Tue 17 are Carnival → Wed 18, Thu 19, Fri 20.
		['2026-02-13', '2026-02-21T02:59:59.999Z'],
		// Wednesday 1 Apr 2026: Thu 2, (Good Friday 3), Mon 6, Tue 7.
		['2026-04-01', '2026-04-08T02:59:59.999Z'],
		// Tuesday 29 Dec 2026: Wed 30, (31, 1 Jan), Mon 4, Tue 5.
		['2026-12-29', '2027-01-06T02:59:59.999Z'],
		// A due date with a time: its day (UTC date of the timestamp).
		['2026-03-02T00:00:00Z', '2026-03-06T02:59:59.999Z'],
	])('due %s → confirmed by %s', (due, end) => {
		expect(endOfBusinessDaysAfter(due, 3)).toBe(Date.parse(end));
	});

	test('an unreadable due date is no expiry', () => {
		expect(endOfBusinessDaysAfter('soon', 3)).toBeUndefined();
	});
});

describe('“At a Time” in the workflow’s time zone', () => {
	test('a time without a zone (the date picker’s) is read in the workflow’s zone, not the server’s', () => {
		expect(atTimeOf('2030-01-01T12:03:00', 'America/Sao_Paulo')).toBe(
			Date.parse('2030-01-01T15:03:00Z'),
		);
		expect(atTimeOf('2030-01-01 12:03:00', 'America/Sao_Paulo')).toBe(
			Date.parse('2030-01-01T15:03:00Z'),
		);
		expect(atTimeOf('2030-01-01T12:03:00', 'UTC')).toBe(Date.parse('2030-01-01T12:03:00Z'));
	});

	test('a time with a zone, a Date or a DateTime: as given', () => {
		expect(atTimeOf('2030-01-01T12:03:00Z', 'America/Sao_Paulo')).toBe(
			Date.parse('2030-01-01T12:03:00Z'),
		);
		expect(atTimeOf('2030-01-01T12:03:00+01:00', 'America/Sao_Paulo')).toBe(
			Date.parse('2030-01-01T11:03:00Z'),
		);
		expect(atTimeOf(new Date(NOW), 'America/Sao_Paulo')).toBe(NOW);
		expect(atTimeOf({ toMillis: () => NOW }, 'America/Sao_Paulo')).toBe(NOW);
	});

	test('nothing, or not a time: NaN (refused as “is not a date and time”)', () => {
		expect(atTimeOf('', 'UTC')).toBeNaN();
		expect(atTimeOf('tomorrow', 'UTC')).toBeNaN();
		expect(atTimeOf(undefined, 'UTC')).toBeNaN();
	});
});
