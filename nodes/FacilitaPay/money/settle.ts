/**
 * How long FacilitaPay is given to write a request it may have received (a 504 from its gateway, a
 * timeout, a reset): "not found" proves "not sent" for such a request only once FacilitaPay's own
 * clock (the `Date` of its answers) shows this much time passed since the try failed. A guess of
 * the longest a request can stay in flight behind a gateway that gave up on it (gateways give up
 * after 30-60 s; the service's workers go on), stated in docs/money.md; two seconds more for the
 * `Date` header's whole seconds.
 */
export const SETTLE_WINDOW_MS = 10 * 60_000 + 2_000;

/** A moment as a person reads it (UTC, to the second). */
export function utcText(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
