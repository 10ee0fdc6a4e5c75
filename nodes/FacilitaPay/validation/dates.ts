import { DateTime, IANAZone } from 'luxon';

import { invalid, valid, type Check } from './result';

/**
 * Where "now" and a date-time written without offset are read. `timeZone` is an IANA name such
 * as `America/Sao_Paulo`: the workflow's time zone (`this.getTimezone()` in an operation), which
 * is also the zone of n8n's date picker and of `$now`. Not given: UTC (the behaviour before time
 * zones were taken into account).
 */
export interface TimeZoneOption {
	timeZone?: string;
}

const UTC = 'UTC';

function zoneOf(options: TimeZoneOption): { zone: string } | { reason: string } {
	const zone = String(options.timeZone ?? '').trim() || UTC;
	if (!IANAZone.isValidZone(zone)) {
		return {
			reason: `cannot be read because the time zone "${zone}" is not known; set a valid time zone (e.g. America/Sao_Paulo) in the workflow settings`,
		};
	}
	return { zone };
}

/** The calendar date (`YYYY-MM-DD`) of `now` in `zone`. */
function localDate(now: Date, zone: string): string {
	return DateTime.fromJSDate(now, { zone }).toISODate() as string;
}

const DATE_TIME_PATTERN =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

interface ParsedDateTime {
	year: number;
	month: number;
	day: number;
	/** The date as written, `YYYY-MM-DD`. */
	date: string;
	hasTime: boolean;
	/** Whether an offset (`Z`, `+01:00`…) was written. */
	hasOffset: boolean;
	/** Milliseconds since the epoch, whole seconds only (fractions are dropped). */
	epochSeconds: number;
}

function pad(value: number, length = 2): string {
	return String(value).padStart(length, '0');
}

function isRealDate(year: number, month: number, day: number): boolean {
	if (year < 1 || month < 1 || month > 12 || day < 1) return false;
	const isLeap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
	const daysInMonth = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
	return day <= daysInMonth[month - 1];
}

/**
 * Reads `YYYY-MM-DD`, optionally followed by a time `Thh:mm[:ss[.fff]]` and an offset (`Z`,
 * `+01:00`, `-0300`). What n8n's date-time picker gives (`2026-11-22T10:00:00` or
 * `2026-11-22T10:00:00.000+01:00`) is covered. A time WITHOUT offset is read in `zone` (an IANA
 * name, valid; a local time skipped by a daylight-saving change is moved forward, as luxon does).
 * Returns undefined when the text is not such a date or not a real calendar date/time.
 */
function parseDateTime(raw: string, zone = UTC): ParsedDateTime | undefined {
	const match = DATE_TIME_PATTERN.exec(String(raw ?? '').trim());
	if (!match) return undefined;
	const [, y, mo, d, h, mi, s, , offset] = match;
	const year = Number(y);
	const month = Number(mo);
	const day = Number(d);
	if (!isRealDate(year, month, day)) return undefined;
	const hour = Number(h ?? 0);
	const minute = Number(mi ?? 0);
	const second = Number(s ?? 0);
	if (hour > 23 || minute > 59 || second > 59) return undefined;
	let offsetMinutes = 0;
	if (offset && offset.toUpperCase() !== 'Z') {
		const digits = offset.slice(1).replace(':', '');
		const offsetHours = Number(digits.slice(0, 2));
		const offsetRest = digits.length > 2 ? Number(digits.slice(2)) : 0;
		if (offsetHours > 23 || offsetRest > 59) return undefined;
		offsetMinutes = (offset[0] === '-' ? -1 : 1) * (offsetHours * 60 + offsetRest);
	}
	let epochSeconds: number;
	if (offset) {
		const utc = new Date(0);
		utc.setUTCFullYear(year, month - 1, day);
		utc.setUTCHours(hour, minute, second, 0);
		epochSeconds = utc.getTime() - offsetMinutes * 60_000;
	} else {
		epochSeconds = DateTime.fromObject(
			{ year, month, day, hour, minute, second },
			{ zone },
		).toMillis();
	}
	return {
		year,
		month,
		day,
		date: `${pad(year, 4)}-${pad(month)}-${pad(day)}`,
		hasTime: h !== undefined,
		hasOffset: offset !== undefined,
		epochSeconds,
	};
}

/** `YYYY-MM-DDThh:mm:ssZ` in UTC. */
export function formatUtcSeconds(epochMilliseconds: number): string {
	return new Date(epochMilliseconds).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function describeDuration(milliseconds: number): string {
	const seconds = Math.floor(Math.abs(milliseconds) / 1000);
	if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 120) return `${minutes} minutes`;
	const hours = Math.floor(minutes / 60);
	if (hours < 48) return `${hours} hours`;
	return `${Math.floor(hours / 24)} days`;
}

/** The service refuses a dynamic PIX expiry that is not MORE than this after now. */
export const DYNAMIC_PIX_MIN_AHEAD_MS = 60_000;

/**
 * `dynamic_pix_expires_at`: returned exactly as `YYYY-MM-DDThh:mm:ssZ` (UTC, fractions of a second
 * dropped), strictly more than 60 seconds after `now`.
 *
 * Accepted input: that form, an ISO text with milliseconds or an offset, or what n8n's date-time
 * picker gives. A date and time WITHOUT offset (e.g. `2026-11-22T10:00:00`, what the picker gives)
 * is read in `options.timeZone` (the workflow's time zone; UTC when not given); an explicit offset
 * is kept. The expiry is optional in the spec: an empty value (or none) is accepted as "not given"
 * and returned as `''`, which the caller does not send.
 */
export function checkDynamicPixExpiry(
	raw: string | undefined,
	now: Date,
	options: TimeZoneOption = {},
): Check {
	const text = raw === undefined || raw === null ? '' : String(raw).trim();
	if (text === '') return valid('');
	const zone = zoneOf(options);
	if ('reason' in zone) return invalid(zone.reason);
	const parsed = parseDateTime(text, zone.zone);
	if (!parsed || !parsed.hasTime) {
		return invalid(
			'is not a valid date and time; use the form YYYY-MM-DDThh:mm:ss (read in the workflow’s time zone) or add an offset, e.g. 2026-11-22T10:00:00Z',
		);
	}
	const value = formatUtcSeconds(parsed.epochSeconds);
	const readAs =
		parsed.hasOffset || zone.zone === UTC
			? value
			: `${text.replace(' ', 'T').slice(0, 19)} in ${zone.zone} is ${value}`;
	const ahead = parsed.epochSeconds - now.getTime();
	if (ahead <= 0) {
		return invalid(
			`is in the past (${readAs}, ${describeDuration(ahead)} ago); choose a time more than 1 minute from now`,
		);
	}
	if (ahead <= DYNAMIC_PIX_MIN_AHEAD_MS) {
		return invalid(
			`is only ${describeDuration(ahead)} from now (${readAs}); the PIX code must expire more than 1 minute from now`,
		);
	}
	return valid(value);
}

/**
 * `from_boleto.expire_at`: `YYYY-MM-DD`, a real date, today or later, where "today" is the local
 * date in `options.timeZone` (the workflow's time zone; UTC when not given). A date-time text is
 * accepted and its date part, as written, is kept.
 */
export function checkBoletoExpireAt(raw: string, now: Date, options: TimeZoneOption = {}): Check {
	const text = String(raw ?? '').trim();
	if (text === '') return invalid('is empty; enter a date in the form YYYY-MM-DD, e.g. 2026-11-22');
	const zone = zoneOf(options);
	if ('reason' in zone) return invalid(zone.reason);
	const parsed = parseDateTime(text, zone.zone);
	if (!parsed) {
		return invalid('is not a valid date; use the form YYYY-MM-DD, e.g. 2026-11-22');
	}
	const today = localDate(now, zone.zone);
	if (parsed.date < today) {
		return invalid(
			`is in the past (${parsed.date}); the boleto must expire today (${today}) or later`,
		);
	}
	return valid(parsed.date);
}

/**
 * `birth_date`: `YYYY-MM-DD`, a real date, before today (in `options.timeZone`, UTC when not
 * given) and not before 1900. A date-time text is accepted and its date part, as written, is kept.
 */
export function checkBirthDate(raw: string, now: Date, options: TimeZoneOption = {}): Check {
	const text = String(raw ?? '').trim();
	if (text === '') return invalid('is empty; enter a date in the form YYYY-MM-DD, e.g. 1990-05-17');
	const zone = zoneOf(options);
	if ('reason' in zone) return invalid(zone.reason);
	const parsed = parseDateTime(text, zone.zone);
	if (!parsed) return invalid('is not a valid date; use the form YYYY-MM-DD, e.g. 1990-05-17');
	if (parsed.date >= localDate(now, zone.zone)) {
		return invalid(`is ${parsed.date}, not in the past; a birth date must be before today`);
	}
	if (parsed.year < 1900) return invalid(`is ${parsed.date}, before 1900; check the year`);
	return valid(parsed.date);
}

/**
 * A company's `creation_date`: `YYYY-MM-DD`, a real date, today or earlier (in `options.timeZone`,
 * UTC when not given). A date-time text is accepted and its date part, as written, is kept.
 */
export function checkCreationDate(raw: string, now: Date, options: TimeZoneOption = {}): Check {
	const text = String(raw ?? '').trim();
	if (text === '') return invalid('is empty; enter a date in the form YYYY-MM-DD, e.g. 2015-03-01');
	const zone = zoneOf(options);
	if ('reason' in zone) return invalid(zone.reason);
	const parsed = parseDateTime(text, zone.zone);
	if (!parsed) return invalid('is not a valid date; use the form YYYY-MM-DD, e.g. 2015-03-01');
	if (parsed.date > localDate(now, zone.zone)) {
		return invalid(`is ${parsed.date}, in the future; a company is created today or earlier`);
	}
	return valid(parsed.date);
}

/**
 * Card expiry: `MM/YYYY`. `MM/YY` (→ 20YY) and a one-digit month (`1/2027` → `01/2027`) are
 * normalised, spaces around the slash are ignored. The card must not have expired: its month must
 * be the current month (in `options.timeZone`, UTC when not given) or later.
 */
export function checkCardExpiration(raw: string, now: Date, options: TimeZoneOption = {}): Check {
	const text = String(raw ?? '').replace(/\s+/g, '');
	if (text === '') return invalid('is empty; enter the expiry as MM/YYYY, e.g. 08/2029');
	const match = /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(text);
	if (!match) return invalid('is not in the form MM/YYYY, e.g. 08/2029');
	const month = Number(match[1]);
	if (month < 1 || month > 12) {
		return invalid(`has month ${match[1]}; the month goes from 01 to 12, e.g. 08/2029`);
	}
	const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
	const value = `${pad(month)}/${year}`;
	const zone = zoneOf(options);
	if ('reason' in zone) return invalid(zone.reason);
	const local = DateTime.fromJSDate(now, { zone: zone.zone });
	const currentYear = local.year;
	const currentMonth = local.month;
	if (year < currentYear || (year === currentYear && month < currentMonth)) {
		return invalid(`is ${value}: the card has expired`);
	}
	return valid(value);
}

/**
 * A time as FacilitaPay writes it, in epoch milliseconds: real answers carry microseconds and no
 * zone (`2025-07-09T13:51:30.989491`, read as UTC); the docs' examples end in `Z`; an offset is
 * honoured. A date alone is its midnight UTC. Undefined for anything else.
 */
export function readServiceTime(raw: unknown): number | undefined {
	if (typeof raw !== 'string') return undefined;
	const match =
		/^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2}))?(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(
			raw.trim(),
		);
	if (!match) return undefined;
	const [, date, hoursMinutes = '00:00', secondsText = '00', fraction = '', zone] = match;
	let offset = 'Z';
	if (zone && zone.toUpperCase() !== 'Z') {
		const digits = zone.slice(1).replace(':', '').padEnd(4, '0');
		offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4)}`;
	}
	const milliseconds = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
	const ms = Date.parse(`${date}T${hoursMinutes}:${secondsText}${milliseconds}${offset}`);
	return Number.isNaN(ms) ? undefined : ms;
}

/**
 * A time FacilitaPay wrote, as the node's own outputs write times: `YYYY-MM-DDThh:mm:ssZ` (UTC), so
 * that `2025-07-09T13:51:30.989491` (no zone: UTC) is not read later in another zone by a tool or an
 * expression. A date alone, or a text that is no time, is returned as it is.
 */
export function serviceTimeInUtc(raw: unknown): unknown {
	if (typeof raw !== 'string' || !/^\s*\d{4}-\d{2}-\d{2}[T ]\d/.test(raw)) return raw;
	const ms = readServiceTime(raw);
	return ms === undefined ? raw : formatUtcSeconds(ms);
}
