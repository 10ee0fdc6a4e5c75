import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from '../transport';
import { FINGERPRINT_META_FIELD, IDENTITY_META_FIELD } from '../validation/metadata';

/*
 * What a payment is called (its identity) and what it is (its fingerprint): pure, table-tested.
 */

/** Where the identity travels in FacilitaPay's `meta`. */
export const IDENTITY_FIELD = IDENTITY_META_FIELD;
/** Where the fingerprint of a keyed payment's decisive parameters travels in `meta`. */
export const FINGERPRINT_FIELD = FINGERPRINT_META_FIELD;

/** The scope a payment's origin is named in: this n8n instance and workflow. */
export interface OriginScope {
	/** 12 characters of a hash of n8n's instance ID. */
	instance: string;
	workflow: string;
	origin: string;
	node: string;
	runIndex: number;
}

/** A payment's identity: `key:<Idempotency Key>` (the account), else its origin, fully scoped. */
export function identityOf(
	scope: OriginScope | undefined,
	itemIndex: number,
	idempotencyKey?: string,
): string | undefined {
	if (idempotencyKey !== undefined) return `key:${idempotencyKey}`;
	if (!scope) return undefined;
	return `run:${scope.instance}:${scope.workflow}:${scope.origin}:${scope.node}:${scope.runIndex}:${itemIndex}`;
}

/** The request as it leaves: the identity (and a key's fingerprint) in `meta`, beside the user's own. */
export function carryingIdentity(
	request: ApiRequest,
	holder: string | undefined,
	ref: string,
	print: string | undefined,
): ApiRequest {
	const body = request.body;
	if (holder === undefined || !body) return request;
	const inner = (body[holder] ?? {}) as IDataObject;
	const meta = inner.meta && typeof inner.meta === 'object' ? (inner.meta as IDataObject) : {};
	const ours =
		print === undefined
			? { [IDENTITY_FIELD]: ref }
			: { [IDENTITY_FIELD]: ref, [FINGERPRINT_FIELD]: print };
	return { ...request, body: { ...body, [holder]: { ...inner, meta: { ...meta, ...ours } } } };
}

const DECISIVE = /^(value|amount|currency|exchange_currency|frequency|.*_id)$/;

function normal(value: unknown): string {
	if (typeof value === 'number') return String(value);
	const text = String(value).trim();
	return /^-?\d+(\.\d+)?$/.test(text) ? String(Number(text)) : text;
}

/**
 * The payment's decisive parameters as one line: the request (method and path) and, in the
 * object that carries `meta`, its amounts, currencies, frequency and every `…_id` (subject,
 * accounts, plan), and the kind of its `from_…`/`to_…` objects (their content, card data
 * included, is not part of it).
 */
export function decisiveText(request: ApiRequest, holder: string | undefined): string {
	const body = request.body ?? {};
	const inner = holder && body[holder] && typeof body[holder] === 'object' ? body[holder] : body;
	const parts = [`${request.method} ${request.path.split('?')[0]}`];
	for (const key of Object.keys(inner as IDataObject).sort()) {
		const value = (inner as IDataObject)[key];
		if (value === undefined || value === null || value === '') continue;
		if (typeof value === 'object') {
			if (/^(from|to)_/.test(key)) parts.push(`${key}:*`);
			continue;
		}
		if (DECISIVE.test(key)) parts.push(`${key}=${normal(value)}`);
	}
	return parts.join('\n');
}

/** 16 characters of a hash of the decisive parameters: equal for the same payment. */
export function fingerprintOf(request: ApiRequest, holder: string | undefined): string {
	return createHash('sha256')
		.update(decisiveText(request, holder))
		.digest('base64url')
		.slice(0, 16);
}

/** The decisive parameters a person reads (amount, currency, subject, accounts). */
export function paymentText(request: ApiRequest, holder: string | undefined): string {
	return decisiveText(request, holder)
		.split('\n')
		.filter((part) => !part.endsWith(':*'))
		.join(', ');
}

/** What a record shows of itself: its ID and decisive fields, for an error that names it. */
export function recordText(record: IDataObject): string {
	const account = (field: string) => {
		const value = record[field];
		return value && typeof value === 'object' ? (value as IDataObject).id : undefined;
	};
	const fields: Array<[string, unknown]> = [
		['value', record.value],
		['currency', record.currency],
		['subject_id', record.subject_id],
		['to_bank_account', record.to_bank_account_id ?? account('to_bank_account')],
		['from_bank_account', record.from_bank_account_id ?? account('from_bank_account')],
		['status', record.status],
	];
	const shown = fields
		.filter(([, value]) => value !== undefined && value !== null && value !== '')
		.map(([name, value]) => `${name} ${String(value)}`);
	return `${String(record.id ?? 'without an ID')}${shown.length ? ` (${shown.join(', ')})` : ''}`;
}

/** The identity and fingerprint a record carries in its `meta`, when it carries them. */
export function metaOf(record: unknown): { ref?: string; fp?: string } {
	let value = record;
	if (value && typeof value === 'object' && 'data' in (value as object))
		value = (value as { data: unknown }).data;
	const meta = (value as { meta?: unknown } | undefined)?.meta;
	if (!meta || typeof meta !== 'object') return {};
	const ref = (meta as IDataObject)[IDENTITY_FIELD];
	const fp = (meta as IDataObject)[FINGERPRINT_FIELD];
	return {
		ref: typeof ref === 'string' ? ref : undefined,
		fp: typeof fp === 'string' ? fp : undefined,
	};
}
