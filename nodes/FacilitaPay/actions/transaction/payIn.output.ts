import { readServiceTime } from '../../validation/dates';

/**
 * `seconds` after a time FacilitaPay wrote (`2025-07-09T13:51:30.989491`, no zone: UTC; or
 * `…Z` / an offset), as `YYYY-MM-DDThh:mm:ssZ`; undefined when the time cannot be read.
 */
export function validUntil(raw: unknown, seconds: number): string | undefined {
	const ms = readServiceTime(raw);
	if (ms === undefined) return undefined;
	return new Date(ms + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
