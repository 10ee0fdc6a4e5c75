import type { IDataObject } from 'n8n-workflow';

/*
 * Reading what FacilitaPay wrote in a record: text, money, times, accounts, statuses. Every reader
 * answers undefined (or 'unreadable') for what it cannot read, never throws.
 */

/** How a record's field compares with the request's: unreadable never rules a record out. */
export type Comparison = 'same' | 'differs' | 'unreadable';

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string (trimmed) or a finite number as text; otherwise undefined. */
export function textOf(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return text === '' ? undefined : text;
}

export function filled(value: unknown): boolean {
	return textOf(value) !== undefined;
}

export function messageOf(error: unknown): string {
	if (error instanceof Error) return error.message;
	return textOf(error) ?? 'unknown error';
}

/**
 * An amount as a comparable key: "10.50", "10.5", 10.5 → "10.5"; "10", "10.00" → "10";
 * undefined when it is not a plain non-negative decimal. No float arithmetic.
 */
export function moneyKey(value: unknown): string | undefined {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value) || value < 0) return undefined;
		text = String(value);
	} else if (typeof value === 'string') {
		text = value.trim();
	} else {
		return undefined;
	}
	const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
	if (!match) return undefined;
	const whole = match[1].replace(/^0+(?=\d)/, '');
	const fraction = (match[2] ?? '').replace(/0+$/, '');
	return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * A time FacilitaPay wrote: epoch ms, and whether it carried a zone. ISO 8601 date-times with or
 * without a zone (then read as UTC), with a space or a `T`, any fraction; epoch seconds or ms.
 */
export function parseServiceTime(value: unknown): { ms: number; zoned: boolean } | undefined {
	if (typeof value === 'number') {
		if (!Number.isFinite(value) || value <= 0) return undefined;
		return { ms: value < 1e11 ? value * 1000 : value, zoned: true };
	}
	if (typeof value !== 'string') return undefined;
	const match =
		/^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(
			value.trim(),
		);
	if (!match) return undefined;
	const [, date, clock, fraction, zone] = match;
	let offset = 'Z';
	if (zone && zone.toUpperCase() !== 'Z') {
		const digits = zone.slice(1).replace(':', '').padEnd(4, '0');
		offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4)}`;
	}
	const milliseconds = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
	const ms = Date.parse(
		`${date}T${clock.length === 5 ? `${clock}:00` : clock}${milliseconds}${offset}`,
	);
	return Number.isNaN(ms) ? undefined : { ms, zoned: zone !== undefined };
}

export function compareText(expected: string, actual: unknown): Comparison {
	const text = textOf(actual);
	if (text === undefined) return 'unreadable';
	return text.toLowerCase() === expected.toLowerCase() ? 'same' : 'differs';
}

export function compareMoney(expected: string, actual: unknown): Comparison {
	const key = moneyKey(actual);
	if (key === undefined) return 'unreadable';
	return key === expected ? 'same' : 'differs';
}

export function compareCount(expected: number, actual: unknown): Comparison {
	const text = textOf(actual);
	if (text === undefined || !/^\d+$/.test(text)) return 'unreadable';
	return Number(text) === expected ? 'same' : 'differs';
}

/** The ID of a record's `from` or `to` account: `<side>_bank_account_id`, or the object's `id`. */
export function accountOf(record: IDataObject, side: 'from' | 'to'): unknown {
	const direct = record[`${side}_bank_account_id`];
	if (filled(direct)) return direct;
	const nested = record[`${side}_bank_account`];
	return isObject(nested) ? nested.id : undefined;
}

export function subjectOf(record: IDataObject): unknown {
	if (filled(record.subject_id)) return record.subject_id;
	return isObject(record.subject) ? record.subject.id : undefined;
}

export function lastFour(value: unknown): string | undefined {
	const text = textOf(value);
	const digits = text === undefined ? undefined : /(\d{4})\D*$/.exec(text);
	return digits ? digits[1] : undefined;
}

export function statusOf(record: IDataObject): string | undefined {
	const status = textOf(record.status)?.toLowerCase();
	return status === 'cancelled' ? 'canceled' : status;
}

export function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}
