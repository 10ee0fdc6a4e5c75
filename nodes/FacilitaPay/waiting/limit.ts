/**
 * Until when a payment is waited for (pure; no n8n). `chargeExpiry` (the default): the charge's
 * own expiry plus a margin where it has one, else a fixed default; `afterInterval`: a time after
 * the wait began; `atTime`: a given time.
 */

export type LimitType = 'chargeExpiry' | 'afterInterval' | 'atTime';
export type LimitUnit = 'minutes' | 'hours' | 'days';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** After a PIX, CLABE or PSE expiry: FacilitaPay's payment_expired comes after it, not at it. */
export const EXPIRY_MARGIN_MS = 10 * MINUTE;
/** A boleto paid on its due date is confirmed up to 3 business days later (spec): 5 days cover a weekend. */
export const BOLETO_MARGIN_MS = 5 * DAY;
/** A PSE bank payment URL is valid 21 minutes (public docs). */
export const PSE_VALID_MS = 21 * MINUTE;
/** A charge without an expiry of its own (card checkout, card payment, other pay-ins). */
export const DEFAULT_LIMIT_MS = DAY;
/** The longest wait accepted (a dynamic CLABE lives 30 days). */
export const MAX_LIMIT_MS = 31 * DAY;

const UNIT_MS: Record<LimitUnit, number> = { minutes: MINUTE, hours: HOUR, days: DAY };

function time(value: unknown): number | undefined {
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
	const pix = time(object(transaction.meta).dynamic_pix_due_date);
	if (pix !== undefined) return { at: pix, kind: 'pix' };
	const boleto = time(object(transaction.from_boleto).expire_at);
	if (boleto !== undefined) return { at: boleto + DAY, kind: 'boleto' };
	const clabe =
		time(object(transaction.from_spei).expires_at) ??
		time(object(transaction.payment_info).expires_at);
	if (clabe !== undefined) return { at: clabe, kind: 'clabe' };
	const pse = object(transaction.from_pse);
	if (Object.keys(pse).length > 0) {
		const created = time(pse.creation_date) ?? time(transaction.inserted_at);
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
