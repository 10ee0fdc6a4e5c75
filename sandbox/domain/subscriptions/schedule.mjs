/**
 * The Schedule rules 1–5 of subscriptions, as plain functions of a subscription's fields and the
 * time (epoch ms), with no state or clock of their own:
 * 1. each invoice's first attempt at 06:00 UTC on its due date (or at once, on the next clock
 *    tick, if that moment has already passed);
 * 2. retries after a failed charge: frequency `day` → 4 hours later; automatic PIX → every second
 *    day; others → once a day (06:00 UTC); up to `total_retry_attempts` (no retry for the first
 *    invoice); exhausted → subscription canceled;
 * 3. month-end rule for month/quarter/semester/year (later invoices revert to the original day);
 * 4. trial_days delay only the first invoice; 5. free_days shift the whole schedule.
 */

export const FREQUENCIES = ['day', 'week', 'month', 'quarter', 'semester', 'year'];
const DAY = 86400000;
const HOUR = 3600000;
const MONTHS = { month: 1, quarter: 3, semester: 6, year: 12 };

/** @param {string} date YYYY-MM-DD @param {number} days */
export function addDays(date, days) {
	return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** The date `count` periods after `anchor` for a frequency, with the month-end rule (always from the anchor). */
export function addPeriods(anchor, frequency, count) {
	if (frequency === 'day') return addDays(anchor, count);
	if (frequency === 'week') return addDays(anchor, 7 * count);
	const [startYear, startMonth, startDay] = anchor.split('-').map(Number);
	const total = startMonth - 1 + MONTHS[frequency] * count;
	const year = startYear + Math.floor(total / 12);
	const month = (total % 12) + 1;
	const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
	return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(startDay, last)).padStart(2, '0')}`;
}

/**
 * Due date of invoice `index` (0-based) under rules 3–5.
 * @param {{start_date: string, free_days: number, trial_days: number, frequency: string}} sub
 * @param {number} index
 */
export function dueDate(sub, index) {
	const anchor = addDays(sub.start_date, sub.free_days);
	if (index === 0) return addDays(anchor, sub.trial_days);
	return addPeriods(anchor, sub.frequency, index);
}

/** Rule 1: 06:00 UTC on a date (epoch ms). @param {string} date YYYY-MM-DD */
export function collectionTime(date) {
	return Date.parse(`${date}T06:00:00Z`);
}

/** When a planned attempt runs: at the planned moment, or now if it has passed. */
export function attemptTime(planned, now) {
	return Math.max(planned, now);
}

/**
 * Rule 2, the moment of the retry after a charge failed at `now`.
 * @param {{frequency: string, payment_method: string}} sub @param {number} now epoch ms
 */
export function retryTime(sub, now) {
	if (sub.frequency === 'day') return now + 4 * HOUR;
	const days = sub.payment_method === 'automatic_pix' ? 2 : 1;
	return collectionTime(addDays(new Date(now).toISOString().slice(0, 10), days));
}

/**
 * Whether a planned attempt still charges: not once the subscription is over or the invoice
 * settled, and for automatic PIX only after the payer authorised the recurrence.
 */
export function attemptCharges(sub, invoice) {
	if (sub.status === 'canceled' || sub.status === 'completed' || invoice.status !== 'pending')
		return false;
	return sub.payment_method !== 'automatic_pix' || sub.from_pix?.status === 'authorized';
}

/**
 * What follows a failed charge of an invoice (rule 2):
 * - `wait_for_card`: the first invoice of a pending card subscription fails with no retry; the
 *   subscription waits for new card data (3DS challenge);
 * - `retry` at `at`, while failures minus one are below the retries allowed (none for cycle 1);
 * - `cancel`: retries exhausted, the invoice fails and the subscription is canceled.
 * @param {{status: string, frequency: string, payment_method: string, total_retry_attempts: number}} sub
 * @param {{cycle: number, charges: {status: string}[]}} invoice with the failed charge recorded
 * @param {number} now epoch ms
 * @returns {{action: 'wait_for_card'} | {action: 'retry', at: number} | {action: 'cancel'}}
 */
export function afterFailedCharge(sub, invoice, now) {
	if (invoice.cycle === 1 && sub.status === 'pending') return { action: 'wait_for_card' };
	const failures = invoice.charges.filter((charge) => charge.status === 'failed').length;
	const retriesAllowed = invoice.cycle === 1 ? 0 : sub.total_retry_attempts;
	if (failures - 1 < retriesAllowed) return { action: 'retry', at: retryTime(sub, now) };
	return { action: 'cancel' };
}

/** Whether a paid invoice is the subscription's last (then the subscription completes). */
export function isLastCycle(sub, invoice) {
	return invoice.cycle >= sub.cycles;
}
