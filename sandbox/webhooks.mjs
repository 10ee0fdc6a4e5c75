/**
 * Event emission and webhook delivery, like the service: ONE url per account, a short secret
 * chosen by the service, body `{"notification": {type, secret, ...fields}}`, 5 further attempts
 * after a failure at increasing intervals, then the record stays failed.
 *
 * What the spec leaves open (concurrency, timeouts, redelivery times, extra fields, how the
 * notification log writes records) is played on demand: webhookSettings.mjs.
 */
import { randomUUID, randomInt } from 'node:crypto';
import axios from 'axios';
import { isoSeconds } from './clock.mjs';
import { applySettings, defaultDelivery, writtenUrl } from './webhookSettings.mjs';

/** Minutes between a failed attempt and the next one (5 further attempts). */
export const RETRY_MINUTES = [1, 5, 15, 60, 360];

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

	/** Changes how deliveries are made (webhookSettings.mjs); answers the settings. */
	function configure(body = {}) {
		applySettings(settings, body);
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

	/**
	 * A notification record as `GET /notifications` shows it (with its secret or not:
	 * `records_secret`, webhookSettings.mjs).
	 */
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
