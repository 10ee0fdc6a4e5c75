import type { IDataObject } from 'n8n-workflow';

/**
 * The most `meta` the node sends, as JSON text. FacilitaPay publishes no limit; its public clients
 * keep an order id or two there. 8 kB holds any such reference many times over while keeping a
 * runaway expression (a whole input item, a file) out of every payment record.
 */
export const METADATA_MAX_BYTES = 8 * 1024;

/** The key the node itself keeps in `meta`: the payment's identity (docs/money.md). */
export const IDENTITY_META_FIELD = 'n8n_facilitapay_ref';
/** The key the node keeps beside it: a fingerprint of the payment's decisive parameters. */
export const FINGERPRINT_META_FIELD = 'n8n_facilitapay_fp';
/**
 * Reserved: versions before 0.2 wrote here where a waiting execution resumes (its resume URL);
 * nothing is written to it now (n8n's resume token stays in n8n, docs/waiting.md).
 */
export const WAIT_META_FIELD = 'n8n_facilitapay_wait';
/** Every key of `meta` the node writes itself (yours may not use them). */
export const NODE_META_FIELDS = [
	IDENTITY_META_FIELD,
	FINGERPRINT_META_FIELD,
	WAIT_META_FIELD,
] as const;

export type MetadataCheck = { ok: true; value: IDataObject } | { ok: false; reason: string };

/**
 * Your own data kept on a FacilitaPay record (`meta`): a JSON object (text or an object from an
 * expression), at most METADATA_MAX_BYTES as JSON, none of whose keys is one the node keeps there
 * itself (`reservedKeys`). An empty value (`''`, `{}`) is no metadata.
 */
export function checkMetadata(raw: unknown, reservedKeys: readonly string[] = []): MetadataCheck {
	let value = raw;
	if (value === undefined || value === null) return { ok: true, value: {} };
	if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return { ok: true, value: {} };
		try {
			value = JSON.parse(text);
		} catch {
			return {
				ok: false,
				reason: 'is not valid JSON; write an object such as {"order_id": "1001"}',
			};
		}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return {
			ok: false,
			reason: `is ${Array.isArray(value) ? 'a list' : `a ${value === null ? 'null' : typeof value}`}; write an object such as {"order_id": "1001"}`,
		};
	}
	const object = value as IDataObject;
	const clash = Object.keys(object).filter((key) => reservedKeys.includes(key));
	if (clash.length > 0) {
		return {
			ok: false,
			reason: `uses ${clash.join(', ')}, which the node keeps there itself (the payment's identity); rename your key`,
		};
	}
	const bytes = new TextEncoder().encode(JSON.stringify(object)).length;
	if (bytes > METADATA_MAX_BYTES) {
		return {
			ok: false,
			reason: `is ${bytes} bytes as JSON; keep it to at most ${METADATA_MAX_BYTES} (a reference such as an order number, not a whole item)`,
		};
	}
	return { ok: true, value: object };
}
