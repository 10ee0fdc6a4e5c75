import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { readServiceTime } from '../../validation/dates';

/** A dynamic CLABE can be paid to for this long (FacilitaPay's public Python client). */
export const CLABE_DAYS = 30;

/**
 * `seconds` after a time FacilitaPay wrote (`2025-07-09T13:51:30.989491`, no zone: UTC; or
 * `…Z` / an offset), as `YYYY-MM-DDThh:mm:ssZ`; undefined when the time cannot be read.
 */
export function validUntil(raw: unknown, seconds: number): string | undefined {
	const ms = readServiceTime(raw);
	if (ms === undefined) return undefined;
	return new Date(ms + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Until when a dynamic CLABE can be paid to: the answer's own expiry (`from_spei.expires_at`, else
 * `payment_info.expires_at`) when it gives one, else its creation (`inserted_at`) plus 30 days.
 */
export function clabeValidUntil(json: IDataObject): string | undefined {
	const spei = (json.from_spei ?? {}) as IDataObject;
	const info = (json.payment_info ?? {}) as IDataObject;
	return (
		validUntil(spei.expires_at, 0) ??
		validUntil(info.expires_at, 0) ??
		validUntil(json.inserted_at, CLABE_DAYS * 24 * 3600)
	);
}

/**
 * The output item of an answer that may carry a dynamic CLABE: the answer, plus `dynamic_clabe`
 * and `dynamic_clabe_valid_until` when `clabe` is given.
 */
export function withDynamicClabe(json: IDataObject, clabe: unknown): INodeExecutionData[] {
	if (clabe === undefined) return [{ json }];
	const until = clabeValidUntil(json);
	return [
		{
			json: {
				...json,
				dynamic_clabe: clabe as string,
				...(until ? { dynamic_clabe_valid_until: until } : {}),
			},
		},
	];
}
