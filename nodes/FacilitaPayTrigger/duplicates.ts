import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** How long an emitted event is remembered by Drop Duplicates. */
export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** At most this many events are remembered; the oldest are forgotten first. */
export const DUPLICATES_KEPT = 1000;

/**
 * What makes two notifications the same event: type, the object's ID (or IDs) and the status the
 * notification states. Transaction events carry no status of their own: their type is the status
 * change. Hashed, so the static data holds no IDs and each entry stays small.
 */
export function duplicateKey(fields: IDataObject): string {
	const object = (name: string) =>
		fields[name] && typeof fields[name] === 'object' ? (fields[name] as IDataObject) : {};
	const ids = [
		fields.transaction_id,
		Array.isArray(fields.transaction_ids)
			? [...fields.transaction_ids].map(String).sort().join(',')
			: undefined,
		fields.exchange_id,
		fields.wire_id,
		fields.checkout_id,
		fields.subject_id,
		fields.request_id,
		object('subscription').id,
		object('invoice').id,
		object('bank_transaction').id,
		object('data').id,
	]
		.map((id) => (id === undefined || id === null ? '' : String(id)))
		.join('|');
	const status = [fields.status, object('subscription').status, object('invoice').status]
		.map((s) => (s === undefined || s === null ? '' : String(s)))
		.join('|');
	return createHash('sha256')
		.update(JSON.stringify([String(fields.type ?? ''), ids, status]))
		.digest('hex')
		.slice(0, 24);
}

/**
 * Emitted events seen by this n8n process, per trigger (see guessing.ts for why the static data
 * alone is not enough: parallel requests each read it before the others saved it).
 */
const memory = new Map<string, Record<string, number>>();

/** For tests: forgets what this process remembered. */
export function clearDuplicateMemory(): void {
	memory.clear();
}

function remembered(staticData: IDataObject, now: number, owner: string): Record<string, number> {
	const result: Record<string, number> = {};
	for (const stored of [staticData.emittedEvents, memory.get(owner)]) {
		if (!stored || typeof stored !== 'object' || Array.isArray(stored)) continue;
		for (const [key, until] of Object.entries(stored as IDataObject)) {
			if (typeof until === 'number' && until > now) {
				result[key] = Math.max(until, result[key] ?? 0);
			}
		}
	}
	return result;
}

/** Whether an event with this key was emitted within the last 24 hours. */
export function wasEmitted(staticData: IDataObject, key: string, now: number, owner = ''): boolean {
	return remembered(staticData, now, owner)[key] !== undefined;
}

/** Remembers an emitted event for 24 hours, keeping at most DUPLICATES_KEPT entries. */
export function rememberEmitted(
	staticData: IDataObject,
	key: string,
	now: number,
	owner = '',
): void {
	const entries = Object.entries(remembered(staticData, now, owner)).filter(([k]) => k !== key);
	entries.push([key, now + DUPLICATE_WINDOW_MS]);
	entries.sort((a, b) => a[1] - b[1]);
	const kept = Object.fromEntries(entries.slice(-DUPLICATES_KEPT));
	memory.set(owner, kept);
	staticData.emittedEvents = { ...kept };
}
