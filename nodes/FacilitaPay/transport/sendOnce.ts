import { createHash } from 'crypto';

/**
 * The memory behind the money rule: a request that creates or moves money is sent at most once per
 * execution, also when n8n runs the node again within that execution (Retry On Fail, or a node
 * retried after a partial failure). Each such request is remembered under the execution, the node,
 * the item and a digest of the request itself; a second run of the same request in the same
 * execution gets the remembered answer (or the remembered unknown outcome) instead of a second
 * payment. Requests the service refused (4xx) are forgotten: they did nothing and may be sent again.
 *
 * Bounded: entries expire after `ttlMs` (n8n's retries come within seconds) and the oldest are
 * dropped beyond `maxEntries`.
 */
export type SentOutcome =
	| { state: 'sending' }
	| { state: 'done'; answer: unknown }
	| { state: 'unknown'; error: Error };

interface Entry {
	outcome: SentOutcome;
	at: number;
}

export class SentRequests {
	private readonly entries = new Map<string, Entry>();

	constructor(
		private readonly maxEntries = 20_000,
		private readonly ttlMs = 60 * 60 * 1000,
		private readonly now: () => number = Date.now,
	) {}

	/** The key of one request of one item of one node in one execution. */
	static key(parts: {
		executionId: string;
		nodeId: string;
		/**
		 * How many times n8n ran this node before in the execution ($runIndex): the same on a
		 * Retry On Fail try, higher on each pass of a loop. Known, it identifies the request
		 * together with the item, and the body is left out of the key: a value computed from the
		 * clock (a PIX expiry of `$now` plus an hour) differs on a retry a few seconds later.
		 * Unknown, the body's digest tells the loop's passes apart.
		 */
		runIndex?: number;
		itemIndex: number;
		method: string;
		path: string;
		body: unknown;
	}): string {
		const known = parts.runIndex !== undefined;
		const digest = createHash('sha256')
			.update(JSON.stringify([parts.method, parts.path, known ? null : (parts.body ?? null)]))
			.digest('hex');
		const run = known ? String(parts.runIndex) : '?';
		return `${parts.executionId}\u0000${parts.nodeId}\u0000${run}\u0000${parts.itemIndex}\u0000${digest}`;
	}

	get(key: string): SentOutcome | undefined {
		const entry = this.entries.get(key);
		if (!entry) return undefined;
		if (this.now() - entry.at > this.ttlMs) {
			this.entries.delete(key);
			return undefined;
		}
		return entry.outcome;
	}

	set(key: string, outcome: SentOutcome): void {
		this.entries.delete(key);
		this.entries.set(key, { outcome, at: this.now() });
		this.prune();
	}

	forget(key: string): void {
		this.entries.delete(key);
	}

	get size(): number {
		return this.entries.size;
	}

	private prune(): void {
		const now = this.now();
		for (const [key, entry] of this.entries) {
			if (this.entries.size <= this.maxEntries && now - entry.at <= this.ttlMs) break;
			this.entries.delete(key);
		}
	}
}

/** One memory per process, shared by every run of the node. */
export const sentRequests = new SentRequests();
