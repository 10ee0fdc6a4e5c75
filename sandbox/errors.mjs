/**
 * Errors the sandbox answers, in the shapes of the service (the service's error bodies: {"errors":{…}}, {"error":"…"}, plain text).
 */
export class ApiError extends Error {
	/** @param {number} status @param {unknown} body @param {Record<string,string>} [headers] */
	constructor(status, body, headers = {}) {
		super(typeof body === 'string' ? body : JSON.stringify(body));
		this.status = status;
		this.body = body;
		this.headers = headers;
	}
}

export const notFound = () => new ApiError(404, { error: 'not_found' });

/** Throws 422 (or `status`) `{"errors": {...}}` when the collector holds messages. */
export function check(errors, status = 422) {
	if (errors.any) throw new ApiError(status, { errors: errors.map });
}

/** One-field validation failure. */
export function invalid(field, message, status = 422) {
	return new ApiError(status, { errors: { [field]: [message] } });
}
