/**
 * The outcome of one validation.
 *
 * - `value` is the normalised value to send to the service (punctuation stripped, upper-cased…).
 * - `reason` is a plain English sentence a non-developer can act on. It never names the field:
 *   the caller puts "<Field> (item N): " in front of it.
 */
export type Check = { ok: true; value: string } | { ok: false; reason: string };

export function valid(value: string): Check {
	return { ok: true, value };
}

export function invalid(reason: string): Check {
	return { ok: false, reason };
}

/** "1 digit", "2 digits"… */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
	return `${count} ${count === 1 ? singular : pluralForm}`;
}
