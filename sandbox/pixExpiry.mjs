/**
 * `dynamic_pix_expires_at` as the service takes it: `YYYY-MM-DDThh:mm:ssZ`, and also with
 * milliseconds as the live docs' own example writes it (`2025-05-08T08:30:44.074Z`).
 *
 * Wiring (transactions.mjs belongs to the transactions' owner): in `createDynamicPix`, the test
 * `!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(exp)` becomes `readPixExpiry(exp) === null`, and
 * `Date.parse(exp)` becomes `readPixExpiry(exp)`.
 */

/**
 * The expiry in milliseconds since the epoch, or null when it is not a UTC date-time in that form
 * or not a real date.
 * @param {unknown} value
 */
export function readPixExpiry(value) {
	if (typeof value !== 'string') return null;
	const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?Z$/.exec(value);
	if (!match) return null;
	const [, year, month, day, hour, minute, second] = match.map(Number);
	const ms =
		Date.UTC(year, month - 1, day, hour, minute, second) + Math.floor(Number(match[7] ?? 0) * 1000);
	const check = new Date(ms);
	if (
		check.getUTCFullYear() !== year ||
		check.getUTCMonth() !== month - 1 ||
		check.getUTCDate() !== day ||
		hour > 23 ||
		minute > 59 ||
		second > 59
	)
		return null;
	return ms;
}
