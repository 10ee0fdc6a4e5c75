import { randomUUID } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Chain, CustomData } from './chain';
import { CHAIN_DATA_KEY, chainText, customDataOf, parseChain, runToken, safe } from './chain';
import type { FacilitaPayError } from '../transport/errors';
import { errorFromFacts, factsOf, setFacts } from '../transport/errors';
import { Ledger } from './ledger';
import { CREDENTIAL_TYPE } from '../transport/run';
import type { ApiRequest } from '../transport/send';
import type { SentMemory } from './sentMemory';
import { recordIdOf, sentMemory } from './sentMemory';
import { IDENTITY_META_FIELD } from '../validation/metadata';

/**
 * The money rule, in one place: a request that creates or moves money (`retry: 'sendOnce'`) has
 * one exact identity, and whether it was sent is settled by FacilitaPay's own record of it.
 *
 * - **The identity** (`ref`) is the user's Idempotency Key (`key:<key>`), or else the payment's
 *   origin: the execution it was first attempted in, the node, n8n's `$runIndex` and the item
 *   (`run:<execution>:<node>:<runIndex>:<item>`). The origin execution is written in the
 *   execution's custom data (one key, `facilitapay`) before the first request leaves, and n8n
 *   carries custom data into the execution its Retry button starts (both "with original" and "with
 *   currently saved workflow"): a retry computes the same identities, whatever was edited and
 *   however late. It never comes from the body or the clock: another execution with identical
 *   content is another payment.
 * - **It travels with the payment**: `meta.n8n_facilitapay_ref` on transaction and subscription
 *   creates, beside the user's own `meta`.
 * - **Settled by FacilitaPay's record**: when the identity may have been sent before (a key; a node
 *   run the chain of executions already started; an earlier try of unknown outcome), the record
 *   carrying it is looked up (findSent: the subject's transactions or the subscriptions, each list
 *   read once per run). Found → not sent, the item carries the record. Not found → sent only where
 *   FacilitaPay is seen to keep `meta`; otherwise the item fails as *Outcome unknown*.
 * - **n8n's stores are a fast path**: this process's memory replays answers for Retry On Fail and
 *   says "done" without a read; n8n's deduplication store (ledger) only serves the requests no
 *   record can be found for, and the first use of a key where FacilitaPay is not seen to keep meta.
 */

/** Where the identity travels in FacilitaPay's `meta`. */
export const IDENTITY_FIELD = IDENTITY_META_FIELD;

/** What a lookup at FacilitaPay found: the record, nothing (and whether `meta` showed), or why it cannot tell. */
export type FindSentResult =
	| { found: IDataObject }
	/** `metaShown` undefined: the record read proves it (a status); false: no record showed the identity. */
	| { notFound: true; metaShown?: boolean }
	| { cannotTell: string };

/** Where a money request's record is found at FacilitaPay (declared by its operation module). */
export type RecordPlace =
	/** In the list `list`, by the identity in the `meta` of the body's `holder` object. */
	| { by: 'meta'; holder: string; list: string; what: string; name: string }
	/** The record the request names: its status tells. */
	| {
			by: 'state';
			find: (
				taken: Set<string>,
				read: (request: ApiRequest) => Promise<unknown>,
			) => Promise<FindSentResult>;
	  }
	/** Nowhere: `why` says what to check instead. */
	| { by: 'none'; why: string };

export type FindSent = (place: RecordPlace, ref: string) => Promise<FindSentResult>;

/** One money-moving request of one item. */
export interface MoneyItem {
	itemIndex: number;
	request: ApiRequest;
	/** The user's Idempotency Key for this item, when given. */
	idempotencyKey?: string;
	/** Where its record is found (its operation declares it); nowhere when not given. */
	place?: RecordPlace;
}

/** What to do with an item's money request. */
export type MoneyDecision =
	| { kind: 'send' }
	/** Retry On Fail: the answer this execution already got. */
	| { kind: 'replay'; answer: unknown }
	/** Done before (FacilitaPay holds it under this identity): not sent. */
	| { kind: 'alreadyDone'; json: IDataObject }
	/** Another item of this run carries the same identity: not sent, not a failure. */
	| { kind: 'notSent'; json: IDataObject };

/** Whether FacilitaPay keeps a record this request can be found by (not: card checkout…). */
function findable(item: MoneyItem): boolean {
	return item.place?.by === 'meta' || item.place?.by === 'state';
}

function alreadyDone(note: string, ref: string, record?: IDataObject): IDataObject {
	return { ...(record ?? {}), alreadyDone: true, alreadyDoneNote: note, [IDENTITY_FIELD]: ref };
}

/** The identity a create answer carries back in its `meta`, when it does. */
function echoedRef(answer: unknown): unknown {
	let value = answer;
	if (value && typeof value === 'object' && 'data' in (value as object))
		value = (value as { data: unknown }).data;
	const meta = (value as { meta?: unknown } | undefined)?.meta;
	return meta && typeof meta === 'object' ? (meta as IDataObject)[IDENTITY_FIELD] : undefined;
}

/** Whether a refusal's body names `meta`: FacilitaPay refused the identity. */
function refusesMeta(error: unknown): boolean {
	const facts = factsOf(error);
	if (facts?.status === undefined || facts.status < 400 || facts.status >= 500) return false;
	return /\bmeta\b/i.test(`${facts.detail ?? ''} ${facts.head}`);
}

/**
 * The money rule for one run of the node. `begin()` it with every money item before sending (it
 * writes the chain into the execution's custom data and gives each item its identity), ask
 * `before()` for each item, report `sent()`/`failed()`, and `finish()` at the end.
 */
export class MoneyRun {
	private readonly refs = new Map<number, string>();

	private readonly firstOfRef = new Map<string, number>();

	private readonly writes: Array<Promise<void>> = [];

	private readonly removals: string[] = [];

	/** Whether this node run may have sent money requests before (an earlier try, the retried execution). */
	private earlier = false;

	private chain?: Chain;

	private data?: CustomData;

	/** Whether this execution is the origin: Retry On Fail then replays the answers it got. */
	private original = false;

	/** Why items without a key cannot be identified (n8n gives no custom data to a retry). */
	private unidentified?: string;

	private readonly scope: string;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly ledger: Ledger | undefined,
		private readonly findSent: FindSent | undefined,
		private readonly memory: SentMemory,
		private readonly runIndex: number,
	) {
		const node = ctx.getNode();
		this.scope = node.credentials?.[CREDENTIAL_TYPE]?.id ?? CREDENTIAL_TYPE;
	}

	static begin(
		ctx: IExecuteFunctions,
		items: MoneyItem[],
		options: {
			findSent?: FindSent;
			ledger?: Ledger | null;
			memory?: SentMemory;
			runIndex?: number;
		} = {},
	): MoneyRun {
		const ledger = options.ledger === null ? undefined : (options.ledger ?? Ledger.of(ctx));
		const run = new MoneyRun(
			ctx,
			ledger,
			options.findSent,
			options.memory ?? sentMemory,
			options.runIndex ?? 0,
		);
		run.start(items);
		return run;
	}

	/**
	 * The identities a run would give these items, for Preview Only: the chain is read, never
	 * written (a preview sends nothing, so it leaves nothing for a Retry to recognise).
	 */
	static preview(ctx: IExecuteFunctions, items: MoneyItem[], runIndex = 0): MoneyRun {
		const run = new MoneyRun(ctx, undefined, undefined, sentMemory, runIndex);
		run.start(items, false);
		return run;
	}

	/** Reads and writes the chain in the execution's custom data; gives every item its identity. */
	private start(items: MoneyItem[], write = true): void {
		const node = this.ctx.getNode();
		const nodeId = node.id ?? node.name;
		// Outside an execution (n8n gives no ID) the run is its own origin: nothing can retry it.
		const execution =
			String(safe(() => this.ctx.getExecutionId()) ?? '') || `local-${randomUUID()}`;
		const retrying = safe(() => this.ctx.getMode()) === 'retry';
		this.data = customDataOf(this.ctx);
		const stored = parseChain(safe(() => this.data?.get(CHAIN_DATA_KEY)));
		const token = runToken(nodeId, this.runIndex);
		if (this.data && !write) {
			this.chain = stored;
		} else if (this.data) {
			const chain = stored ?? { origin: execution, meta: '', runs: [] };
			this.earlier = chain.runs.includes(token) || chain.runs.includes('*');
			if (!chain.runs.includes(token) && !chain.runs.includes('*')) chain.runs.push(token);
			this.chain = chain;
			safe(() => this.data!.set(CHAIN_DATA_KEY, chainText(chain)));
			const written = parseChain(safe(() => this.data!.get(CHAIN_DATA_KEY)));
			if (written?.origin !== chain.origin)
				this.unidentified =
					"n8n's custom data of this execution is full (n8n keeps 10 keys per execution and the node needs one, named facilitapay), so a Retry of this execution could not recognise these payments";
		} else if (retrying) {
			this.earlier = true;
			this.unidentified =
				'this n8n gives the node no custom data of the execution being retried, so the payments of that execution cannot be recognised';
		}
		const origin = this.chain?.origin ?? execution;
		this.original = origin === execution && !retrying;
		for (const item of items) {
			const ref =
				item.idempotencyKey !== undefined
					? `key:${item.idempotencyKey}`
					: this.unidentified === undefined
						? `run:${origin}:${nodeId}:${this.runIndex}:${item.itemIndex}`
						: undefined;
			if (ref === undefined) continue;
			this.refs.set(item.itemIndex, ref);
			if (!this.firstOfRef.has(ref)) this.firstOfRef.set(ref, item.itemIndex);
		}
	}

	/** The item's identity, when it has one. */
	refOf(item: MoneyItem): string | undefined {
		return this.refs.get(item.itemIndex);
	}

	/** The request as it is sent: the identity in `meta`, beside the user's own `meta`. */
	withIdentity(item: MoneyItem): ApiRequest {
		const ref = this.refOf(item);
		const holder = item.place?.by === 'meta' ? item.place.holder : undefined;
		const body = item.request.body;
		if (ref === undefined || holder === undefined || !body) return item.request;
		const inner = (body[holder] ?? {}) as IDataObject;
		const meta = inner.meta && typeof inner.meta === 'object' ? (inner.meta as IDataObject) : {};
		return {
			...item.request,
			body: { ...body, [holder]: { ...inner, meta: { ...meta, [IDENTITY_FIELD]: ref } } },
		};
	}

	private memoryKey(ref: string): string {
		return `${this.scope}\u0000${ref}`;
	}

	/** Whether this item's request may be sent, or what it already got. */
	async before(item: MoneyItem): Promise<MoneyDecision> {
		const ref = this.refOf(item);
		if (ref === undefined)
			throw this.unknown(item, `${this.unidentified ?? 'it has no identity'}, so it was not sent`);
		const first = this.firstOfRef.get(ref);
		if (first !== undefined && first !== item.itemIndex)
			return {
				kind: 'notSent',
				json: {
					notSent: true,
					idempotencyKey: item.idempotencyKey,
					notSentNote: `Not sent: item ${first} of this run carries the same Idempotency Key "${item.idempotencyKey}", and one key names one payment.`,
				},
			};
		const key = this.memoryKey(ref);
		const remembered = this.memory.get(key);
		if (remembered?.state === 'done') {
			if (ref.startsWith('run:') && this.original && remembered.answer !== undefined)
				return { kind: 'replay', answer: remembered.answer };
			return {
				kind: 'alreadyDone',
				json: alreadyDone(
					`Not sent: FacilitaPay processed this payment earlier (${IDENTITY_FIELD} "${ref}").`,
					ref,
					recordFrom(remembered.answer, remembered.recordId),
				),
			};
		}
		if (remembered?.state === 'sending')
			throw this.unknown(
				item,
				`a request with the same identity (${ref}) is being sent right now by another run of this node, so it was not sent again`,
			);
		const earlierUnknown = remembered?.state === 'unknown';
		if (item.idempotencyKey !== undefined || this.earlier || earlierUnknown) {
			const decision = await this.settle(item, ref, earlierUnknown);
			if (decision) return decision;
		}
		this.memory.set(key, { state: 'sending' });
		if (this.ledger && (!findable(item) || item.idempotencyKey !== undefined))
			await this.guard(this.ledger.record([`A:${ref}`]));
		return { kind: 'send' };
	}

	/** An identity that may have been sent before: FacilitaPay's record decides. */
	private async settle(
		item: MoneyItem,
		ref: string,
		earlierUnknown: boolean,
	): Promise<MoneyDecision | undefined> {
		let result: FindSentResult;
		if (!this.findSent) result = { cannotTell: 'no lookup at FacilitaPay is available' };
		else {
			try {
				result = await this.findSent(
					item.place ?? { by: 'none', why: 'nothing declares where its record is' },
					ref,
				);
			} catch (error) {
				result = {
					cannotTell: `looking it up at FacilitaPay failed (${(error as Error).message})`,
				};
			}
		}
		if ('found' in result) {
			const recordId = recordIdOf(result.found);
			this.memory.set(this.memoryKey(ref), { state: 'done', recordId });
			return {
				kind: 'alreadyDone',
				json: alreadyDone(
					`Not sent: FacilitaPay already holds this payment under ${IDENTITY_FIELD} "${ref}"; this is its record.`,
					ref,
					result.found,
				),
			};
		}
		if ('notFound' in result) {
			const meta = this.chain?.meta ?? '';
			const proven =
				result.metaShown === undefined || (meta !== 'd' && (result.metaShown || meta === 'k'));
			if (proven) return undefined;
			if (earlierUnknown)
				throw this.unknown(
					item,
					`its earlier try has no known outcome and FacilitaPay shows no record under ${IDENTITY_FIELD} "${ref}", but it was not seen to keep meta, so "not found" does not prove "not sent"`,
				);
			return await this.byLedger(
				item,
				ref,
				`FacilitaPay shows no record under ${IDENTITY_FIELD} "${ref}", but it was not seen to keep meta on these records, so "not found" does not prove "not sent"`,
			);
		}
		if (!findable(item) && !earlierUnknown)
			return await this.byLedger(item, ref, result.cannotTell);
		throw this.unknown(item, `it may have been sent before and ${lowerFirst(result.cannotTell)}`);
	}

	/**
	 * Where FacilitaPay's record cannot settle it: n8n's store says whether this identity was
	 * attempted. When it has nothing, a key's first use and a request no record can be found for
	 * are sent; a payment of a node run the chain already started is not.
	 */
	private async byLedger(
		item: MoneyItem,
		ref: string,
		why: string,
	): Promise<MoneyDecision | undefined> {
		if (!this.ledger) {
			// n8n before 1.64 has no store: a key nothing shows as used is taken as new.
			if (item.idempotencyKey !== undefined && !this.earlier) return undefined;
			throw this.unknown(item, `it may have been sent before: ${why}`);
		}
		let seen: Set<string>;
		try {
			seen = await this.ledger.peek([`A:${ref}`, `D:${ref}`]);
		} catch {
			throw this.unknown(item, `it may have been sent before: ${why}`);
		}
		if (seen.has(`D:${ref}`))
			return {
				kind: 'alreadyDone',
				json: alreadyDone(
					`Not sent: this node recorded it as processed by FacilitaPay (${ref}). ${why}.`,
					ref,
				),
			};
		if (
			seen.has(`A:${ref}`) ||
			(this.earlier && item.idempotencyKey === undefined && findable(item))
		)
			throw this.unknown(item, `it was sent before without a known outcome: ${why}`);
		return undefined;
	}

	/** The request was answered: remembered here (and in n8n's store where no record can be found). */
	sent(item: MoneyItem, answer: unknown): void {
		const ref = this.refOf(item);
		if (ref === undefined) return;
		this.memory.set(this.memoryKey(ref), {
			state: 'done',
			answer,
			recordId: recordIdOf(answer),
		});
		if (item.place?.by === 'meta' && this.chain && this.chain.meta !== 'd') {
			const kept = echoedRef(answer) === ref ? 'k' : 'd';
			if (kept !== this.chain.meta) {
				this.chain.meta = kept;
				safe(() => this.data?.set(CHAIN_DATA_KEY, chainText(this.chain!)));
			}
		}
		if (this.ledger && (!findable(item) || item.idempotencyKey !== undefined))
			this.writes.push(this.guard(this.ledger.record([`D:${ref}`])));
	}

	/**
	 * The request failed: an unknown outcome is remembered (a flag, not the error); a clear failure
	 * frees the identity. A refusal that names `meta` says so.
	 */
	failed(item: MoneyItem, error: unknown): void {
		const ref = this.refOf(item);
		if (ref === undefined) return;
		const facts = factsOf(error);
		if (facts?.outcome === 'unknown') {
			this.memory.set(this.memoryKey(ref), { state: 'unknown' });
			return;
		}
		this.memory.forget(this.memoryKey(ref));
		this.removals.push(`A:${ref}`);
		if (facts && refusesMeta(error))
			setFacts(error as FacilitaPayError, {
				...facts,
				fix: `FacilitaPay refused the request's meta. The node writes the payment's identity in meta.${IDENTITY_FIELD} (beside your own meta) so that a retry can find the payment and never pay twice; without it the payment cannot be sent safely. Check your own Meta (JSON) field, or ask FacilitaPay to accept meta on this request.`,
			});
	}

	/** Writes what n8n's store still has to know; the run's answer waits for it. */
	async finish(): Promise<void> {
		await Promise.all(this.writes.splice(0));
		if (this.ledger && this.removals.length > 0)
			await this.guard(this.ledger.remove(this.removals.splice(0)));
	}

	/** A store that cannot be written does not stop a payment the user asked for. */
	private async guard(write: Promise<void>): Promise<void> {
		try {
			await write;
		} catch {
			// n8n's database: when it fails, FacilitaPay's record still settles what it can.
		}
	}

	private unknown(item: MoneyItem, why: string): FacilitaPayError {
		return errorFromFacts(this.ctx.getNode(), {
			itemIndex: item.itemIndex,
			outcome: 'unknown',
			head: why.charAt(0).toUpperCase() + why.slice(1),
			request: `${item.request.method} ${item.request.path}`,
			movesMoney: true,
			fix: 'It creates or moves money, so it is sent at most once, also when n8n runs the node again. Check it at FacilitaPay (Transaction > Get, Subject > Get Transactions) before sending it again.',
		});
	}
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

function recordFrom(answer: unknown, recordId?: string): IDataObject | undefined {
	let value = answer;
	if (value && typeof value === 'object' && 'data' in (value as object))
		value = (value as { data: unknown }).data;
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	return recordId ? { id: recordId } : undefined;
}
