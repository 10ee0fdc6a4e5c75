import type { LogRecord } from './selection';

/*
 * "Deaf is never silent": what the reader watches so that a workflow that hears nothing says so.
 * Pure, no n8n: the reader feeds it what happened (a delivery arrived, a page of the log was
 * read, a read failed, the account the credentials reach) with the time, and raises what `due`
 * returns. Only the log and the credentials are evidence: a delivery proves nothing (a stranger
 * may post it), so deliveries alone raise at most one notice a day, which says they may be forged,
 * and they never hide or delay anything (they only count). A notice is raised once per episode.
 */

export interface DeafThresholds {
	/** Deliveries the log lists nothing for: told once this many arrived… */
	unlistedDeliveries: number;
	/** …and the first of them is this old while the log was read fine after it. */
	unlistedAfterMs: number;
	/** At most one notice about unlisted deliveries per this long (they may be forged). */
	unlistedAgainMs: number;
	/** Records FacilitaPay lists as sent to another URL, none to ours since: told at this many… */
	foreignRecords: number;
	/** …or when the first of them was read this long ago. */
	foreignAfterMs: number;
	/** The log could not be read for this long: told. */
	unreadableAfterMs: number;
}

export const DEAF_THRESHOLDS: DeafThresholds = {
	unlistedDeliveries: 3,
	unlistedAfterMs: 120_000,
	unlistedAgainMs: 24 * 3_600_000,
	foreignRecords: 3,
	foreignAfterMs: 120_000,
	unreadableAfterMs: 180_000,
};

export type NoticeKind = 'unlisted' | 'foreign' | 'unreadable' | 'account';

export interface Notice {
	kind: NoticeKind;
	message: string;
	description: string;
}

/** Where a URL points, for a notice: its origin only (another system's path may hold a token). */
export function originOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return 'an unreadable URL';
	}
}

function minutes(ms: number): string {
	const value = Math.max(1, Math.round(ms / 60_000));
	return `${value} minute${value === 1 ? '' : 's'}`;
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

interface Window {
	since: number;
	count: number;
}

export class DeafWatch {
	/** Deliveries since the log last listed a record of this workflow (none listed since). */
	private unlisted: Window | undefined;
	private unlistedRaisedAt = Number.NEGATIVE_INFINITY;
	/** Records sent to another URL since the last one sent to ours. */
	private foreign: (Window & { url: string; deliveries: number }) | undefined;
	private foreignRaised = false;
	/** Since when every read failed (undefined: the last one worked). */
	private failing: (Window & { reason: string; deliveries: number }) | undefined;
	private unreadableRaised = false;
	private lastReadOkAt = Number.NEGATIVE_INFINITY;
	/** The account last told about (another than the registered one). */
	private accountRaised: string | undefined;
	private accountNotice: Notice | undefined;

	constructor(
		private readonly ourUrl: () => string,
		private readonly thresholds: DeafThresholds = DEAF_THRESHOLDS,
	) {}

	/** A notification arrived at the webhook (any secret: it proves nothing). */
	delivery(now: number): void {
		// While the log lists records for another URL, deliveries are told with those records.
		if (this.foreign) this.foreign.deliveries += 1;
		else if (this.unlisted) this.unlisted.count += 1;
		else this.unlisted = { since: now, count: 1 };
		if (this.failing) this.failing.deliveries += 1;
	}

	/**
	 * A page of the log read after the cursor: `ours` records sent to this workflow's URL, then
	 * `foreignAfter` records sent to another URL after the last of ours (in the log's order).
	 */
	page(now: number, ours: number, foreignAfter: readonly LogRecord[]): void {
		if (ours > 0) {
			// The log attributes events to this workflow: it hears.
			this.unlisted = undefined;
			this.foreign = undefined;
			this.foreignRaised = false;
		}
		if (foreignAfter.length === 0) return;
		const url = foreignAfter[foreignAfter.length - 1].url;
		if (this.foreign) {
			this.foreign.count += foreignAfter.length;
			this.foreign.url = url;
		} else {
			this.foreign = { since: now, count: foreignAfter.length, url, deliveries: 0 };
		}
		// Deliveries the log explains by records to another URL are told as such, never as forged.
		if (this.unlisted) this.foreign.deliveries += this.unlisted.count;
		this.unlisted = undefined;
	}

	/** A whole pass read the log. */
	readOk(now: number): void {
		this.lastReadOkAt = now;
		this.failing = undefined;
		this.unreadableRaised = false;
	}

	readFailed(now: number, reason: string): void {
		if (this.failing) this.failing.reason = reason;
		else this.failing = { since: now, count: 0, reason, deliveries: 0 };
		this.failing.count += 1;
	}

	/** The account the credentials reach now and the one the URL was registered with. */
	account(current: string | undefined, registered: string | undefined): void {
		if (current === undefined || registered === undefined || current === registered) return;
		if (this.accountRaised === current) return;
		this.accountRaised = current;
		const [service] = current.split('|');
		const [registeredService] = registered.split('|');
		this.accountNotice = {
			kind: 'account',
			message:
				service === registeredService
					? 'The credentials of this trigger now sign in to FacilitaPay as another user or with another token than when its URL was registered: if that is another account, its events do not start this workflow'
					: `The credentials of this trigger now point at another FacilitaPay service (${originOf(service)}) than the one its URL was registered with (${originOf(registeredService)}): FacilitaPay's events do not start this workflow`,
			description:
				"FacilitaPay keeps sending the registered account's notifications to this workflow, but the trigger reads the notification log of the account the credentials reach now, so those notifications start nothing, and the new account sends its own elsewhere. Unpublish and publish the workflow (deactivate and activate in n8n 1.x) to register its URL with the account the credentials reach now, or change the credentials back. A new token of the same account shows here too: publishing again records it.",
		};
	}

	/** The notices to raise now, each once per episode. */
	due(now: number): Notice[] {
		const notices: Notice[] = [];
		const t = this.thresholds;
		if (this.accountNotice) {
			notices.push(this.accountNotice);
			this.accountNotice = undefined;
		}
		const failing = this.failing;
		if (failing && !this.unreadableRaised && now - failing.since >= t.unreadableAfterMs) {
			this.unreadableRaised = true;
			notices.push({
				kind: 'unreadable',
				message: `FacilitaPay's notification log could not be read for ${minutes(now - failing.since)} (${failing.reason}); ${plural(failing.deliveries, 'notification')} arrived meanwhile`,
				description:
					"Nothing is lost: every event the log lists for this workflow starts once it can be read again, and the trigger keeps trying every few seconds. Check FacilitaPay's status, the credentials (a revoked token, a changed password or environment) and the network between n8n and FacilitaPay.",
			});
		}
		const foreign = this.foreign;
		if (
			foreign &&
			!this.foreignRaised &&
			(foreign.count >= t.foreignRecords || now - foreign.since >= t.foreignAfterMs)
		) {
			this.foreignRaised = true;
			notices.push(this.foreignNotice(foreign));
		}
		const unlisted = this.unlisted;
		if (
			unlisted &&
			!failing &&
			unlisted.count >= t.unlistedDeliveries &&
			now - unlisted.since >= t.unlistedAfterMs &&
			this.lastReadOkAt - unlisted.since >= t.unlistedAfterMs &&
			now - this.unlistedRaisedAt >= t.unlistedAgainMs
		) {
			this.unlistedRaisedAt = now;
			notices.push({
				kind: 'unlisted',
				message: `${plural(unlisted.count, 'notification')} arrived at this workflow's URL over ${minutes(now - unlisted.since)}, but FacilitaPay's notification log lists none since then: they started nothing`,
				description:
					'They may be forged: anyone who knows this URL can post notifications (the 4-digit secret can be guessed), and nothing the log does not list ever starts the workflow. If FacilitaPay did send them, they come from another FacilitaPay account or environment than the one these credentials reach: check in FacilitaPay that those events happened, and that the credentials belong to the account whose webhooks point here, then unpublish and publish the workflow. This notice is given at most once a day.',
			});
		}
		return notices;
	}

	private foreignNotice(foreign: { count: number; url: string; deliveries: number }): Notice {
		const ours = this.ourUrl();
		const sameOrigin = originOf(foreign.url) === originOf(ours);
		const where = sameOrigin
			? `${originOf(foreign.url)} under another path than this workflow's URL (${ours})`
			: `${originOf(foreign.url)}/…, not to this workflow's URL (${ours})`;
		const heard =
			foreign.deliveries > 0
				? ` while ${plural(foreign.deliveries, 'notification')} arrived here`
				: '';
		return {
			kind: 'foreign',
			message: `FacilitaPay's notification log lists ${plural(foreign.count, 'notification')} sent to ${where}${heard}: they do not start this workflow`,
			description: `${
				foreign.deliveries > 0
					? "FacilitaPay registered another address, and its notifications still reach this n8n: if that address is this n8n under another name (n8n's public URL, WEBHOOK_URL, changed since the workflow was published, or a proxy rewrites the path), publish the workflow again so that FacilitaPay registers the URL n8n gives it now. "
					: 'Another workflow or system enabled webhooks with its own URL (FacilitaPay keeps one URL per account), or the address changed. '
			}To take the notifications back, unpublish and publish this workflow (deactivate and activate in n8n 1.x); the other URL then stops receiving. What FacilitaPay listed for the other URL meanwhile never starts this workflow: the "Catch up on missed events" example reads it.`,
		};
	}
}
