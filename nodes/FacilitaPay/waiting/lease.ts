/**
 * How long one wait of n8n lasts before Wait for Payment looks again (pure; no n8n).
 *
 * n8n keeps a waiting execution in its database with a time (`waitTill`) and resumes it then by
 * itself (its WaitTracker, on the leader main: every 60 s it arms a timer for every execution due
 * within the next 70 s). That time is the only thing of a wait that survives an n8n restart, a
 * replaced queue worker, or the exit of `n8n execute`. So a wait never asks n8n for more than
 * LEASE_MS: at that time the node's own code runs (the fallback entry, waiting/engine.ts), reads
 * FacilitaPay, and waits again. While the process that waits is alive its waiter renews the lease
 * before n8n could arm a timer for it (RENEW_BEFORE_MS), so n8n's timer never fires for a wait
 * that was resumed otherwise, and no call of ours resumes an execution n8n may have armed a timer
 * for (GUARD_MS): a later wait of the same execution is never resumed early by a stale timer, and
 * on n8n 1.x no resumed run runs twice.
 */

/** The longest one wait of n8n lasts: a charge paid while n8n was down is read within this of n8n being back. */
export const LEASE_MS = 270_000;

/**
 * No resume call while the wait's time is this near: n8n's WaitTracker arms a timer 70 s ahead
 * (polls every 60 s, looks 70 s ahead, `execution.repository` getWaitingExecutions), and n8n marks
 * an execution running some seconds after the call; 20 s of margin for a busy n8n.
 */
export const GUARD_MS = 90_000;

/** The waiter renews a wait this long before its time (30 s before the guard). */
export const RENEW_BEFORE_MS = 120_000;

/** The time of the next wait of n8n: the limit, or a lease from now if the limit is further. */
export function waitTillOf(limitAt: number, now: number): number {
	return Math.max(now + 1_000, Math.min(limitAt, now + LEASE_MS));
}

/** Whether a resume call may go now to a wait of n8n due at `waitTill`. */
export function mayCall(waitTill: number, now: number): boolean {
	return waitTill - now >= GUARD_MS;
}

/** Whether the waiter renews now a wait due at `waitTill` (not the last one before the limit). */
export function renewDue(waitTill: number, limitAt: number, now: number): boolean {
	return waitTill < limitAt && waitTill - now <= RENEW_BEFORE_MS && mayCall(waitTill, now);
}
