import type { IDataObject } from 'n8n-workflow';

/*
 * Reading what FacilitaPay wrote in a record: text and statuses. Every reader answers undefined
 * for what it cannot read, never throws.
 */

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

export function messageOf(error: unknown): string {
	if (error instanceof Error) return error.message;
	return textOf(error) ?? 'unknown error';
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
