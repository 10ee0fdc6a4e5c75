import { createHash } from 'crypto';

import type { ApiRequest } from './send';

/**
 * What identifies a money request across executions (the ledger's keys): a short SHA-256 of the
 * method, the path and the body, with the fields computed from the clock left out.
 */
/** Fields computed from the clock: left out of the key, a retry computes them anew. */
const CLOCK_FIELD = /(^|_)(expire|expires|expire_at|expires_at|due|date|at)$/i;

function withoutClockFields(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutClockFields);
	if (value && typeof value === 'object') {
		const result: Record<string, unknown> = {};
		for (const key of Object.keys(value as object).sort()) {
			if (CLOCK_FIELD.test(key)) continue;
			result[key] = withoutClockFields((value as Record<string, unknown>)[key]);
		}
		return result;
	}
	return value;
}

/** A short, URL-safe SHA-256 of any JSON value. */
export function digest(value: unknown): string {
	return createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 32);
}

/** What identifies a request for the ledger: method, path and body without clock fields. */
export function requestDigest(request: Pick<ApiRequest, 'method' | 'path' | 'body'>): string {
	return digest([request.method, request.path, withoutClockFields(request.body ?? null)]);
}
