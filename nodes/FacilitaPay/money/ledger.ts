import type {
	DeduplicationHelperFunctions,
	ICheckProcessedOptions,
	IExecuteFunctions,
} from 'n8n-workflow';

/**
 * The money ledger kept in n8n's own database: the deduplication store behind the Remove
 * Duplicates node's "across executions" mode (`checkProcessedAndRecord` / `removeProcessed`,
 * scope `node`). Unlike workflow static data it survives both kinds of "Retry" of a failed
 * execution, is not written over by a retry "with original workflow", and is shared by queue-mode
 * workers. It stores only keys (n8n keeps an MD5 of each), in one row per workflow and node that
 * n8n reads and writes whole on every call, so calls are few and batched here:
 * - keys recorded while a call is running wait and go together in the next call;
 * - calls for one node are made one at a time in this process (two at once would overwrite each
 *   other's keys, or both try to create the row).
 * Limits, stated in docs/operations.md: the row keeps the newest `MAX_ENTRIES` keys (about 6 MB);
 * two processes writing the same node's row at the same moment can lose one's keys (n8n's store
 * is read-modify-write, without a lock).
 */

export type LedgerStore = Pick<
	DeduplicationHelperFunctions,
	'checkProcessedAndRecord' | 'removeProcessed'
>;

/** The newest keys n8n keeps per node: ~4 per payout, so the last 50,000 payouts and more. */
export const MAX_ENTRIES = 250_000;

const OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: MAX_ENTRIES };

/** One chain of store calls per workflow and node in this process. */
const chains = new Map<string, Promise<unknown>>();

export class Ledger {
	private pending: string[] = [];

	private scheduled?: Promise<Set<string>>;

	private peeking: string[] = [];

	private peekScheduled?: Promise<Set<string>>;

	constructor(
		private readonly store: LedgerStore,
		private readonly chainKey: string,
	) {}

	/** The ledger of this node in this workflow, when n8n offers the store (n8n 1.64 and later). */
	static of(ctx: IExecuteFunctions): Ledger | undefined {
		const helpers = ctx.helpers as Partial<LedgerStore>;
		if (
			typeof helpers.checkProcessedAndRecord !== 'function' ||
			typeof helpers.removeProcessed !== 'function'
		)
			return undefined;
		let workflowId: string | undefined;
		try {
			workflowId = ctx.getWorkflow?.()?.id;
		} catch {
			workflowId = undefined;
		}
		if (!workflowId) return undefined;
		const node = ctx.getNode();
		return new Ledger(helpers as LedgerStore, `${workflowId}\u0000${node.id ?? node.name}`);
	}

	private async enqueue<T>(call: () => Promise<T>): Promise<T> {
		const before = chains.get(this.chainKey) ?? Promise.resolve();
		const result = before.then(call, call);
		const settled = result.catch(() => undefined);
		chains.set(this.chainKey, settled);
		void settled.then(() => {
			if (chains.get(this.chainKey) === settled) chains.delete(this.chainKey);
		});
		return await result;
	}

	/** Which of `keys` were recorded before; records the others. */
	async checkAndRecord(keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		const result = await this.enqueue(
			async () => await this.store.checkProcessedAndRecord(keys, 'node', OPTIONS),
		);
		return new Set(result.processed.map(String));
	}

	/**
	 * Which of `keys` were recorded before, recording nothing. Peeks asked while a call is running
	 * go together in the next one.
	 */
	async peek(keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		this.peeking.push(...keys);
		if (!this.peekScheduled) {
			this.peekScheduled = this.enqueue(async () => {
				this.peekScheduled = undefined;
				const batch = [...new Set(this.peeking.splice(0))];
				const result = await this.store.checkProcessedAndRecord(batch, 'node', OPTIONS);
				const added = result.new.map(String);
				if (added.length > 0) await this.store.removeProcessed(added, 'node', OPTIONS);
				return new Set(result.processed.map(String));
			});
		}
		const processed = await this.peekScheduled;
		return new Set(keys.filter((key) => processed.has(key)));
	}

	/**
	 * Records `keys`; resolves once they are in the database, with those of them that were recorded
	 * before. Keys given while a call is running go together in the next one (one store call for
	 * many items: n8n reads and writes the node's whole row per call).
	 */
	async record(keys: string[]): Promise<Set<string>> {
		this.pending.push(...keys);
		if (!this.scheduled) {
			this.scheduled = this.enqueue(async () => {
				this.scheduled = undefined;
				const batch = this.pending.splice(0);
				if (batch.length === 0) return new Set<string>();
				const result = await this.store.checkProcessedAndRecord(batch, 'node', OPTIONS);
				return new Set(result.processed.map(String));
			});
		}
		const processed = await this.scheduled;
		return new Set(keys.filter((key) => processed.has(key)));
	}

	async remove(keys: string[]): Promise<void> {
		if (keys.length === 0) return;
		await this.enqueue(async () => await this.store.removeProcessed(keys, 'node', OPTIONS));
	}
}
