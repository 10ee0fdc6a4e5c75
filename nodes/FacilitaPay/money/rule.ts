import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { instanceName } from './chain';
import { ChainRun } from './chainRun';
import type { ApiRequest, FacilitaPayError } from '../transport';
import { CREDENTIAL_TYPE, factsOf, serviceNow, setFacts } from '../transport';
import {
	carryingIdentity,
	fingerprintOf,
	identityOf,
	IDENTITY_FIELD,
	metaOf,
	paymentText,
	recordText,
} from './identity';
import { Ledger } from './ledger';
import { settleByRecord } from './ruleRecord';
import { RuleStore } from './ruleStore';
import type { FindSent, Judge, MoneyDecision, MoneyItem, Recount } from './types';
import { findable, holderOf, isVoid } from './types';
import {
	alreadyDone,
	keyReusedError,
	paidTwiceError,
	recordFrom,
	refusesMeta,
	sameKeyInRun,
	unknownError,
} from './words';
import { memoryScope } from './scope';
import type { SentMemory } from './sentMemory';
import { recordIdOf, sentMemory } from './sentMemory';

/**
 * The money rule (docs/money.md): a request that creates or moves money (`retry: 'sendOnce'`) has
 * one exact identity, and whether it was sent is settled by FacilitaPay's own record of it.
 * - The identity is the Idempotency Key (`key:<key>`, the account; its decisive parameters are
 *   bound to it by a fingerprint), else the origin, scoped: this n8n instance, the workflow, the
 *   origin execution (kept in custom data, recognised by its tag), the node, `$runIndex`, the item.
 * - It travels in `meta`; a retry looks it up in the lists the chain sent to, from the point each
 *   was recorded with. Found → not sent. Not found → sent only on evidence (chainRun.ts,
 *   ruleRecord.ts).
 * - One identity at a time in this process (sentMemory's in-flight wait); n8n's store (ledger,
 *   ruleStore.ts) for requests no record can be found for, and a key's attempts and fingerprints.
 */

export { IDENTITY_FIELD };
export type { FindSent, FindSentResult, MoneyDecision, MoneyItem, RecordPlace } from './types';

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
	/** Items whose every record under their identity FacilitaPay shows canceled or failed. */
	private readonly voided = new Map<number, IDataObject[]>();
	/** n8n's store as this run uses it (ruleStore.ts). */
	private readonly store: RuleStore;
	/** Re-reads a key's records after its payment was answered (overlapping workers). */
	private recount?: Recount;
	/** Reads again the statuses of records known only from a list read earlier. */
	private judge?: Judge;
	/** This run's chain of executions (custom data). */
	private chain!: ChainRun;
	/** Whether this execution is the origin: Retry On Fail then replays the answers it got. */
	private original = false;
	/**
	 * The FacilitaPay account the run speaks for (transport's accountOf: base URL and who signs
	 * in), known once the credentials are read: the process memory and n8n's store are keyed by it,
	 * so a credential edited from Sandbox to Production is another account.
	 */
	private scope = '';
	private account: Promise<string>;
	/** The credential's ID: this process's memory is kept per credential and account. */
	private readonly credentialId: string;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		ledger: Ledger | undefined,
		private readonly findSent: FindSent | undefined,
		private readonly memory: SentMemory,
		private readonly runIndex: number,
	) {
		const node = ctx.getNode();
		this.credentialId = node.credentials?.[CREDENTIAL_TYPE]?.id ?? CREDENTIAL_TYPE;
		this.account = Promise.resolve('');
		this.store = new RuleStore(ctx, ledger);
	}

	static begin(
		ctx: IExecuteFunctions,
		items: MoneyItem[],
		options: {
			findSent?: FindSent;
			recount?: Recount;
			judge?: Judge;
			ledger?: Ledger | null;
			memory?: SentMemory;
			runIndex?: number;
			/** The account the run's credentials reach (accountOf); else the credential's ID. */
			account?: Promise<string>;
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
		run.recount = options.recount;
		run.judge = options.judge;
		if (options.account) {
			run.account = options.account;
			// Read in before(); a failed read fails the item there.
			run.account.catch(() => undefined);
		}
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
		this.chain = new ChainRun(this.ctx, nodeId, this.runIndex, write);
		const { chain } = this;
		const scope = {
			instance: instanceName(chain.instanceId),
			workflow: chain.workflowId,
			origin: chain.origin,
			node: nodeId,
			runIndex: this.runIndex,
		};
		this.original = scope.origin === chain.execution && !chain.retrying;
		for (const item of items) {
			this.items.set(item.itemIndex, item);
			const ref = identityOf(
				chain.unidentified === undefined ? scope : undefined,
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
		return ref === undefined
			? item.request
			: carryingIdentity(item.request, holderOf(item), ref, this.prints.get(item.itemIndex));
	}

	private memoryKey(ref: string): string {
		return `${this.scope}\u0000${ref}`;
	}

	/** Whether this item's request may be sent, or what it already got. */
	async before(item: MoneyItem): Promise<MoneyDecision> {
		const ref = this.refOf(item);
		if (ref === undefined)
			throw unknownError(
				this.ctx.getNode(),
				item,
				`${this.chain.unidentified ?? 'it has no identity'}, so it was not sent`,
			);
		const first = this.firstOfRef.get(ref);
		if (first !== undefined && first !== item.itemIndex) {
			const firstItem = this.items.get(first);
			if (firstItem && this.prints.get(first) !== this.prints.get(item.itemIndex))
				throw keyReusedError(
					this.ctx.getNode(),
					item,
					`item ${first} of this run (${paymentText(firstItem.request, holderOf(firstItem))})`,
				);
			return { kind: 'notSent', json: sameKeyInRun(item, first) };
		}
		this.store.account = await this.account;
		this.scope = memoryScope(this.credentialId, this.store.account);
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
				throw keyReusedError(
					this.ctx.getNode(),
					item,
					recordText(recordFrom(remembered.answer, remembered.recordId) ?? {}),
				);
		}
		if (remembered?.state === 'done' && !(item.idempotencyKey !== undefined && findable(item))) {
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
		const unknownAt = remembered?.state === 'unknown' ? remembered.at : undefined;
		// A keyed payment this process was answered for: FacilitaPay's record is read (it may have
		// been canceled since); a list that does not show it yet leaves it done.
		const answered = remembered?.state === 'done' ? remembered : undefined;
		// Refused in this process (Retry On Fail after a 4xx): nothing was processed, no lookup.
		const refused = remembered?.state === 'refused' && item.idempotencyKey === undefined;
		this.memory.set(key, { state: 'sending' });
		// Until the item is decided, a failure gives the identity back as it was.
		let decided = false;
		try {
			if (!refused && (item.idempotencyKey !== undefined || this.chain.earlier || earlierUnknown)) {
				let decision = await settleByRecord(
					{
						ctx: this.ctx,
						chain: this.chain,
						findSent: this.findSent,
						store: this.store,
						voided: this.voided,
					},
					{
						item,
						ref,
						print: this.prints.get(item.itemIndex),
						earlierUnknown,
						unknownAt,
						answered,
					},
				);
				if (!decision && answered && !this.voided.has(item.itemIndex))
					decision = {
						kind: 'alreadyDone',
						json: alreadyDone(
							`Not sent: FacilitaPay processed this payment earlier (${IDENTITY_FIELD} "${ref}").`,
							ref,
							recordFrom(answered.answer, answered.recordId),
						),
					};
				if (decision) {
					const record = 'json' in decision ? decision.json : undefined;
					this.memory.set(key, {
						state: 'done',
						recordId: recordIdOf(record),
						fingerprint: metaOf(record).fp,
					});
					decided = true;
					return decision;
				}
			}
			if (this.store.ledger && (!findable(item) || item.idempotencyKey !== undefined)) {
				const decision = await this.store.attempt(item, ref, this.prints.get(item.itemIndex));
				if (decision) {
					this.memory.set(key, { state: 'done' });
					decided = true;
					return decision;
				}
			}
			await this.chain.open(
				item,
				item.place?.by === 'meta'
					? this.memory.cursor(`${this.scope}\u0000${item.place.list}`)
					: undefined,
			);
			decided = true;
		} finally {
			if (!decided) {
				if (earlierUnknown) this.memory.set(key, { state: 'unknown', at: unknownAt });
				else if (answered) this.memory.set(key, answered);
				else this.memory.forget(key);
			}
		}
		return { kind: 'send' };
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
			this.chain.answered(ref, answer);
			this.chain.opened(item, recordId, false);
		}
		this.store.sent(item, ref);
	}

	/**
	 * After a keyed payment was answered: when the list now holds two records under its key (two
	 * executions on two workers sent it at once), the item ends with an error naming both and how
	 * to cancel one. Nothing is sent.
	 */
	async confirm(item: MoneyItem, answer: unknown): Promise<void> {
		const ref = this.refOf(item);
		if (ref === undefined || item.idempotencyKey === undefined || !this.recount || !item.place)
			return;
		const records = [...((await this.recount(item.place, ref).catch(() => [])) ?? [])];
		const own = recordIdOf(answer);
		if (own !== undefined && !records.some((record) => String(record.id) === own))
			records.push({ id: own });
		// This execution's own payment first: the error's "Done (ID …)" is the one it made.
		records.sort((a, b) => Number(String(b.id) === own) - Number(String(a.id) === own));
		if (records.length < 2) return;
		// Payments FacilitaPay shows canceled or failed no longer count (statuses read again by ID).
		const judged = this.judge
			? await this.judge(item.place, records).catch(() => records)
			: records;
		const live = judged.filter((record) => !isVoid(record));
		if (live.length > 1) {
			// The next run looks the key up again (the user may cancel one meanwhile).
			this.memory.forget(this.memoryKey(ref));
			throw paidTwiceError(this.ctx.getNode(), item, ref, live, judged.filter(isVoid));
		}
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
			// When it failed, by FacilitaPay's clock (its answers' Date; this process's when none came).
			const at = serviceNow(this.store.account) ?? Date.now();
			this.memory.set(this.memoryKey(ref), { state: 'unknown', at });
			this.chain.unknownOutcome(item, at);
			this.chain.opened(item, undefined, false);
			return;
		}
		this.memory.set(this.memoryKey(ref), { state: 'refused' });
		this.chain.opened(item, undefined, true);
		this.store.freed(ref, this.prints.get(item.itemIndex));
		if (facts && refusesMeta(error))
			setFacts(error as FacilitaPayError, {
				...facts,
				fix: `FacilitaPay refused the request's meta. The node writes the payment's identity in meta.${IDENTITY_FIELD} (beside your own meta) so that a retry can find the payment and never pay twice; without it the payment cannot be sent safely. Check your own Meta (JSON) field, or ask FacilitaPay to accept meta on this request.`,
			});
	}

	/** Writes what n8n's store still has to know; the run's answer waits for it. */
	async finish(): Promise<void> {
		this.chain.finish();
		await this.store.finish();
	}
}
