/**
 * What the sandbox's webhook delivery plays on demand where the spec leaves it open (webhooks.mjs
 * delivers; `configure`, `POST /_sandbox/webhooks/delivery`, changes these):
 * - `concurrent`: first deliveries go out at once instead of one after the other (default false);
 *   a number N: at most N first deliveries in flight at once (e.g. 25);
 * - `timeout_ms`: how long a delivery waits for the receiver's answer (default 10 000);
 * - `retry_seconds`: redelivery after these REAL seconds (e.g. [1, 2, 4, 8, 16]) instead of
 *   1, 5, 15, 60 and 360 minutes of the virtual clock;
 * - `extra_fields`: fields the spec does not list, added to every event of a type
 *   (`{"payment_failed": {"failure_reason": "insufficient_funds"}}`);
 * - `records_secret`: whether the notification records (`GET /notifications`) carry the secret
 *   each notification was delivered with, in `notification.secret` (default true; whether the live
 *   service's records do is not published).
 * - `per_page_max`: the most records one page of `GET /notifications` holds, whatever `per_page`
 *   asks (default null: as asked; the live maximum is not published);
 * - `record_delay_seconds`: a record is written (listed by `GET /notifications`) this many REAL
 *   seconds after its first delivery went out (default 0: before; whether the live service writes
 *   it before sending is not published). It is then listed after the records written before it.
 * - `kyc_payload`: the KYC status payload (`{"data": {…subject…}}`, no wrapper, no secret; its
 *   event name is not published) sent beside `subject_approved` and `subject_reproved`: `off`
 *   (default), `listed` (written in the notification log like any other) or `unlisted` (delivered,
 *   never listed: whether the live log lists it is not published).
 * - `record_url_form`: the form in which a record's `url` is written in the notification log, the
 *   delivery still going to the registered URL (the spec does not say; FacilitaPay or a proxy in
 *   front of the receiver may write it otherwise): `as_registered` (default), `host_case` (scheme
 *   and host upper-case), `default_port` (the scheme's default port written, or dropped when the
 *   URL has it; a URL with another port is unchanged), `trailing_slash`, `percent_encoded` (every
 *   unreserved character of the path percent-encoded, lower-case hex), `all` (all of these), and
 *   `other_path` (a path prefix `/proxy`: ANOTHER URL, which a receiver must not take for its own).
 */
import { Errors } from './validation.mjs';
import { check } from './errors.mjs';

/** The forms `record_url_form` writes a record's url in. */
export const RECORD_URL_FORMS = [
	'as_registered',
	'host_case',
	'default_port',
	'trailing_slash',
	'percent_encoded',
	'all',
	'other_path',
];

const DEFAULT_PORTS = { 'http:': '80', 'https:': '443' };

/**
 * `url` written in `form` (see the top of this file); a string that is no URL is unchanged.
 * @param {string} url @param {string} form
 */
export function writtenUrl(url, form) {
	if (form === 'as_registered') return url;
	let parsed;
	try {
		parsed = new URL(url);
	} catch {
		return url;
	}
	const { protocol, username, password, hostname, port, pathname, search, hash } = parsed;
	const all = form === 'all';
	let scheme = protocol;
	let host = hostname;
	let portPart = port ? `:${port}` : '';
	let path = pathname;
	if (form === 'host_case' || all) {
		scheme = scheme.toUpperCase();
		host = host.toUpperCase();
	}
	if (form === 'default_port' || all) {
		const standard = DEFAULT_PORTS[/** @type {'http:'|'https:'} */ (protocol)];
		const written = new RegExp(`^[a-z][a-z0-9+.-]*://[^/?#]*:${standard}(?=[/?#]|$)`, 'i');
		if (standard && port === '') portPart = written.test(url) ? '' : `:${standard}`;
	}
	if (form === 'percent_encoded' || all) {
		path = path.replace(
			/[A-Za-z0-9\-._~]/g,
			(char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
		);
	}
	if ((form === 'trailing_slash' || all) && !path.endsWith('/')) path = `${path}/`;
	if (form === 'other_path') path = `/proxy${path}`;
	const user = username || password ? `${username}${password ? `:${password}` : ''}@` : '';
	return `${scheme}//${user}${host}${portPart}${path}${search}${hash}`;
}

/**
 * How deliveries go until POST /_sandbox/webhooks/delivery changes them: one at a time,
 * `timeoutMs` to answer, redelivery on the virtual clock, no extra fields.
 * @param {number} timeoutMs
 */
export const defaultDelivery = (timeoutMs) => ({
	concurrent: false,
	timeout_ms: timeoutMs,
	/** @type {number[] | null} */
	retry_seconds: null,
	/** @type {Record<string, Record<string, unknown>>} */
	extra_fields: {},
	records_secret: true,
	/** @type {number | null} */
	per_page_max: null,
	record_delay_seconds: 0,
	kyc_payload: 'off',
	record_url_form: 'as_registered',
});

/**
 * Checks `body` (a 422 naming each wrong field, nothing changed) and writes the settings it gives
 * into `settings`.
 * @param {ReturnType<typeof defaultDelivery>} settings @param {Record<string, any>} body
 */
export function applySettings(settings, body) {
	const errors = new Errors();
	if (
		body.concurrent !== undefined &&
		typeof body.concurrent !== 'boolean' &&
		!(Number.isInteger(body.concurrent) && body.concurrent > 0)
	)
		errors.add('concurrent', 'must be true, false or a positive number of deliveries');
	if (body.timeout_ms !== undefined && !(Number.isInteger(body.timeout_ms) && body.timeout_ms > 0))
		errors.add('timeout_ms', 'must be a positive number of milliseconds');
	if (
		body.retry_seconds !== undefined &&
		body.retry_seconds !== null &&
		!(
			Array.isArray(body.retry_seconds) &&
			body.retry_seconds.every((s) => typeof s === 'number' && s >= 0)
		)
	)
		errors.add('retry_seconds', 'must be a list of seconds, or null for the virtual clock');
	if (
		body.extra_fields !== undefined &&
		(typeof body.extra_fields !== 'object' ||
			body.extra_fields === null ||
			Object.values(body.extra_fields).some((v) => typeof v !== 'object' || v === null))
	)
		errors.add('extra_fields', 'must map event types to objects of fields');
	if (body.records_secret !== undefined && typeof body.records_secret !== 'boolean')
		errors.add('records_secret', 'must be true or false');
	if (
		body.per_page_max !== undefined &&
		body.per_page_max !== null &&
		!(Number.isInteger(body.per_page_max) && body.per_page_max > 0)
	)
		errors.add('per_page_max', 'must be a positive integer, or null for no cap');
	if (
		body.record_delay_seconds !== undefined &&
		!(typeof body.record_delay_seconds === 'number' && body.record_delay_seconds >= 0)
	)
		errors.add('record_delay_seconds', 'must be a number of seconds, 0 or more');
	if (body.kyc_payload !== undefined && !['off', 'listed', 'unlisted'].includes(body.kyc_payload))
		errors.add('kyc_payload', 'must be off, listed or unlisted');
	if (body.record_url_form !== undefined && !RECORD_URL_FORMS.includes(body.record_url_form))
		errors.add('record_url_form', `must be one of: ${RECORD_URL_FORMS.join(', ')}`);
	check(errors);
	for (const name of [
		'concurrent',
		'timeout_ms',
		'retry_seconds',
		'extra_fields',
		'records_secret',
		'per_page_max',
		'record_delay_seconds',
		'kyc_payload',
		'record_url_form',
	])
		if (body[name] !== undefined) settings[name] = body[name];
}
