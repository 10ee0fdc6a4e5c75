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

/** A documented field: kept as sent (`true`), or an object whose own documented fields are listed. */
type Schema = { [name: string]: true | Schema };

const SUBSCRIPTION: Schema = {
	id: true,
	status: true,
	subject_id: true,
	canceled_by_payer: true,
	canceled_reason: true,
};
const BANK_TRANSACTION: Schema = {
	id: true,
	value: true,
	currency: true,
	movement_date: true,
	bank_account_id: true,
	paid_at: true,
	spei_concepto_de_pago: true,
	subject: {
		document_number: true,
		document_type: true,
		name: true,
		bank_account: { bank: true, branch_number: true, account_number: true, account_type: true },
	},
};

/** The fields each documented event carries besides type and secret (spec, Events). */
const DOCUMENTED: Record<string, Schema> = {
	identified: { transaction_id: true },
	exchange_created: { exchange_id: true, transaction_ids: true },
	wire_created: { wire_id: true, transaction_ids: true },
	payment_approved: { transaction_id: true, checkout_id: true },
	payment_failed: { transaction_id: true, checkout_id: true },
	wire_waiting_correction: {
		error_code: true,
		error_description: true,
		bank_account_owner_id: true,
		bank_account_id: true,
		transaction_ids: true,
		wire_id: true,
	},
	payment_expired: { transaction_id: true },
	payment_refunded: { transaction_id: true },
	non_identified_bank_transaction: { bank_transaction: BANK_TRANSACTION },
	subscription_activated: { subscription: SUBSCRIPTION },
	subscription_canceled: { subscription: SUBSCRIPTION },
	subscription_completed: { subscription: SUBSCRIPTION },
	invoice_paid: { invoice: { id: true, status: true, subject_id: true, subscription_id: true } },
	subject_approved: { subject_id: true },
	subject_reproved: { subject_id: true, reason: true, items: true },
	document_required: { subject_id: true, required_documents: true },
	subject_account_authorization: { subject_id: true, status: true, reason: true },
	account_request_status: { request_id: true, status: true },
	// The payload's own fields (`data`) are the sender's, unsigned: they stay under unverifiedFields;
	// the subject FacilitaPay's API returns comes under `subject`.
	[KYC_STATUS_TYPE]: { subject_id: true, status: true },
};

/** Splits `source` by `schema`: the documented part and the rest (undefined when empty). */
function split(
	source: IDataObject,
	schema: Schema,
): { listed: IDataObject; unlisted?: IDataObject } {
	const listed: IDataObject = {};
	const unlisted: IDataObject = {};
	for (const [name, value] of Object.entries(source)) {
		const entry = Object.prototype.hasOwnProperty.call(schema, name) ? schema[name] : undefined;
		if (entry === undefined) unlisted[name] = value;
		else if (entry === true || !isPlainObject(value)) listed[name] = value;
		else {
			const inner = split(value, entry);
			listed[name] = inner.listed;
			if (inner.unlisted) unlisted[name] = inner.unlisted;
		}
	}
	return { listed, unlisted: Object.keys(unlisted).length > 0 ? unlisted : undefined };
}

export interface EventData {
	/** `type` and the fields the spec lists for it, as sent (never the secret). */
	fields: IDataObject;
	/** Everything else the sender added, kept apart: nothing vouches for it. */
	unverified?: IDataObject;
}

/**
 * The event's own data, without the secret: the fields the spec lists for its type, and the others
 * apart. A type the spec does not document lists nothing but `type`.
 */
export function eventData(notification: IDataObject): EventData {
	const { type, ...rest } = notification;
	delete rest.secret;
	const schema =
		typeof type === 'string' && Object.prototype.hasOwnProperty.call(DOCUMENTED, type)
			? DOCUMENTED[type]
			: {};
	const { listed, unlisted } = split(rest, schema);
	return { fields: { type, ...listed }, unverified: unlisted };
}

/** The unsigned KYC status payload `{"data": {…subject…}}` as an event of type kyc_status. */
export function kycStatusEvent(subject: IDataObject): IDataObject {
	return {
		type: KYC_STATUS_TYPE,
		subject_id: subject.id ?? null,
		status: subject.status ?? null,
		data: subject,
	};
}
