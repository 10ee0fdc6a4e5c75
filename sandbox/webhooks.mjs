/**
 * Event emission and webhook delivery, like the service: ONE url per account, a short secret
 * chosen by the service, body `{"notification": {type, secret, ...fields}}`, 5 further attempts
 * after a failure at increasing intervals of the VIRTUAL clock, then the record stays failed.
 */
import { randomUUID, randomInt } from 'node:crypto';
import axios from 'axios';
import { isoSeconds } from './clock.mjs';

/** Minutes between a failed attempt and the next one (5 further attempts). */
export const RETRY_MINUTES = [1, 5, 15, 60, 360];

/**
 * @param {{ state: any, clock: any, timeoutMs?: number }} o
 */
export function createWebhooks({ state, clock, timeoutMs = 10000 }) {
	/** @type {Set<Promise<void>>} */
	const inFlight = new Set();
	let queue = Promise.resolve();
	const http = axios.create({ timeout: timeoutMs, validateStatus: () => true, maxRedirects: 0 });

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
		for (const rec of state.notifications.values()) {
			clock.cancel(rec._retryTask);
			rec._retryTask = null;
			rec.next_attempt_at = null;
		}
	}

	/**
	 * Emits one event: always logged in `state.events`; delivered when webhooks are enabled.
	 * @param {string} type @param {Record<string, unknown>} fields
	 */
	function emit(type, fields = {}) {
		const event = { type, ...fields };
		state.events.push({ ...event, emitted_at: clock.iso() });
		if (!state.webhook.enabled || !state.webhook.url) return null;
		const rec = {
			id: randomUUID(),
			url: state.webhook.url,
			sent_at: null,
			failed_at: null,
			inserted_at: clock.iso(),
			notification: event,
			attempts: 0,
			next_attempt_at: null,
			last_response_status: null,
			last_error: null,
			_secret: state.webhook.secret,
			_retryTask: null,
		};
		state.notifications.set(rec.id, rec);
		// first attempts go out one after the other, in the order the events happened
		const delivery = queue.then(() => attempt(rec));
		queue = delivery.catch(() => {});
		track(delivery);
		return rec;
	}

	function track(delivery) {
		inFlight.add(delivery);
		delivery.finally(() => inFlight.delete(delivery));
	}

	async function attempt(rec) {
		rec.attempts += 1;
		rec.next_attempt_at = null;
		let ok = false;
		try {
			const res = await http.post(
				rec.url,
				{ notification: { ...rec.notification, secret: rec._secret } },
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
			rec.last_error = /** @type {any} */ (err).code || /** @type {any} */ (err).message;
		}
		rec.sent_at = clock.iso();
		if (ok) {
			rec.failed_at = null;
			return;
		}
		rec.failed_at = clock.iso();
		const retryIndex = rec.attempts - 1;
		if (retryIndex < RETRY_MINUTES.length && state.webhook.enabled) {
			const at = clock.now() + RETRY_MINUTES[retryIndex] * 60000;
			rec.next_attempt_at = isoSeconds(at);
			rec._retryTask = clock.schedule(
				at,
				() => {
					rec._retryTask = null;
					if (!state.webhook.enabled || rec.failed_at === null) return;
					const delivery = attempt(rec);
					track(delivery);
					return delivery;
				},
				`webhook redelivery ${rec.id} (attempt ${rec.attempts + 1})`,
			);
		}
	}

	/** Resolves when no delivery is in flight. */
	async function idle() {
		while (inFlight.size) await Promise.allSettled([...inFlight]);
	}

	/** Marks a notification successful (failed_at null) and stops its redelivery. */
	function markSuccessful(rec) {
		clock.cancel(rec._retryTask);
		rec._retryTask = null;
		rec.next_attempt_at = null;
		rec.failed_at = null;
		return rec;
	}

	return { enable, disable, emit, idle, markSuccessful, inFlight: () => inFlight.size };
}

/** Public view of a notification record. */
export function notificationView(rec) {
	const { _secret, _retryTask, ...pub } = rec;
	// As the service's records do, the payload keeps the secret it was delivered with.
	return { ...pub, notification: { ...rec.notification, secret: _secret } };
}
