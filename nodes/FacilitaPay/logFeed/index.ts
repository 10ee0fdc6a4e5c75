/*
 * The log feed: every page of FacilitaPay's notification log (`GET /notifications`) that a reader
 * in this process read, offered to whoever else in the process needs the same records, so that
 * one read serves them all. The FacilitaPay Trigger's reader publishes its pages; the waiting
 * payments (Transaction > Wait for Payment) listen. Process memory only, one object, one reset.
 * A page is FacilitaPay's answer as read, for the account named (transport's accountOf): a
 * listener takes from it only what it can check itself (records are FacilitaPay's own words).
 */

/**
 * Who read the page: the reader's n8n context (a FacilitaPay Trigger's), through which a listener
 * may read FacilitaPay with the same credentials (the waits after a restart look a record's
 * transaction up once). Optional: a page may be published without it.
 */
export interface LogSource {
	context: unknown;
	/** The record the page was read after (`last_id`; null: from the log's start), when known. */
	after?: string | null;
	/** `desc` (newest first) or `failed` (failed records only): such a page continues nothing. */
	order?: string;
}

/** Called with every page read of an account's log; must not throw (errors are swallowed). */
export type LogPageListener = (
	account: string,
	page: readonly unknown[],
	source?: LogSource,
) => void;

const feed = {
	listeners: new Set<LogPageListener>(),
};

/** Listens to every page read in this process; returns how to stop listening. */
export function onLogPage(listener: LogPageListener): () => void {
	feed.listeners.add(listener);
	return () => {
		feed.listeners.delete(listener);
	};
}

/** Offers a page read of `account`'s log to every listener. Never throws. */
export function publishLogPage(
	account: string,
	page: readonly unknown[],
	source?: LogSource,
): void {
	for (const listener of [...feed.listeners]) {
		try {
			listener(account, page, source);
		} catch {
			// A listener's failure is its own: the reader that read the page goes on.
		}
	}
}

/** Whether anything in this process listens (a reader may skip building pages for nobody). */
export function hasLogListeners(): boolean {
	return feed.listeners.size > 0;
}

/** Forgets every listener (tests; never called by n8n). */
export function resetLogFeed(): void {
	feed.listeners.clear();
}
