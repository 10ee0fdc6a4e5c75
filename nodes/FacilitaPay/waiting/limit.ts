import { DateTime } from 'luxon';

import { endOfBusinessDaysAfter } from './brazilCalendar';

/**
 * Until when a payment is waited for (pure; no n8n). `chargeExpiry` (the default): the charge's
 * own expiry plus a margin where it has one (a boleto: its due date + 3 business days in Brazil), else a fixed default; `afterInterval`: a time after
 * the wait began; `atTime`: a given time.
 */

export type LimitType = 'chargeExpiry' | 'afterInterval' | 'atTime';
export type LimitUnit = 'minutes' | 'hours' | 'days';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** After a PIX, CLABE or PSE expiry: FacilitaPay's payment_expired comes after it, not at it. */
export const EXPIRY_MARGIN_MS = 10 * MINUTE;
/** A boleto paid on its due date is confirmed up to 3 business days later (spec), in Brazil's calendar. */
export const BOLETO_CONFIRM_BUSINESS_DAYS = 3;
/** After the end of the last business day a boleto may be confirmed on. */
export const BOLETO_MARGIN_MS = 10 * MINUTE;
/** A PSE bank payment URL is valid 21 minutes (public docs). */
export const PSE_VALID_MS = 21 * MINUTE;
/** A charge without an expiry of its own (card checkout, card payment, other pay-ins). */
export const DEFAULT_LIMIT_MS = DAY;
/** The longest wait accepted (a dynamic CLABE lives 30 days). */
export const MAX_LIMIT_MS = 31 * DAY;

const UNIT_MS: Record<LimitUnit, number> = { minutes: MINUTE, hours: HOUR, days: DAY };

/** A FacilitaPay timestamp in milliseconds (one without a zone is UTC), or undefined. */
export function utcTime(value: unknown): number | undefined {
	if (typeof value !== 'string' || value === '') return undefined;
	// FacilitaPay's timestamps may carry no zone ("2025-07-09T13:51:30.989491"): they are UTC.
	const zoned = /[zZ]|[+-]\d\d:?\d\d$/.test(value) || !value.includes('T') ? value : `${value}Z`;
	const ms = Date.parse(zoned);
	return Number.isNaN(ms) ? undefined : ms;
}

function object(value: unknown): Record<string, unknown> {
	return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

/**
 * The charge's own expiry as FacilitaPay shows it, with what it is: a dynamic PIX
 * (`meta.dynamic_pix_due_date`), a boleto (`from_boleto.expire_at`), a dynamic CLABE
 * (`from_spei.expires_at`, `payment_info.expires_at`), a PSE payment (created + 21 min).
 */
export function chargeExpiry(
	transaction: Record<string, unknown>,
): { at: number; kind: 'pix' | 'boleto' | 'clabe' | 'pse' } | undefined {
	const pix = utcTime(object(transaction.meta).dynamic_pix_due_date);
	if (pix !== undefined) return { at: pix, kind: 'pix' };
	const dueDate = object(transaction.from_boleto).expire_at;
	if (typeof dueDate === 'string' && dueDate !== '') {
		// The end of the 3rd business day after the due date, in Brazil (a boleto paid on its due
		// date is confirmed up to then).
		const confirmed = endOfBusinessDaysAfter(dueDate.slice(0, 10), BOLETO_CONFIRM_BUSINESS_DAYS);
		if (confirmed !== undefined) return { at: confirmed, kind: 'boleto' };
	}
	const clabe =
		utcTime(object(transaction.from_spei).expires_at) ??
		utcTime(object(transaction.payment_info).expires_at);
	if (clabe !== undefined) return { at: clabe, kind: 'clabe' };
	const pse = object(transaction.from_pse);
	if (Object.keys(pse).length > 0) {
		const created = utcTime(pse.creation_date) ?? utcTime(transaction.inserted_at);
		if (created !== undefined) return { at: created + PSE_VALID_MS, kind: 'pse' };
	}
	return undefined;
}

/** The default limit of one charge: its expiry plus a margin, else the fixed default. */
export function defaultLimit(
	transaction: Record<string, unknown> | undefined,
	now: number,
): number {
	const expiry = transaction ? chargeExpiry(transaction) : undefined;
	if (!expiry) return now + DEFAULT_LIMIT_MS;
	const margin = expiry.kind === 'boleto' ? BOLETO_MARGIN_MS : EXPIRY_MARGIN_MS;
	return Math.max(expiry.at + margin, now + MINUTE);
}

export interface LimitSettings {
	type: LimitType;
	amount?: number;
	unit?: LimitUnit;
	/** `atTime`: milliseconds since the epoch. */
	at?: number;
}

/** Why a limit setting cannot be used, or undefined. */
export function limitProblem(settings: LimitSettings, now: number): string | undefined {
	if (settings.type === 'afterInterval') {
		const amount = settings.amount ?? NaN;
		if (!Number.isFinite(amount) || amount <= 0) return 'must be a number above 0';
		if (!settings.unit || !(settings.unit in UNIT_MS)) return 'has an unknown unit';
		if (amount * UNIT_MS[settings.unit] > MAX_LIMIT_MS) return 'is longer than 31 days';
	}
	if (settings.type === 'atTime') {
		if (settings.at === undefined || Number.isNaN(settings.at)) return 'is not a date and time';
		if (settings.at <= now) return 'is in the past';
		if (settings.at - now > MAX_LIMIT_MS) return 'is more than 31 days ahead';
	}
	return undefined;
}

/** The limit of one waited charge (milliseconds since the epoch). */
export function limitOf(
	settings: LimitSettings,
	transaction: Record<string, unknown> | undefined,
	now: number,
): number {
	if (settings.type === 'afterInterval')
		return now + (settings.amount ?? 0) * UNIT_MS[settings.unit ?? 'minutes'];
	if (settings.type === 'atTime') return settings.at ?? now;
	return Math.min(defaultLimit(transaction, now), now + MAX_LIMIT_MS);
}

/**
 * "At a Time" as milliseconds: a Date or a Luxon DateTime as it is; a text with a zone (`Z`,
 * `+02:00`) as written; a text without one (what the editor's date picker gives) in `zone`, the
 * workflow's time zone (its setting, else n8n's GENERIC_TIMEZONE), not the server's.
 */
export function atTimeOf(raw: unknown, zone: string): number {
	if (raw instanceof Date) return raw.getTime();
	if (raw && typeof raw === 'object' && typeof (raw as DateTime).toMillis === 'function')
		return (raw as DateTime).toMillis();
	if (typeof raw !== 'string' || raw.trim() === '') return NaN;
	const text = raw.trim().replace(' ', 'T');
	const zoned = /([zZ]|[+-]\d\d:?\d\d)$/.test(text);
	const parsed = DateTime.fromISO(text, zoned ? { setZone: true } : { zone });
	return parsed.isValid ? parsed.toMillis() : NaN;
}
