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
/**
 * How often the reader reads n8n's credentials again, to tell when they reach another account than
 * the one the URL was registered with (log/deaf.ts). Not at every pass: outside an execution, n8n
 * 2.x answers each read from its database, decrypts it and builds an expression isolate for it
 * (credentials-helper.js getDecrypted, l. 301-403), on the cores the webhook requests of a burst
 * need. The reader's requests use its run's credentials, read once (transport's credentialsOf).
 */
export const ACCOUNT_CHECK_EVERY_MS = 60_000;

/** When the next read may start, given when the last one started and whether a delivery prompted. */
export function nextReadAt(lastReadAt: number, prompted: boolean, failed = false): number {
	if (failed) return lastReadAt + AFTER_FAILURE_MS;
	return lastReadAt + (prompted ? PROMPT_GAP_MS : IDLE_POLL_MS);
}

/** Whether a periodic job last done at `doneAt` is due again at `now`. */
export function isDue(doneAt: number | undefined, everyMs: number, now: number): boolean {
	return doneAt === undefined || now - doneAt >= everyMs;
}

/** The smallest page size taken for a cap of the service's (below it a short page is just short). */
export const SMALLEST_CAP = 10;

/**
 * Whether to read the next page in the same pass: after a page as long as the service gives at
 * most (`fullPage`: what was asked, or a cap learnt). After a shorter page the rest, if any, is
 * read by the next pass, soon after: a short page is not the end, but reading on at once would
 * cost an empty read per pass.
 */
export function readOnNow(length: number, fullPage: number): boolean {
	return length > 0 && length >= fullPage;
}

/**
 * The page size taken as full after a pass whose first page had `firstLength` records, when the
 * pass before ended on a short page of `lastShort` records: the same length again means the service
 * caps pages there (the live `per_page` maximum is not published).
 */
export function learntFullPage(
	fullPage: number,
	lastShort: number | undefined,
	firstLength: number,
): number {
	if (lastShort === undefined || lastShort < SMALLEST_CAP || lastShort >= fullPage) return fullPage;
	return firstLength === lastShort ? lastShort : fullPage;
}

/** A KYC payload's subject is read no sooner than this after the payload (its record may follow). */
export const KYC_GRACE_MS = 5_000;
/** At most one subject read per this long for KYC payloads, whatever arrives (0.2 reads/s). */
export const KYC_READ_GAP_MS = 5_000;
/** Subjects waiting for a read, at most (more KYC payloads meanwhile are dropped). */
export const KYC_PENDING_MAX = 100;
