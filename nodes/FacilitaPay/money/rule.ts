import { randomUUID } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Chain, ChainList, CustomData } from './chain';
import {
	CHAIN_DATA_KEY,
	chainText,
	customDataOf,
	instanceName,
	parseChain,
	runToken,
	safe,
} from './chain';
import type { FacilitaPayError } from '../transport/errors';
import { errorFromFacts, factsOf, setFacts } from '../transport/errors';
import {
	FINGERPRINT_FIELD,
	fingerprintOf,
	identityOf,
	IDENTITY_FIELD,
	metaOf,
	paymentText,
	recordText,
} from './identity';
import { Ledger } from './ledger';
import type { ListWindow } from './lookups';
import { placeOfKey } from './lookups';
import { CREDENTIAL_TYPE } from '../transport/run';
import type { ApiRequest } from '../transport/send';
import type { SentMemory } from './sentMemory';
import { recordIdOf, sentMemory } from './sentMemory';

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

export { IDENTITY_FIELD };

/** What a lookup at FacilitaPay found: the record, nothing (and whether `meta` showed), or why it cannot tell. */
export type FindSentResult =
	/** `all`: every record carrying the identity (two: paid twice by overlapping runs). */
	| { found: IDataObject; all?: IDataObject[] }
	/** `metaShown` undefined: the record read proves it (a status); false: no record showed the identity. */
	| { notFound: true; metaShown?: boolean }
	| { cannotTell: string };

/** Where a money request's record is found at FacilitaPay (declared by its operation module). */
export type RecordPlace =
	/** In the list `list`, by the identity in the `meta` of the body's `holder` object. */
	| {
			by: 'meta';
			holder: string;
			/** The list as the chain names it: the subject's ID, `s` for the subscriptions. */
			key: string;
			list: string;
			/** The path of one record, before its ID. */
			one: string;
			what: string;
			name: string;
	  }
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

export type FindSent = (
	place: RecordPlace,
	ref: string,
	windows?: ListWindow[],
) => Promise<FindSentResult>;

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

/** Whether a refusal's body names `meta`: FacilitaPay refused the identity. */
function refusesMeta(error: unknown): boolean {
	const facts = factsOf(error);
	if (facts?.status === undefined || facts.status < 400 || facts.status >= 500) return false;
	return /\bmeta\b/i.test(`${facts.detail ?? ''} ${facts.head}`);
}

/** A chain value the previous version of the node wrote (`origin|k|runs`, untagged). */
const OLD_CHAIN = /^[A-Za-z0-9_-]{1,64}\|[kd]?\|[A-Za-z0-9_,*-]*$/;

/** One list's first request of this run: the others to that list wait for its answer. */
interface Opening {
	itemIndex: number;
	released: Promise<void>;
	release: () => void;
}

/**
 * The money rule for one run of the node. `begin()` it with every money item before sending (it
 * writes the chain into the execution's custom data and gives each item its identity), ask
 * `before()` for each item, report `sent()`/`failed()`, and `finish()` at the end.
 */
export class MoneyRun {
	private readonly refs = new Map<number, string>();

	/** The fingerprint of each keyed item's decisive parameters. */
	private readonly prints = new Map<number, string>();

	private readonly items = new Map<number, MoneyItem>();

	private readonly firstOfRef = new Map<string, number>();

	private readonly writes: Array<Promise<void>> = [];

	private readonly removals: string[] = [];

	private readonly openings = new Map<string, Opening>();

	/** Whether the chain had a request of unknown outcome before this run; whether this run had one. */
	private unknownBefore = true;

	private unknownNow = false;

	/** Whether this node run may have sent money requests before (an earlier try, the retried execution). */
	private earlier = false;

	private chain?: Chain;

	private data?: CustomData;

	/** The key of the tag on the chain: this n8n instance and workflow. */
	private secret = '';

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

	private save(): void {
		if (this.chain) safe(() => this.data?.set(CHAIN_DATA_KEY, chainText(this.chain!, this.secret)));
	}

	/** Reads and writes the chain in the execution's custom data; gives every item its identity. */
	private start(items: MoneyItem[], write = true): void {
		const node = this.ctx.getNode();
		const nodeId = node.id ?? node.name;
		// Outside an execution (n8n gives no ID) the run is its own origin: nothing can retry it.
		const execution =
			String(safe(() => this.ctx.getExecutionId()) ?? '') || `local-${randomUUID()}`;
		const retrying = safe(() => this.ctx.getMode()) === 'retry';
		const instanceId = String(safe(() => this.ctx.getInstanceId()) ?? '') || 'unknown-instance';
		const workflowId = String(safe(() => this.ctx.getWorkflow().id) ?? '') || 'no-workflow';
		this.secret = `${instanceId}\u0000${workflowId}`;
		this.data = customDataOf(this.ctx);
		const value = safe(() => this.data?.get(CHAIN_DATA_KEY));
		let stored = parseChain(value, this.secret);
		// A plain execution (Retry On Fail included) is its own origin; only a Retry carries another.
		if (stored && !retrying && stored.origin !== execution) stored = undefined;
		const token = runToken(nodeId, this.runIndex);
		if (this.data && !write) {
			this.chain = stored;
		} else if (
			this.data &&
			retrying &&
			!stored &&
			typeof value === 'string' &&
			OLD_CHAIN.test(value)
		) {
			this.earlier = true;
			this.unidentified =
				'the execution being retried was run by an earlier version of this node, whose record of its payments this version cannot verify';
		} else if (this.data) {
			const chain: Chain = stored ?? {
				origin: execution,
				meta: '',
				unknown: false,
				runs: [],
				lists: [],
			};
			this.earlier = chain.runs.includes(token) || chain.runs.includes('*');
			if (!this.earlier) chain.runs.push(token);
			this.unknownBefore = chain.unknown;
			// Written before anything leaves: a run that never ends (n8n stopped) leaves it set.
			chain.unknown = true;
			this.chain = chain;
			this.save();
			const written = parseChain(
				safe(() => this.data!.get(CHAIN_DATA_KEY)),
				this.secret,
			);
			if (written?.origin !== chain.origin)
				this.unidentified =
					"n8n's custom data of this execution is full (n8n keeps 10 keys per execution and the node needs one, named facilitapay), so a Retry of this execution could not recognise these payments";
		} else if (retrying) {
			this.earlier = true;
			this.unidentified =
				'this n8n gives the node no custom data of the execution being retried, so the payments of that execution cannot be recognised';
		}
		const scope = {
			instance: instanceName(instanceId),
			workflow: workflowId,
			origin: this.chain?.origin ?? execution,
			node: nodeId,
			runIndex: this.runIndex,
		};
		this.original = scope.origin === execution && !retrying;
		for (const item of items) {
			this.items.set(item.itemIndex, item);
			const ref = identityOf(
				this.unidentified === undefined ? scope : undefined,
				item.itemIndex,
				item.idempotencyKey,
			);
			if (ref === undefined) continue;
			this.refs.set(item.itemIndex, ref);
			if (item.idempotencyKey !== undefined)
				this.prints.set(item.itemIndex, fingerprintOf(item.request, holderOf(item)));
			if (!this.firstOfRef.has(ref)) this.firstOfRef.set(ref, item.itemIndex);
		}
	}

	/** The item's identity, when it has one. */
	refOf(item: MoneyItem): string | undefined {
		return this.refs.get(item.itemIndex);
	}

	/** The request as it is sent: the identity (and a key's fingerprint) in `meta`, beside the user's own. */
	withIdentity(item: MoneyItem): ApiRequest {
		const ref = this.refOf(item);
		const holder = holderOf(item);
		const body = item.request.body;
		if (ref === undefined || holder === undefined || !body) return item.request;
		const inner = (body[holder] ?? {}) as IDataObject;
		const meta = inner.meta && typeof inner.meta === 'object' ? (inner.meta as IDataObject) : {};
		const print = this.prints.get(item.itemIndex);
		const ours =
			print === undefined
				? { [IDENTITY_FIELD]: ref }
				: { [IDENTITY_FIELD]: ref, [FINGERPRINT_FIELD]: print };
		return {
			...item.request,
			body: { ...body, [holder]: { ...inner, meta: { ...meta, ...ours } } },
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
		if (first !== undefined && first !== item.itemIndex) {
			const firstItem = this.items.get(first);
			if (firstItem && this.prints.get(first) !== this.prints.get(item.itemIndex))
				throw this.keyReused(
					item,
					`item ${first} of this run (${paymentText(firstItem.request, holderOf(firstItem))})`,
				);
			return {
				kind: 'notSent',
				json: {
					notSent: true,
					idempotencyKey: item.idempotencyKey,
					notSentNote: `Not sent: item ${first} of this run carries the same Idempotency Key "${item.idempotencyKey}", and one key names one payment.`,
				},
			};
		}
		const key = this.memoryKey(ref);
		// One identity at a time in this process: a second run waits for the first one's outcome.
		while (this.memory.get(key)?.state === 'sending') await this.memory.whenSettled(key);
		const remembered = this.memory.get(key);
		if (remembered?.state === 'done') {
			const print = this.prints.get(item.itemIndex);
			if (
				print !== undefined &&
				remembered.fingerprint !== undefined &&
				remembered.fingerprint !== print
			)
				throw this.keyReused(
					item,
					recordText(recordFrom(remembered.answer, remembered.recordId) ?? {}),
				);
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
		const earlierUnknown = remembered?.state === 'unknown';
		this.memory.set(key, { state: 'sending' });
		try {
			if (item.idempotencyKey !== undefined || this.earlier || earlierUnknown) {
				const decision = await this.settle(item, ref, earlierUnknown);
				if (decision) {
					const record = 'json' in decision ? decision.json : undefined;
					this.memory.set(key, {
						state: 'done',
						recordId: recordIdOf(record),
						fingerprint: metaOf(record).fp,
					});
					return decision;
				}
			}
			await this.open(item);
		} catch (error) {
			if (earlierUnknown) this.memory.set(key, { state: 'unknown' });
			else this.memory.forget(key);
			throw error;
		}
		if (this.ledger && (!findable(item) || item.idempotencyKey !== undefined)) {
			const print = this.prints.get(item.itemIndex);
			const keys =
				print === undefined ? [`A:${ref}`] : [`A:${ref}`, `V2:${ref}`, `F:${ref}:${print}`];
			await this.guard(this.ledger.record(keys));
		}
		return { kind: 'send' };
	}

	/**
	 * Before a request to a list the chain has not sent to yet leaves: the list is written in the
	 * chain with the point a retry reads it from (the newest record this process knows there, or
	 * else the answer to this first request; the others to that list wait for it).
	 */
	private async open(item: MoneyItem): Promise<void> {
		const place = item.place;
		if (place?.by !== 'meta' || !this.chain) return;
		for (;;) {
			const lists = this.chain.lists;
			if (lists === undefined) return;
			const opening = this.openings.get(place.key);
			if (opening) {
				await opening.released;
				continue;
			}
			if (lists.some((list) => list.key === place.key)) return;
			if (!/^[A-Za-z0-9_-]{1,64}$/.test(place.key)) {
				this.chain.lists = undefined;
				this.save();
				return;
			}
			const entry: ChainList = { key: place.key };
			const cursor = this.memory.cursor(`${this.scope}\u0000${place.list}`);
			if (cursor !== undefined && /^[A-Za-z0-9_.-]{1,64}$/.test(cursor)) entry.after = cursor;
			else {
				let release = () => {};
				const released = new Promise<void>((resolve) => (release = resolve));
				this.openings.set(place.key, { itemIndex: item.itemIndex, released, release });
			}
			lists.push(entry);
			this.save();
			return;
		}
	}

	/** The first request to a list was answered, failed or has no known outcome. */
	private opened(item: MoneyItem, recordId: string | undefined, failedClearly: boolean): void {
		const place = item.place;
		if (place?.by !== 'meta') return;
		const opening = this.openings.get(place.key);
		if (!opening || opening.itemIndex !== item.itemIndex) return;
		this.openings.delete(place.key);
		const lists = this.chain?.lists;
		const entry = lists?.find((list) => list.key === place.key);
		if (lists && entry && entry.after === undefined && entry.first === undefined) {
			if (failedClearly) lists.splice(lists.indexOf(entry), 1);
			else if (recordId !== undefined && /^[A-Za-z0-9_.-]{1,64}$/.test(recordId))
				entry.first = recordId;
			this.save();
		}
		opening.release();
	}

	/** Where a lookup of this item reads: the chain's lists from their points, a key's list whole. */
	private windowsFor(item: MoneyItem): ListWindow[] | undefined {
		const place = item.place;
		if (place?.by !== 'meta') return undefined;
		const lists = this.chain?.lists;
		const ofChain = (lists ?? []).map((list) => ({
			place: placeOfKey(list.key) as ListWindow['place'],
			after: list.after,
			first: list.first,
		}));
		if (item.idempotencyKey !== undefined)
			return [{ place }, ...ofChain.filter((window) => window.place.key !== place.key)];
		if (lists === undefined) return [{ place }];
		return ofChain;
	}

	/** An identity that may have been sent before: FacilitaPay's record decides. */
	private async settle(
		item: MoneyItem,
		ref: string,
		earlierUnknown: boolean,
	): Promise<MoneyDecision | undefined> {
		const windows = this.windowsFor(item);
		let result: FindSentResult;
		if (windows !== undefined && windows.length === 0)
			// The chain sent to no list: nothing of it can be anywhere.
			result = { notFound: true };
		else if (!this.findSent) result = { cannotTell: 'no lookup at FacilitaPay is available' };
		else {
			try {
				result = await this.findSent(
					item.place ?? { by: 'none', why: 'nothing declares where its record is' },
					ref,
					windows,
				);
			} catch (error) {
				result = {
					cannotTell: `looking it up at FacilitaPay failed (${(error as Error).message})`,
				};
			}
		}
		if ('found' in result) {
			const ids = new Set((result.all ?? [result.found]).map((record) => String(record.id)));
			if (ids.size > 1) throw this.paidTwice(item, ref, result.all ?? []);
			const print = this.prints.get(item.itemIndex);
			const held = metaOf(result.found).fp;
			if (print !== undefined && held !== undefined && held !== print)
				throw this.keyReused(item, recordText(result.found));
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
			// "Not found" is "not sent" by construction (nothing of the chain can be there), or when
			// every request of the chain had a known outcome and no answer showed meta dropped, or
			// when records read since the chain's point carry identities (meta is kept today).
			const meta = this.chain?.meta ?? '';
			const chainClear =
				item.idempotencyKey === undefined && this.chain !== undefined && !this.unknownBefore;
			const proven =
				result.metaShown === undefined || (meta !== 'd' && (result.metaShown || chainClear));
			if (item.idempotencyKey !== undefined && this.ledger) await this.keyElsewhere(item, ref);
			if (proven) return undefined;
			if (earlierUnknown)
				throw this.unknown(
					item,
					`its earlier try has no known outcome and FacilitaPay shows no record under ${IDENTITY_FIELD} "${ref}", but nothing read since that try shows FacilitaPay keeping meta, so "not found" does not prove "not sent"`,
				);
			return await this.byLedger(
				item,
				ref,
				`FacilitaPay shows no record under ${IDENTITY_FIELD} "${ref}", but nothing read since the payment's first try shows FacilitaPay keeping meta, so "not found" does not prove "not sent"`,
			);
		}
		if (!findable(item) && !earlierUnknown)
			return await this.byLedger(item, ref, result.cannotTell);
		throw this.unknown(item, `it may have been sent before and ${lowerFirst(result.cannotTell)}`);
	}

	/** A key this node sent with other decisive parameters (another subject, amount, account). */
	private async keyElsewhere(item: MoneyItem, ref: string): Promise<void> {
		const print = this.prints.get(item.itemIndex);
		if (!this.ledger || print === undefined) return;
		let seen: Set<string>;
		try {
			seen = await this.ledger.peek([`V2:${ref}`, `F:${ref}:${print}`]);
		} catch {
			return;
		}
		if (seen.has(`V2:${ref}`) && !seen.has(`F:${ref}:${print}`))
			throw this.keyReused(
				item,
				`a payment this node sent earlier with other parameters (not in ${item.place?.by === 'meta' ? item.place.what : 'this list'}; Transaction > Find By Idempotency Key with its subject shows it)`,
			);
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
		const recordId = recordIdOf(answer);
		this.memory.set(this.memoryKey(ref), {
			state: 'done',
			answer,
			recordId,
			fingerprint: this.prints.get(item.itemIndex),
		});
		if (item.place?.by === 'meta') {
			if (recordId !== undefined)
				this.memory.setCursor(`${this.scope}\u0000${item.place.list}`, recordId);
			if (this.chain && this.chain.meta !== 'd') {
				const kept = metaOf(answer).ref === ref ? 'k' : 'd';
				if (kept !== this.chain.meta) {
					this.chain.meta = kept;
					this.save();
				}
			}
			this.opened(item, recordId, false);
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
			this.unknownNow = true;
			this.opened(item, undefined, false);
			return;
		}
		this.memory.forget(this.memoryKey(ref));
		this.opened(item, undefined, true);
		this.removals.push(`A:${ref}`);
		if (facts && refusesMeta(error))
			setFacts(error as FacilitaPayError, {
				...facts,
				fix: `FacilitaPay refused the request's meta. The node writes the payment's identity in meta.${IDENTITY_FIELD} (beside your own meta) so that a retry can find the payment and never pay twice; without it the payment cannot be sent safely. Check your own Meta (JSON) field, or ask FacilitaPay to accept meta on this request.`,
			});
	}

	/** Writes what n8n's store still has to know; the run's answer waits for it. */
	async finish(): Promise<void> {
		for (const opening of this.openings.values()) opening.release();
		if (this.chain && this.chain.unknown && !this.unknownBefore && !this.unknownNow) {
			this.chain.unknown = false;
			this.save();
		}
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
			fix: 'It creates or moves money, so it is sent at most once, also when n8n runs the node again. Check it at FacilitaPay (Transaction > Get, Subject > Get Transactions, Transaction > Find By Idempotency Key) before sending it again.',
		});
	}

	/** One Idempotency Key, two payments: refused, both named, nothing sent. */
	private keyReused(item: MoneyItem, other: string): FacilitaPayError {
		return errorFromFacts(this.ctx.getNode(), {
			itemIndex: item.itemIndex,
			outcome: 'notSent',
			invalidInput: true,
			head: `The Idempotency Key "${item.idempotencyKey}" already names another payment: ${other}. This request (${paymentText(item.request, holderOf(item))}) differs from it, so it was not sent`,
			request: `${item.request.method} ${item.request.path}`,
			movesMoney: true,
			fix: 'One key names one payment. If this is a new payment, give it a new Idempotency Key; if it is the same one, send it with the parameters it was sent with.',
		});
	}

	/** Two records under one identity (overlapping runs on two workers): named, with how to cancel one. */
	private paidTwice(item: MoneyItem, ref: string, records: IDataObject[]): FacilitaPayError {
		const named = records.map(recordText).join(' and ');
		return errorFromFacts(this.ctx.getNode(), {
			itemIndex: item.itemIndex,
			outcome: 'done',
			head: `FacilitaPay holds ${records.length} payments under ${IDENTITY_FIELD} "${ref}": ${named}. Two runs sent it at the same time; nothing more was sent`,
			request: `${item.request.method} ${item.request.path}`,
			recordId: String(records[0]?.id ?? ''),
			movesMoney: true,
			fix: `Keep one and cancel the other while it is pending: Transaction > Cancel with its ID (GET /transactions/<id>/refund), or refund it once received (Transaction > Refund).`,
		});
	}
}

/** The body object that carries `meta` (transaction, subscription), when the request has one. */
function holderOf(item: MoneyItem): string | undefined {
	return item.place?.by === 'meta' ? item.place.holder : undefined;
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
