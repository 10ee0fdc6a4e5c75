import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { FacilitaPayError } from './errors';
import { errorFromFacts, factsOf } from './errors';
import { Ledger } from './ledger';
import { digest, requestDigest } from './requestDigest';
import type { ApiRequest } from './send';
import type { SentMemory } from './sentMemory';
import { recordIdOf, sentMemory } from './sentMemory';

/**
 * The money rule, in one place: a request that creates or moves money (`retry: 'sendOnce'`) is
 * sent at most once, whoever runs it again.
 *
 * - **n8n's Retry On Fail** (same execution, same $runIndex): this process's memory (sentMemory)
 *   replays the answer, or repeats the unknown outcome; nothing is sent again.
 * - **n8n's Retry button** (a new execution in mode `retry`, same items): every request sent is
 *   recorded in n8n's database (ledger) as attempted, then done, under a key made of the item,
 *   the request and its money fields (not its clock fields, which a retry computes anew). A retry
 *   reads them first: done → not sent, the item says so; attempted with no known answer → looked
 *   up at FacilitaPay, sent only when not found.
 * - **An idempotency key the user gives**: a key done by this node within `KEY_WINDOW_MS` (at least
 *   24 hours) is not sent again in any execution.
 * - **An AI agent** (the node as a tool; n8n gives each call, and each Retry On Fail try of a
 *   call, a new run index): the same request within `TOOL_WINDOW_MS` (at least an hour) is sent
 *   once; an identical call gets the first one's answer, marked as already done.
 */

export const KEY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const TOOL_WINDOW_MS = 60 * 60 * 1000;
/** How far back a retry looks for the hour an item of unknown outcome was first sent. */
const HOURS_LOOKED_BACK = 48;
/** Lookups of done items' records made at once before a retry's unknown items are looked up. */
const DONE_LOOKUPS_AT_ONCE = 8;

/** One money-moving request of one item. */
export interface MoneyItem {
	itemIndex: number;
	request: ApiRequest;
	/** The user's Idempotency Key for this item, when given. */
	idempotencyKey?: string;
	/** requestDigest(request), when computed already (the request may be built again later). */
	digest?: string;
}

/** What a lookup at FacilitaPay found for a request whose outcome is unknown. */
export type FindSentResult = { found: IDataObject } | { notFound: true } | { cannotTell: string };

export type FindSent = (
	request: ApiRequest,
	sinceMs: number,
	taken: Set<string>,
) => Promise<FindSentResult>;

/** What to do with an item's money request. */
export type MoneyDecision =
	| { kind: 'send' }
	/** Retry On Fail: the answer this execution already got. */
	| { kind: 'replay'; answer: unknown }
	/** Done before (another execution, an identical tool call, a used key): not sent. */
	| { kind: 'alreadyDone'; json: IDataObject };

/** Whether this run is the node used as an AI agent's tool. */
function isTool(ctx: IExecuteFunctions): boolean {
	return /Tool$/.test(ctx.getNode().type ?? '');
}

function modeOf(ctx: IExecuteFunctions): string | undefined {
	try {
		return ctx.getMode?.();
	} catch {
		return undefined;
	}
}

function alreadyDone(note: string, record?: IDataObject): IDataObject {
	return { ...(record ?? {}), alreadyDone: true, alreadyDoneNote: note };
}

/**
 * The money rule for one run of the node. `begin()` it with every money item before sending,
 * ask `before()` for each item, report `sent()`/`failed()`, and `finish()` at the end (also
 * after a failure): that writes what the ledger still has to know.
 */
export class MoneyRun {
	private readonly primed = new Map<string, 'done' | 'attempted'>();

	/** Retry button: when an item of unknown outcome was first sent (the start of that hour). */
	private readonly attemptedAt = new Map<string, number>();

	/** Retry button: the FacilitaPay records of items done before, found ahead of the lookups. */
	private readonly doneRecords = new Map<string, IDataObject | undefined>();

	private readonly removals: string[] = [];

	private readonly writes: Array<Promise<void>> = [];

	private readonly taken = new Set<string>();

	private readonly dayBucket: number;

	private readonly hourBucket: number;

	private readonly retrying: boolean;

	private readonly tool: boolean;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly ledger: Ledger | undefined,
		private readonly findSent: FindSent | undefined,
		private readonly memory: SentMemory,
		now: () => number,
	) {
		const at = now();
		this.dayBucket = Math.floor(at / KEY_WINDOW_MS);
		this.hourBucket = Math.floor(at / TOOL_WINDOW_MS);
		this.retrying = modeOf(ctx) === 'retry';
		this.tool = isTool(ctx);
	}

	static async begin(
		ctx: IExecuteFunctions,
		items: MoneyItem[],
		options: {
			findSent?: FindSent;
			ledger?: Ledger | null;
			memory?: SentMemory;
			now?: () => number;
		} = {},
	): Promise<MoneyRun> {
		const ledger = options.ledger === null ? undefined : (options.ledger ?? Ledger.of(ctx));
		const run = new MoneyRun(
			ctx,
			ledger,
			options.findSent,
			options.memory ?? sentMemory,
			options.now ?? Date.now,
		);
		if (run.retrying && ledger && items.length > 0) await run.prime(items);
		return run;
	}

	/**
	 * Retry button: what the executions before this one recorded for these items, in one read;
	 * for the items whose outcome nobody learned, the hour of the attempt (a second read), so that
	 * the lookup at FacilitaPay starts there. When there are such items, the records of the items
	 * known to be done are found first, so that an unknown item cannot take a done item's record.
	 */
	private async prime(items: MoneyItem[]): Promise<void> {
		const days = [this.dayBucket, this.dayBucket - 1];
		const keys: string[] = [];
		for (const item of items) {
			const auto = this.autoKey(item);
			for (const day of days) keys.push(`D:${day}:${auto}`, `A:${day}:${auto}`);
		}
		const seen = await this.ledger!.peek(keys);
		const attempted: MoneyItem[] = [];
		const done: MoneyItem[] = [];
		for (const item of items) {
			const auto = this.autoKey(item);
			if (days.some((day) => seen.has(`D:${day}:${auto}`))) {
				this.primed.set(auto, 'done');
				done.push(item);
			} else if (days.some((day) => seen.has(`A:${day}:${auto}`))) {
				this.primed.set(auto, 'attempted');
				attempted.push(item);
			}
		}
		if (attempted.length === 0) return;
		const hours = Array.from({ length: HOURS_LOOKED_BACK }, (_, k) => this.hourBucket - k);
		const hourKeys = attempted.flatMap((item) =>
			hours.map((hour) => `H:${hour}:${this.autoKey(item)}`),
		);
		const seenHours = await this.ledger!.peek(hourKeys);
		for (const item of attempted) {
			const auto = this.autoKey(item);
			const earliest = [...hours].reverse().find((hour) => seenHours.has(`H:${hour}:${auto}`));
			if (earliest !== undefined) this.attemptedAt.set(auto, earliest * TOOL_WINDOW_MS);
		}
		if (!this.findSent) return;
		for (let start = 0; start < done.length; start += DONE_LOOKUPS_AT_ONCE) {
			await Promise.all(
				done.slice(start, start + DONE_LOOKUPS_AT_ONCE).map(async (item) => {
					this.doneRecords.set(
						this.autoKey(item),
						await this.findQuietly(item, (this.dayBucket - 1) * KEY_WINDOW_MS),
					);
				}),
			);
		}
	}

	private autoKey(item: MoneyItem): string {
		return `${item.itemIndex}:${item.digest ?? requestDigest(item.request)}`;
	}

	/** The key of this request in this process's memory (none outside an execution). */
	private memoryKey(item: MoneyItem, runIndex: number | undefined): string | undefined {
		const node = this.ctx.getNode();
		if (this.tool) {
			const workflowId = safe(() => this.ctx.getWorkflow().id) ?? '';
			return `tool\u0000${workflowId}\u0000${node.id ?? node.name}\u0000${item.digest ?? requestDigest(item.request)}`;
		}
		const executionId = String(safe(() => this.ctx.getExecutionId()) ?? '');
		if (executionId === '') return undefined;
		// Known, the run index tells a loop's passes apart; unknown, the body's digest does.
		const run =
			runIndex === undefined ? `?${item.digest ?? requestDigest(item.request)}` : String(runIndex);
		return `${executionId}\u0000${node.id ?? node.name}\u0000${run}\u0000${item.itemIndex}\u0000${item.request.method} ${item.request.path}`;
	}

	/** Whether this item's request may be sent, or what it already got. */
	async before(item: MoneyItem, runIndex?: number): Promise<MoneyDecision> {
		const memoryKey = this.memoryKey(item, runIndex);
		const remembered = memoryKey === undefined ? undefined : this.memory.get(memoryKey);
		if (remembered?.state === 'done') {
			if (!this.tool && remembered.answer !== undefined)
				return { kind: 'replay', answer: remembered.answer };
			const record = recordFrom(remembered.answer, remembered.recordId);
			return {
				kind: 'alreadyDone',
				json: alreadyDone(
					this.tool
						? 'Not sent again: the same request was made by this tool less than an hour ago and FacilitaPay processed it. This is its answer.'
						: 'Not sent again: FacilitaPay processed this request earlier in this execution.',
					record,
				),
			};
		}
		if (remembered)
			throw this.repeatedUnknown(
				item,
				remembered.state === 'unknown' ? remembered.error : undefined,
			);

		if (item.idempotencyKey !== undefined && this.ledger) {
			const earlier = await this.claimKey(item);
			if (earlier === 'done') {
				return {
					kind: 'alreadyDone',
					json: alreadyDone(
						`Not sent: a request with the idempotency key "${item.idempotencyKey}" was done by this node within the last ${KEY_WINDOW_MS / 3_600_000} hours.`,
						{ idempotencyKey: item.idempotencyKey },
					),
				};
			}
			// Used, with no known outcome: a retry looks it up below; anything else stops here.
			if (earlier === 'unknown' && !(this.retrying && this.primed.has(this.autoKey(item))))
				throw this.repeatedUnknown(
					item,
					undefined,
					`a request with the idempotency key "${item.idempotencyKey}" was sent by this node within the last ${KEY_WINDOW_MS / 3_600_000} hours and its outcome is not known (it is being sent, or it failed without an answer), so it was not sent again`,
				);
		}
		if (this.tool && this.ledger) {
			const decision = await this.toolCheck(item);
			if (decision) return decision;
		}
		if (this.retrying) {
			const decision = await this.retryCheck(item);
			if (decision) return decision;
		}
		if (memoryKey !== undefined) this.memory.set(memoryKey, { state: 'sending' });
		if (this.ledger)
			await this.guard(
				this.ledger.record([
					`A:${this.dayBucket}:${this.autoKey(item)}`,
					`H:${this.hourBucket}:${this.autoKey(item)}`,
				]),
			);
		return { kind: 'send' };
	}

	/**
	 * The item's idempotency key, claimed for this send: undefined when it is new, otherwise
	 * whether the request sent with it earlier is known to be done.
	 */
	private async claimKey(item: MoneyItem): Promise<'done' | 'unknown' | undefined> {
		const key = digest(['key', item.idempotencyKey]);
		const current = `K:${this.dayBucket}:${key}`;
		const [claimed, earlier] = await Promise.all([
			this.ledger!.checkAndRecord([current]),
			this.ledger!.peek([`K:${this.dayBucket - 1}:${key}`]),
		]);
		if (claimed.size === 0 && earlier.size === 0) {
			this.removeOnFailure(item, current);
			return undefined;
		}
		const done = await this.ledger!.peek([
			`KD:${this.dayBucket}:${key}`,
			`KD:${this.dayBucket - 1}:${key}`,
		]);
		return done.size > 0 ? 'done' : 'unknown';
	}

	private readonly failureKeys = new Map<number, string[]>();

	private removeOnFailure(item: MoneyItem, key: string): void {
		const keys = this.failureKeys.get(item.itemIndex) ?? [];
		keys.push(key);
		this.failureKeys.set(item.itemIndex, keys);
	}

	/** The same request from this tool within the hour (any process): its outcome, not a second send. */
	private async toolCheck(item: MoneyItem): Promise<MoneyDecision | undefined> {
		const request = item.digest ?? requestDigest(item.request);
		const current = `T:${this.hourBucket}:${request}`;
		const [claimed, earlier] = await Promise.all([
			this.ledger!.checkAndRecord([current]),
			this.ledger!.peek([`T:${this.hourBucket - 1}:${request}`]),
		]);
		if (claimed.size === 0 && earlier.size === 0) {
			this.removeOnFailure(item, current);
			return undefined;
		}
		const since = (this.hourBucket - 1) * TOOL_WINDOW_MS;
		const auto = this.autoKey(item);
		const done = await this.ledger!.peek([
			`D:${this.dayBucket}:${auto}`,
			`D:${this.dayBucket - 1}:${auto}`,
		]);
		if (done.size > 0) {
			return {
				kind: 'alreadyDone',
				json: alreadyDone(
					'Not sent again: the same request was made by this tool less than an hour ago and FacilitaPay processed it.',
					await this.findQuietly(item, since),
				),
			};
		}
		return await this.lookUp(
			item,
			since,
			'Not sent again: the same request was made by this tool less than an hour ago',
		);
	}

	/** Retry button: what the execution it retries did with this item. */
	private async retryCheck(item: MoneyItem): Promise<MoneyDecision | undefined> {
		const state = this.primed.get(this.autoKey(item));
		if (state === undefined) return undefined;
		const auto = this.autoKey(item);
		const since = this.attemptedAt.get(auto) ?? (this.dayBucket - 1) * KEY_WINDOW_MS;
		if (state === 'done') {
			const found = this.doneRecords.has(auto)
				? this.doneRecords.get(auto)
				: await this.findQuietly(item, since);
			return {
				kind: 'alreadyDone',
				json: alreadyDone(
					'Not sent again: the execution this one retries already sent it and FacilitaPay processed it.',
					found,
				),
			};
		}
		return await this.lookUp(
			item,
			since,
			'Not sent again: the execution this one retries sent it without learning the outcome',
		);
	}

	/** An earlier send of unknown outcome: FacilitaPay's records decide. */
	private async lookUp(
		item: MoneyItem,
		sinceMs: number,
		why: string,
	): Promise<MoneyDecision | undefined> {
		if (!this.findSent)
			throw this.repeatedUnknown(item, undefined, `${why}, and it cannot be looked up`);
		let result: FindSentResult;
		try {
			result = await this.findSent(item.request, sinceMs, this.taken);
		} catch (error) {
			throw this.repeatedUnknown(
				item,
				undefined,
				`${why}, and looking it up at FacilitaPay failed (${(error as Error).message})`,
			);
		}
		if ('found' in result)
			return {
				kind: 'alreadyDone',
				json: alreadyDone(`${why}; FacilitaPay has it: this is its record.`, result.found),
			};
		if ('cannotTell' in result)
			throw this.repeatedUnknown(item, undefined, `${why}: ${result.cannotTell}`);
		return undefined;
	}

	private async findQuietly(item: MoneyItem, sinceMs: number): Promise<IDataObject | undefined> {
		if (!this.findSent) return undefined;
		try {
			const result = await this.findSent(item.request, sinceMs, this.taken);
			return 'found' in result ? result.found : undefined;
		} catch {
			return undefined;
		}
	}

	/** The request was answered: remembered here and in the ledger. */
	sent(item: MoneyItem, answer: unknown, runIndex?: number): void {
		const memoryKey = this.memoryKey(item, runIndex);
		if (memoryKey !== undefined)
			this.memory.set(memoryKey, { state: 'done', answer, recordId: recordIdOf(answer) });
		if (this.ledger) {
			const keys = [`D:${this.dayBucket}:${this.autoKey(item)}`];
			if (item.idempotencyKey !== undefined)
				keys.push(`KD:${this.dayBucket}:${digest(['key', item.idempotencyKey])}`);
			this.writes.push(this.guard(this.ledger.record(keys)));
		}
	}

	/** The request failed: an unknown outcome is kept; a clear failure frees the item to be sent. */
	failed(item: MoneyItem, error: unknown, runIndex?: number): void {
		const memoryKey = this.memoryKey(item, runIndex);
		const outcome = factsOf(error)?.outcome;
		if (outcome === 'unknown') {
			if (memoryKey !== undefined)
				this.memory.set(memoryKey, { state: 'unknown', error: error as Error });
			return;
		}
		if (memoryKey !== undefined) this.memory.forget(memoryKey);
		this.removals.push(
			`A:${this.dayBucket}:${this.autoKey(item)}`,
			`H:${this.hourBucket}:${this.autoKey(item)}`,
			...(this.failureKeys.get(item.itemIndex) ?? []),
		);
	}

	/** Writes what the ledger still has to know; the run's answer waits for it. */
	async finish(): Promise<void> {
		await Promise.all(this.writes.splice(0));
		if (this.ledger && this.removals.length > 0)
			await this.guard(this.ledger.remove(this.removals.splice(0)));
	}

	/** A ledger that cannot be written does not stop a payment the user asked for. */
	private async guard(write: Promise<void>): Promise<void> {
		try {
			await write;
		} catch {
			// The store is n8n's database: when it fails, the execution's own memory still holds.
		}
	}

	private repeatedUnknown(item: MoneyItem, earlier?: Error, why?: string): FacilitaPayError {
		const earlierFacts = factsOf(earlier);
		const cause =
			why ??
			(earlierFacts
				? `this request was already sent in this execution and ${lowerFirst(`${earlierFacts.head}${earlierFacts.detail ? `: ${earlierFacts.detail}` : ''}`)}`
				: 'this request was already sent in this execution and is still being sent');
		return errorFromFacts(this.ctx.getNode(), {
			itemIndex: item.itemIndex,
			outcome: 'unknown',
			head: cause,
			request: `${item.request.method} ${item.request.path}`,
			movesMoney: true,
			fix: 'It creates or moves money, so it is sent at most once, also when n8n runs the node again.',
		});
	}
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

function safe<T>(read: () => T): T | undefined {
	try {
		return read();
	} catch {
		return undefined;
	}
}

function recordFrom(answer: unknown, recordId?: string): IDataObject | undefined {
	let value = answer;
	if (value && typeof value === 'object' && 'data' in (value as object))
		value = (value as { data: unknown }).data;
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	return recordId ? { id: recordId } : undefined;
}
