import type { IDataObject } from 'n8n-workflow';

/** The type given to the unsigned KYC status payload, whose own event name FacilitaPay does not document. */
export const KYC_STATUS_TYPE = 'kyc_status';

function isPlainObject(value: unknown): value is IDataObject {
	return (
		typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)
	);
}

export type ParsedBody =
	| { ok: true; payload: IDataObject }
	| { ok: false; reason: string; status: 400 | 413 };

/** The largest body read (FacilitaPay's notifications are a few hundred bytes). */
export const MAX_BODY_BYTES = 256 * 1024;
/** The deepest nesting accepted (FacilitaPay's payloads go three levels deep). */
export const MAX_DEPTH = 16;
/** The most values (objects, arrays, strings, numbers…) accepted in one body. */
export const MAX_VALUES = 5_000;

/**
 * Whether a parsed body stays within MAX_DEPTH and MAX_VALUES. Walks with its own stack (no
 * recursion), so a body nested a million levels deep is measured without a stack overflow.
 */
export function bodyBounds(value: unknown): { ok: true } | { ok: false; reason: string } {
	const stack: Array<[unknown, number]> = [[value, 1]];
	let count = 0;
	while (stack.length > 0) {
		const [current, depth] = stack.pop()!;
		count += 1;
		if (count > MAX_VALUES) {
			return {
				ok: false,
				reason: `The body holds more than ${MAX_VALUES} values`,
			};
		}
		if (current === null || typeof current !== 'object') continue;
		if (depth > MAX_DEPTH) {
			return {
				ok: false,
				reason: `The body is nested deeper than ${MAX_DEPTH} levels`,
			};
		}
		const children = Array.isArray(current) ? current : Object.values(current as IDataObject);
		for (const child of children) stack.push([child, depth + 1]);
	}
	return { ok: true };
}

function byteLength(value: unknown): number | undefined {
	if (Buffer.isBuffer(value)) return value.length;
	if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
	return undefined;
}

/**
 * Reads the request body as a JSON object. n8n has already parsed JSON bodies; a body sent with
 * another content type arrives as text or only as the raw bytes, and is parsed here.
 */
export function parseBody(body: unknown, rawBody?: unknown): ParsedBody {
	const size = byteLength(rawBody) ?? byteLength(body);
	if (size !== undefined && size > MAX_BODY_BYTES) {
		return {
			ok: false,
			status: 413,
			reason: `The body is larger than ${MAX_BODY_BYTES} bytes`,
		};
	}
	if (isPlainObject(body) && Object.keys(body).length > 0) return bounded(body);
	let text: string | undefined;
	if (typeof body === 'string') text = body;
	else if (Buffer.isBuffer(body)) text = body.toString('utf8');
	else if (Buffer.isBuffer(rawBody)) text = rawBody.toString('utf8');
	else if (typeof rawBody === 'string') text = rawBody;
	if (text === undefined || text.trim() === '') {
		return { ok: false, status: 400, reason: 'The request has no body' };
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		const message = error instanceof RangeError ? 'nested too deeply' : (error as Error).message;
		return {
			ok: false,
			status: 400,
			reason: `The body is not JSON (${message})`,
		};
	}
	if (!isPlainObject(parsed)) {
		return { ok: false, status: 400, reason: 'The body is not a JSON object' };
	}
	return bounded(parsed);
}

function bounded(payload: IDataObject): ParsedBody {
	const bounds = bodyBounds(payload);
	if (!bounds.ok) return { ok: false, status: 413, reason: bounds.reason };
	return { ok: true, payload };
}

export type Classified =
	/** `{"notification":{…}}`: the signed envelope of every documented event. */
	| { kind: 'notification'; notification: IDataObject; secret: unknown }
	/** `{"data":{…subject…}}` without envelope or secret: the KYC status sample. */
	| { kind: 'kycStatus'; subject: IDataObject }
	/** `notification` present but not an object. */
	| { kind: 'malformed'; reason: string }
	/** Anything else: not something FacilitaPay sends. */
	| { kind: 'unknown' };

export function classifyPayload(payload: IDataObject): Classified {
	if ('notification' in payload) {
		const notification = payload.notification;
		if (!isPlainObject(notification)) {
			return { kind: 'malformed', reason: '"notification" is not an object' };
		}
		return { kind: 'notification', notification, secret: notification.secret };
	}
	if (isPlainObject(payload.data)) return { kind: 'kycStatus', subject: payload.data };
	return { kind: 'unknown' };
}

/** The subject fields of the KYC status payload (spec, Resources) that reach the item. */
const KYC_SUBJECT_FIELDS = [
	'id',
	'status',
	'social_name',
	'document_type',
	'document_number',
	'fiscal_country',
	'email',
	'phone_number',
	'birth_date',
	'net_monthly_average_income',
	'clearance_level',
	'required_clearance_level',
	'updated_at',
] as const;
/** Longest text kept from an unsigned payload. */
const KYC_TEXT_MAX = 256;

function kycValue(value: unknown): string | number | boolean | null {
	if (typeof value === 'string') return value.slice(0, KYC_TEXT_MAX);
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'boolean') return value;
	return null;
}

/**
 * The item for an unsigned KYC status payload, flagged as not verified. Anyone who knows the URL
 * can send one, so it is not copied wholesale: only the documented subject fields with plain values
 * (text cut at 256 characters), never nested objects from the sender.
 */
export function kycStatusFields(subject: IDataObject): IDataObject {
	const copy: IDataObject = {};
	for (const name of KYC_SUBJECT_FIELDS) {
		if (name in subject) copy[name] = kycValue(subject[name]);
	}
	return {
		type: KYC_STATUS_TYPE,
		verified: false,
		subject_id: copy.id ?? null,
		status: copy.status ?? null,
		subject: copy,
	};
}

const SENSITIVE_HEADER = /authorization|cookie|token|secret|api[-_]?key|session|signature/i;

/** Request headers safe to hand to the workflow: credentials, cookies and tokens are left out. */
export function safeHeaders(headers: unknown): IDataObject {
	const result: IDataObject = {};
	if (!isPlainObject(headers)) return result;
	for (const [name, value] of Object.entries(headers)) {
		if (SENSITIVE_HEADER.test(name) || value === undefined) continue;
		result[name.toLowerCase()] = value;
	}
	return result;
}

/** The fields each documented event carries besides type and secret (spec, Events). */
const DOCUMENTED_FIELDS: Record<string, readonly string[]> = {
	identified: ['transaction_id'],
	exchange_created: ['exchange_id', 'transaction_ids'],
	wire_created: ['wire_id', 'transaction_ids'],
	payment_approved: ['transaction_id', 'checkout_id'],
	payment_failed: ['transaction_id', 'checkout_id'],
	wire_waiting_correction: [
		'error_code',
		'error_description',
		'bank_account_owner_id',
		'bank_account_id',
		'transaction_ids',
		'wire_id',
	],
	payment_expired: ['transaction_id'],
	payment_refunded: ['transaction_id'],
	non_identified_bank_transaction: ['bank_transaction'],
	subscription_activated: ['subscription'],
	subscription_canceled: ['subscription'],
	subscription_completed: ['subscription'],
	invoice_paid: ['invoice'],
	subject_approved: ['subject_id'],
	subject_reproved: ['subject_id', 'reason', 'items'],
	document_required: ['subject_id', 'required_documents'],
	subject_account_authorization: ['subject_id', 'status', 'reason'],
	account_request_status: ['request_id', 'status'],
};

/**
 * The event's own fields, without the secret. For a documented type only its documented fields
 * (so a sender cannot slip, say, a "value" into the item); a type this node does not know yet keeps
 * all of them.
 */
export function eventFields(notification: IDataObject): IDataObject {
	const type = typeof notification.type === 'string' ? notification.type : undefined;
	const documented = type === undefined ? undefined : DOCUMENTED_FIELDS[type];
	const fields: IDataObject = {};
	for (const [name, value] of Object.entries(notification)) {
		if (name === 'secret') continue;
		if (documented && name !== 'type' && !documented.includes(name)) continue;
		fields[name] = value;
	}
	return fields;
}
