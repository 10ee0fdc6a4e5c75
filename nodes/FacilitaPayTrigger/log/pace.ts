/*
 * When the reader reads the log next: pure. It polls while idle and is woken early by a delivery
 * (a prompt), but never reads more often than once per PROMPT_GAP_MS, whatever arrives: a flood of
 * forged notifications costs at most 1000 / PROMPT_GAP_MS log reads per second.
 */

/** Between two reads of the log while nothing prompts. */
export const IDLE_POLL_MS = 2_000;
/** The shortest time between the starts of two reads of the log (prompts coalesce). */
export const PROMPT_GAP_MS = 500;
/** After a failed read of the log, the next one waits this long. */
export const AFTER_FAILURE_MS = 5_000;
/** How often the recent window is read again newest first (a record listed behind the cursor). */
export const LOOK_BACK_EVERY_MS = 30_000;
/** How often FacilitaPay's failed list is read for records that started but are still listed. */
export const FAILED_SWEEP_EVERY_MS = 60_000;

/** When the next read may start, given when the last one started and whether a delivery prompted. */
export function nextReadAt(lastReadAt: number, prompted: boolean, failed = false): number {
	if (failed) return lastReadAt + AFTER_FAILURE_MS;
	return lastReadAt + (prompted ? PROMPT_GAP_MS : IDLE_POLL_MS);
}

/** Whether a periodic job last done at `doneAt` is due again at `now`. */
export function isDue(doneAt: number | undefined, everyMs: number, now: number): boolean {
	return doneAt === undefined || now - doneAt >= everyMs;
}
