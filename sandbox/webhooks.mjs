/**
 * Event emission and webhook delivery, like the service: ONE url per account, a short secret
 * chosen by the service, body `{"notification": {type, secret, ...fields}}`, 5 further attempts
 * after a failure at increasing intervals, then the record stays failed.
 *
 * What the spec leaves open is played on demand (`configure`, `POST /_sandbox/webhooks/delivery`):
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
import { randomUUID, randomInt } from 'node:crypto';
import axios from 'axios';
import { isoSeconds } from './clock.mjs';
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

/** Minutes between a failed attempt and the next one (5 further attempts). */
export const RETRY_MINUTES = [1, 5, 15, 60, 360];

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
 * @param {{ state: any, clock: any, timeoutMs?: number }} o
 */
export function createWebhooks({ state, clock, timeoutMs = 10000 }) {
	/** @type {Set<Promise<void>>} */
	const inFlight = new Set();
	/** Redeliveries waiting on real time. @type {Set<NodeJS.Timeout>} */
	const realTimers = new Set();
	let queue = Promise.resolve();
	const settings = defaultDelivery(timeoutMs);
	let http = client();
	const stats = {
		attempts: 0,
		by_status: /** @type {Record<string, number>} */ ({}),
		/** How long each attempt waited for its answer, in ms (the latest 10 000). @type {number[]} */
		durations: [],
	};

	function client() {
		return axios.create({
			timeout: settings.timeout_ms,
			validateStatus: () => true,
			maxRedirects: 0,
		});
	}

	function newSecret() {
		let secret;
		do secret = String(randomInt(1000, 10000));
		while (secret === state.webhook.secret);
		return secret;
	}

	function enable(url) {
		state.webhook = { url, secret: newSecret(), enabled: true };
		return state.webhook.secret;
	}

	function disable() {
		state.webhook.enabled = false;
		for (const rec of state.notifications.values()) cancelRetry(rec);
	}

	function cancelRetry(rec) {
		clock.cancel(rec._retryTask);
		if (rec._retryTimer) {
			clearTimeout(rec._retryTimer);
			realTimers.delete(rec._retryTimer);
		}
		rec._retryTask = null;
		rec._retryTimer = null;
		rec.next_attempt_at = null;
	}

	/** Changes how deliveries are made (see the top of this file); answers the settings. */
	function configure(body = {}) {
		const errors = new Errors();
		if (
			body.concurrent !== undefined &&
			typeof body.concurrent !== 'boolean' &&
			!(Number.isInteger(body.concurrent) && body.concurrent > 0)
		)
			errors.add('concurrent', 'must be true, false or a positive number of deliveries');
		if (
			body.timeout_ms !== undefined &&
			!(Number.isInteger(body.timeout_ms) && body.timeout_ms > 0)
		)
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
		http = client();
		return view();
	}

	/** The settings and what deliveries did so far. */
	function view() {
		const records = [...state.notifications.values()];
		return {
			...settings,
			stats: {
				records: records.length,
				delivered: records.filter((rec) => rec.sent_at && rec.failed_at === null).length,
				failing: records.filter((rec) => rec.failed_at !== null).length,
				attempts: stats.attempts,
				by_status: { ...stats.by_status },
				in_flight: inFlight.size,
				waiting_redelivery: realTimers.size,
				answer_ms: percentiles(stats.durations),
			},
		};
	}

	/**
	 * A new notification record of the account's current URL, not attempted yet.
	 * @param {Record<string, unknown>} notification @param {string | undefined} secret
	 */
	function newRecord(notification, secret) {
		return {
			id: randomUUID(),
			url: writtenUrl(state.webhook.url, settings.record_url_form),
			// Where the delivery goes: the URL registered, whatever form the log writes.
			_to: state.webhook.url,
			sent_at: null,
			failed_at: null,
			inserted_at: clock.iso(),
			notification,
			attempts: 0,
			next_attempt_at: null,
			last_response_status: null,
			last_error: null,
			_secret: secret,
			_retryTask: null,
			_retryTimer: null,
		};
	}

	/**
	 * Emits one event: always logged in `state.events`; delivered when webhooks are enabled.
	 * @param {string} type @param {Record<string, unknown>} fields
	 */
	function emit(type, fields = {}) {
		const event = { type, ...fields, ...(settings.extra_fields[type] ?? {}) };
		state.events.push({ ...event, emitted_at: clock.iso() });
		if (!state.webhook.enabled || !state.webhook.url) return null;
		const rec = newRecord(event, state.webhook.secret);
		write(rec);
		deliver(rec);
		const subject =
			(type === 'subject_approved' || type === 'subject_reproved') && settings.kyc_payload !== 'off'
				? state.subjects.get(String(fields.subject_id))
				: undefined;
		if (subject) emitKyc(subject);
		return rec;
	}

	/** The KYC status payload of a subject, as `kyc_payload` says (listed or not). */
	function emitKyc(subject) {
		const view = Object.fromEntries(
			Object.entries(subject).filter(([key]) => !key.startsWith('_')),
		);
		const rec = { ...newRecord({ data: view }, undefined), _kyc: true };
		if (settings.kyc_payload === 'listed') write(rec);
		deliver(rec);
	}

	function deliver(rec) {
		if (typeof settings.concurrent === 'number') {
			track(limited(() => attempt(rec)));
			return;
		}
		if (settings.concurrent) {
			track(attempt(rec));
			return;
		}
		// first attempts go out one after the other, in the order the events happened
		const delivery = queue.then(() => attempt(rec));
		queue = delivery.catch(() => {});
		track(delivery);
	}

	/**
	 * When each record was listed (wall-clock ms, record id → ms): what "FacilitaPay listed the
	 * event" means for a latency measured against it (`GET /_sandbox/notifications`).
	 * @type {Map<string, number>}
	 */
	const listedAt = new Map();
	function list(rec) {
		state.notifications.set(rec.id, rec);
		listedAt.set(rec.id, Date.now());
	}

	/** Lists the record now, or `record_delay_seconds` real seconds after its first delivery. */
	function write(rec) {
		const delayMs = settings.record_delay_seconds * 1000;
		if (delayMs <= 0) {
			list(rec);
			return;
		}
		const timer = setTimeout(() => {
			realTimers.delete(timer);
			list(rec);
		}, delayMs);
		timer.unref?.();
		realTimers.add(timer);
	}

	/** How many records one page holds when `asked` are asked. */
	function pageSize(asked) {
		return settings.per_page_max === null ? asked : Math.min(asked, settings.per_page_max);
	}

	/** First deliveries waiting for one of the `concurrent` places. @type {Array<() => void>} */
	const waiting = [];
	let running = 0;
	/** Runs `job` when fewer than `concurrent` first deliveries are in flight. */
	async function limited(job) {
		if (running >= Number(settings.concurrent))
			await new Promise((resolve) => waiting.push(() => resolve(undefined)));
		running += 1;
		try {
			return await job();
		} finally {
			running -= 1;
			waiting.shift()?.();
		}
	}

	function track(delivery) {
		inFlight.add(delivery);
		delivery.finally(() => inFlight.delete(delivery));
	}

	async function attempt(rec) {
		rec.attempts += 1;
		rec.next_attempt_at = null;
		stats.attempts += 1;
		const started = Date.now();
		let ok = false;
		try {
			const res = await http.post(
				rec._to ?? rec.url,
				rec._kyc
					? { data: rec.notification.data }
					: { notification: { ...rec.notification, secret: rec._secret } },
				{
					headers: {
						'Content-Type': 'application/json',
						'User-Agent': 'FacilitaPay-Sandbox-Webhooks/1.0',
					},
				},
			);
			rec.last_response_status = res.status;
			rec.last_error = null;
			ok = res.status >= 200 && res.status < 300;
			if (!ok) rec.last_error = `HTTP ${res.status}`;
		} catch (err) {
			rec.last_response_status = null;
			const error = /** @type {any} */ (err);
			rec.last_error = error.code === 'ECONNABORTED' ? 'timeout' : error.code || error.message;
		}
		stats.durations.push(Date.now() - started);
		if (stats.durations.length > 10000) stats.durations.shift();
		const outcome = rec.last_response_status ?? rec.last_error;
		stats.by_status[outcome] = (stats.by_status[outcome] ?? 0) + 1;
		rec.sent_at = clock.iso();
		if (ok) {
			rec.failed_at = null;
			return;
		}
		rec.failed_at = clock.iso();
		scheduleRetry(rec);
	}

	function scheduleRetry(rec) {
		const retryIndex = rec.attempts - 1;
		if (!state.webhook.enabled) return;
		const again = () => {
			if (!state.webhook.enabled || rec.failed_at === null) return;
			const delivery = attempt(rec);
			track(delivery);
			return delivery;
		};
		if (settings.retry_seconds) {
			if (retryIndex >= settings.retry_seconds.length) return;
			const ms = settings.retry_seconds[retryIndex] * 1000;
			rec.next_attempt_at = new Date(Date.now() + ms).toISOString();
			const timer = setTimeout(() => {
				realTimers.delete(timer);
				rec._retryTimer = null;
				again();
			}, ms);
			timer.unref?.();
			realTimers.add(timer);
			rec._retryTimer = timer;
			return;
		}
		if (retryIndex >= RETRY_MINUTES.length) return;
		const at = clock.now() + RETRY_MINUTES[retryIndex] * 60000;
		rec.next_attempt_at = isoSeconds(at);
		rec._retryTask = clock.schedule(
			at,
			() => {
				rec._retryTask = null;
				return again();
			},
			`webhook redelivery ${rec.id} (attempt ${rec.attempts + 1})`,
		);
	}

	/**
	 * Resolves when no delivery is in flight; with `redeliveries`, also when no redelivery waits on
	 * real time (the last one given up or delivered).
	 */
	async function idle({ redeliveries = false } = {}) {
		for (;;) {
			while (inFlight.size) await Promise.allSettled([...inFlight]);
			if (!redeliveries || realTimers.size === 0) return;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}

	/** Marks a notification successful (failed_at null) and stops its redelivery. */
	function markSuccessful(rec) {
		cancelRetry(rec);
		rec.failed_at = null;
		return rec;
	}

	/** Stops every redelivery waiting on real time (reset, close). */
	function stop() {
		for (const timer of realTimers) clearTimeout(timer);
		realTimers.clear();
	}

	/** A notification record as `GET /notifications` shows it (with its secret or not, see above). */
	function recordView(rec) {
		return notificationView(rec, settings.records_secret);
	}

	/** Every listed record with the wall-clock time it was listed (`listed_at_ms`). */
	function listed() {
		return [...state.notifications.values()].map((rec) => ({
			...recordView(rec),
			listed_at_ms: listedAt.get(rec.id) ?? null,
		}));
	}

	return {
		enable,
		disable,
		listed,
		recordView,
		pageSize,
		emit,
		idle,
		markSuccessful,
		configure,
		view,
		stop,
		inFlight: () => inFlight.size,
	};
}

/** p50, p95 and max of a list of durations (null when empty). @param {number[]} list */
function percentiles(list) {
	if (list.length === 0) return null;
	const sorted = [...list].sort((a, b) => a - b);
	const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
	return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1) };
}

/**
 * Public view of a notification record. With `withSecret`, the payload keeps the secret it was
 * delivered with (the sandbox's default; the live service may leave it out).
 */
export function notificationView(rec, withSecret = true) {
	const { _secret, _retryTask, _retryTimer, _to, ...pub } = rec;
	if (!withSecret) return { ...pub, notification: { ...rec.notification } };
	return { ...pub, notification: { ...rec.notification, secret: _secret } };
}
