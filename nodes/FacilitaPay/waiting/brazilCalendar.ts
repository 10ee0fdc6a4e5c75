import { DateTime } from 'luxon';

/**
 * Brazil's banking calendar as far as a boleto's confirmation needs it (pure): business days are
 * Monday to Friday except the national holidays and the days banks do not open for the public
 * (Carnival Monday and Tuesday, Good Friday, Corpus Christi, 31 December). Where a day is in doubt
 * it counts as a holiday: the wait then lasts longer, never ends before FacilitaPay could confirm.
 */

export const BRAZIL_ZONE = 'America/Sao_Paulo';

/** Easter Sunday of a year (Gregorian computus, Meeus/Jones/Butcher). */
export function easter(year: number): { month: number; day: number } {
	const a = year % 19;
	const b = Math.floor(year / 100);
	const c = year % 100;
	const d = Math.floor(b / 4);
	const e = b % 4;
	const f = Math.floor((b + 8) / 25);
	const g = Math.floor((b - f + 1) / 3);
	const h = (19 * a + b - d - g + 15) % 30;
	const i = Math.floor(c / 4);
	const k = c % 4;
	const l = (32 + 2 * e + 2 * i - h - k) % 7;
	const m = Math.floor((a + 11 * h + 22 * l) / 451);
	const month = Math.floor((h + l - 7 * m + 114) / 31);
	const day = ((h + l - 7 * m + 114) % 31) + 1;
	return { month, day };
}

const FIXED = [
	'01-01',
	'04-21',
	'05-01',
	'09-07',
	'10-12',
	'11-02',
	'11-15',
	'11-20',
	'12-25',
	'12-31',
];
/** Days from Easter Sunday: Carnival Monday and Tuesday, Good Friday, Corpus Christi. */
const MOVABLE = [-48, -47, -2, 60];

/** The bank holidays of a year, as `MM-DD`. */
export function bankHolidays(year: number): Set<string> {
	const sunday = DateTime.fromObject({ year, ...easter(year) }, { zone: BRAZIL_ZONE });
	const days = new Set(FIXED);
	for (const offset of MOVABLE) days.add(sunday.plus({ days: offset }).toFormat('MM-dd'));
	return days;
}

/** Whether a day (in Brazil) is a business day. */
export function isBusinessDay(day: DateTime): boolean {
	if (day.weekday > 5) return false;
	return !bankHolidays(day.year).has(day.toFormat('MM-dd'));
}

/**
 * The end (23:59:59.999 in Brazil) of the `count`-th business day after the day `date` (a
 * `YYYY-MM-DD`, or a timestamp whose date part is taken), in milliseconds; undefined when `date`
 * is not a date.
 */
export function endOfBusinessDaysAfter(date: string, count: number): number | undefined {
	// The day as written (a due date is a day; a timestamp's date part is taken as it is).
	if (!/^\d{4}-\d{2}-\d{2}/.test(date)) return undefined;
	const day = DateTime.fromISO(date.slice(0, 10), { zone: BRAZIL_ZONE });
	if (!day.isValid) return undefined;
	let current = day.startOf('day');
	for (let left = count; left > 0; ) {
		current = current.plus({ days: 1 });
		if (isBusinessDay(current)) left--;
	}
	return current.endOf('day').toMillis();
}
