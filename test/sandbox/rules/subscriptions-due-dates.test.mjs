// The Schedule rules 1, 3, 4 and 5 of subscriptions (when invoices fall due and are first
// attempted), called on their own (no HTTP, no clock).
import {
	addPeriods,
	attemptTime,
	collectionTime,
	dueDate,
} from '../../../sandbox/domain/subscriptions/schedule.mjs';

const at = (iso) => Date.parse(iso);

describe('rule 1: first attempt at 06:00 UTC on the due date', () => {
	test('the collection time of a date is 06:00 UTC that day', () => {
		expect(new Date(collectionTime('2025-03-10')).toISOString()).toBe('2025-03-10T06:00:00.000Z');
	});

	test.each([
		['before 06:00 on the due date', '2025-03-10T05:59:59Z', '2025-03-10T06:00:00.000Z'],
		['days before the due date', '2025-03-01T12:00:00Z', '2025-03-10T06:00:00.000Z'],
		['at 06:00 exactly', '2025-03-10T06:00:00Z', '2025-03-10T06:00:00.000Z'],
		[
			'after 06:00 (the moment has passed: at once)',
			'2025-03-10T09:30:00Z',
			'2025-03-10T09:30:00.000Z',
		],
		['a day late (at once)', '2025-03-11T00:00:00Z', '2025-03-11T00:00:00.000Z'],
	])('due 2025-03-10, clock %s (%s): the first attempt runs at %s', (_case, now, expected) => {
		expect(new Date(attemptTime(collectionTime('2025-03-10'), at(now))).toISOString()).toBe(
			expected,
		);
	});
});

describe('rule 3: month-end rule (later invoices revert to the original day)', () => {
	test.each([
		['2025-01-31', 'month', ['2025-02-28', '2025-03-31', '2025-04-30', '2025-05-31']],
		['2024-01-31', 'month', ['2024-02-29', '2024-03-31']],
		['2025-01-29', 'month', ['2025-02-28', '2025-03-29']],
		['2025-11-30', 'quarter', ['2026-02-28', '2026-05-30', '2026-08-30', '2026-11-30']],
		['2025-08-31', 'semester', ['2026-02-28', '2026-08-31']],
		['2024-02-29', 'year', ['2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29']],
		['2025-12-15', 'month', ['2026-01-15']],
	])('from %s every %s: %j', (anchor, frequency, expected) => {
		const dates = expected.map((_date, index) => addPeriods(anchor, frequency, index + 1));
		expect(dates).toEqual(expected);
	});

	test.each([
		['day', 3, '2025-02-03'],
		['week', 2, '2025-02-14'],
	])(
		'%s frequency counts days, with no month-end rule (%i periods → %s)',
		(frequency, count, expected) => {
			expect(addPeriods('2025-01-31', frequency, count)).toBe(expected);
		},
	);
});

describe('rules 4–5: trial_days and free_days', () => {
	const base = { start_date: '2025-01-31', frequency: 'month', trial_days: 0, free_days: 0 };

	test.each([
		['no delay', base, ['2025-01-31', '2025-02-28', '2025-03-31']],
		[
			'trial_days 10 delay only the first invoice',
			{ ...base, trial_days: 10 },
			['2025-02-10', '2025-02-28', '2025-03-31'],
		],
		[
			'free_days 1 shift the whole schedule',
			{ ...base, free_days: 1 },
			['2025-02-01', '2025-03-01', '2025-04-01'],
		],
		['both', { ...base, trial_days: 3, free_days: 1 }, ['2025-02-04', '2025-03-01', '2025-04-01']],
	])('%s', (_case, sub, expected) => {
		expect([0, 1, 2].map((index) => dueDate(sub, index))).toEqual(expected);
	});
});
