import type { IDataObject } from 'n8n-workflow';

/** The type given to the unsigned KYC status payload, whose own event name FacilitaPay does not document. */
export const KYC_STATUS_TYPE = 'kyc_status';

function isPlainObject(value: unknown): value is IDataObject {
	return (
		typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)
	);
}

export type ParsedBody = { ok: true; payload: IDataObject } | { ok: false; reason: string };

/**
 * Reads the request body as a JSON object. n8n has already parsed JSON bodies; a body sent with
 * another content type arrives as text or only as the raw bytes, and is parsed here.
 */
export function parseBody(body: unknown, rawBody?: unknown): ParsedBody {
	if (isPlainObject(body) && Object.keys(body).length > 0) return { ok: true, payload: body };
	let text: string | undefined;
	if (typeof body === 'string') text = body;
	else if (Buffer.isBuffer(body)) text = body.toString('utf8');
	else if (Buffer.isBuffer(rawBody)) text = rawBody.toString('utf8');
	else if (typeof rawBody === 'string') text = rawBody;
	if (text === undefined || text.trim() === '') {
		return { ok: false, reason: 'The request has no body' };
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		return { ok: false, reason: `The body is not JSON (${(error as Error).message})` };
	}
	if (!isPlainObject(parsed)) return { ok: false, reason: 'The body is not a JSON object' };
	return { ok: true, payload: parsed };
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

/** The event's own fields, without the secret. */
export function eventFields(notification: IDataObject): IDataObject {
	const fields: IDataObject = { ...notification };
	delete fields.secret;
	return fields;
}

/** The item for an unsigned KYC status payload: the subject as sent, flagged as not verified. */
export function kycStatusFields(subject: IDataObject): IDataObject {
	return {
		type: KYC_STATUS_TYPE,
		verified: false,
		subject_id: subject.id ?? null,
		status: subject.status ?? null,
		subject,
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

/** The single transaction a notification is about, when it names one. */
export function transactionIdOf(fields: IDataObject): string | undefined {
	const id = fields.transaction_id;
	if (typeof id === 'string' && id.trim() !== '') return id.trim();
	if (typeof id === 'number' && Number.isFinite(id)) return String(id);
	return undefined;
}
