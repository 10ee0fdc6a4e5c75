/**
 * Virtual clock of the sandbox. Time only moves when `advance()` is called (tests, the
 * `/_sandbox/clock/advance` endpoint, or the CLI's real-time ticker). Everything time-based
 * (PIX expiry, subscription charges, webhook redelivery, bank account requests…) is a task
 * scheduled on this clock; `advance()` runs the due tasks in time order and resolves when done.
 */

/** @param {number} ms */
export function isoSeconds(ms) {
	return new Date(ms).toISOString().slice(0, 19) + 'Z';
}

/**
 * How the sandbox writes the timestamps of its records (`inserted_at`, `updated_at`…):
 * - `docs`: `2025-07-09T13:51:30Z`, as the public docs' example outputs (from FacilitaPay's
 *   sandbox) show them; the default.
 * - `live`: `2025-07-09T13:51:30.989491`, microseconds and no zone (UTC), as real answers quoted by
 *   FacilitaPay's public clients show them.
 */
export const TIMESTAMP_FORMS = ['docs', 'live'];

/** @param {number} ms @param {string} form one of TIMESTAMP_FORMS */
export function timestampIn(form, ms) {
	if (form === 'live') return new Date(ms).toISOString().slice(0, 23) + '000';
	return isoSeconds(ms);
}

/**
 * @param {{ now?: number|string|Date }} [options]
 */
export function createClock(options = {}) {
	const initial = toMs(options.now ?? Date.now());
	let current = initial;
	let seq = 0;
	let timestampForm = 'docs';
	/** @type {{id:number, at:number, fn:() => unknown, label:string, canceled:boolean}[]} */
	let tasks = [];
	/** @type {() => Promise<void>} */
	let settle = async () => {};
	let chain = Promise.resolve();

	const clock = {
		now: () => current,
		/** The current time as the sandbox's records write it (see TIMESTAMP_FORMS). */
		iso: () => timestampIn(timestampForm, current),
		timestampForm: () => timestampForm,
		/** @param {string} form one of TIMESTAMP_FORMS */
		setTimestampForm(form) {
			timestampForm = form;
		},
		initial: () => initial,
		/** Hook awaited before and after every task (used to wait for in-flight webhooks). */
		setSettle(fn) {
			settle = fn;
		},
		/**
		 * @param {number} at epoch ms
		 * @param {() => unknown} fn
		 * @param {string} [label]
		 */
		schedule(at, fn, label = 'task') {
			const task = { id: ++seq, at: Math.max(at, current), fn, label, canceled: false };
			tasks.push(task);
			return task;
		},
		/** @param {{canceled:boolean}|undefined|null} task */
		cancel(task) {
			if (task) task.canceled = true;
		},
		pending() {
			return tasks
				.filter((task) => !task.canceled)
				.sort((first, second) => first.at - second.at || first.id - second.id)
				.map((task) => ({ at: isoSeconds(task.at), label: task.label }));
		},
		/**
		 * Moves the clock forward by `ms`, running every task due on the way (serialized).
		 * @param {number} ms
		 */
		advance(ms) {
			const run = chain.then(() => runUntil(current + Math.max(0, ms)));
			chain = run.catch(() => {});
			return run;
		},
		/** Back to the initial time, with no tasks. */
		reset() {
			tasks = [];
			current = initial;
			timestampForm = 'docs';
		},
	};

	async function runUntil(target) {
		let ran = 0;
		for (;;) {
			await settle();
			tasks = tasks.filter((task) => !task.canceled);
			let next = null;
			for (const task of tasks) {
				if (
					task.at <= target &&
					(!next || task.at < next.at || (task.at === next.at && task.id < next.id))
				)
					next = task;
			}
			if (!next) break;
			tasks = tasks.filter((task) => task !== next);
			if (next.at > current) current = next.at;
			ran++;
			await next.fn();
		}
		current = Math.max(current, target);
		await settle();
		return { now: isoSeconds(current), tasks_run: ran };
	}

	return clock;
}

/** @param {number|string|Date} value */
function toMs(value) {
	const ms =
		value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
	if (!Number.isFinite(ms)) throw new Error(`Invalid clock start: ${value}`);
	return Math.floor(ms / 1000) * 1000;
}
