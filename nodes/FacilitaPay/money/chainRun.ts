import { randomUUID } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import type { Chain, ChainList, CustomData } from './chain';
import { CHAIN_DATA_KEY, chainText, customDataOf, parseChain, runToken, safe } from './chain';
import { metaOf } from './identity';
import { placeOfKey } from './lookups';
import type { ListWindow, MoneyItem } from './types';

/** A chain value the previous version of the node wrote (`origin|k|runs`, untagged). */
const OLD_CHAIN = /^[A-Za-z0-9_-]{1,64}\|[kd]?\|[A-Za-z0-9_,*-]*$/;

/** One list's first request of this run: the others to that list wait for its answer. */
interface Opening {
	itemIndex: number;
	released: Promise<void>;
	release: () => void;
}

/**
 * The chain of executions of one run of the node (docs/money.md): read from the execution's custom
 * data when the node can recognise it as its own, written before anything leaves, kept up to date
 * with the lists the chain sends to (and the point a retry reads each from), whether its create
 * answers showed `meta` kept, and whether any outcome stayed unknown.
 */
export class ChainRun {
	chain?: Chain;

	/** Whether this node run may have sent money requests before (an earlier try, the retried execution). */
	earlier = false;

	/** Why items without a key cannot be identified. */
	unidentified?: string;

	/** The origin execution; this execution; whether it is a Retry. */
	origin = '';

	execution = '';

	retrying = false;

	instanceId = '';

	workflowId = '';

	/** Whether an earlier run of the chain never ended (its flag was still set when this run began). */
	private unknownBefore = true;

	private data?: CustomData;

	/** The key of the tag on the chain: this n8n instance and workflow. */
	private secret = '';

	private readonly openings = new Map<string, Opening>();

	/** This node run's position in the chain's runs (how its items of unknown outcome are named). */
	private runPosition = -1;

	/** Reads (and unless a preview, writes) the chain of this execution. */
	constructor(ctx: IExecuteFunctions, nodeId: string, runIndex: number, write: boolean) {
		// Outside an execution (n8n gives no ID) the run is its own origin: nothing can retry it.
		this.execution = String(safe(() => ctx.getExecutionId()) ?? '') || `local-${randomUUID()}`;
		this.retrying = safe(() => ctx.getMode()) === 'retry';
		this.instanceId = String(safe(() => ctx.getInstanceId()) ?? '') || 'unknown-instance';
		this.workflowId = String(safe(() => ctx.getWorkflow().id) ?? '') || 'no-workflow';
		this.secret = `${this.instanceId}\u0000${this.workflowId}`;
		this.data = customDataOf(ctx);
		const value = safe(() => this.data?.get(CHAIN_DATA_KEY));
		let stored = parseChain(value, this.secret);
		// A plain execution (Retry On Fail included) is its own origin; only a Retry carries another.
		if (stored && !this.retrying && stored.origin !== this.execution) stored = undefined;
		const token = runToken(nodeId, runIndex);
		if (this.data && !write) {
			this.chain = stored;
		} else if (
			this.data &&
			this.retrying &&
			!stored &&
			typeof value === 'string' &&
			OLD_CHAIN.test(value)
		) {
			this.earlier = true;
			this.unidentified =
				'the execution being retried was run by an earlier version of this node, whose record of its payments this version cannot verify';
		} else if (this.data) {
			const chain: Chain = stored ?? {
				origin: this.execution,
				meta: '',
				unknown: false,
				runs: [],
				lists: [],
			};
			this.earlier = chain.runs.includes(token) || chain.runs.includes('*');
			if (!this.earlier) chain.runs.push(token);
			this.runPosition = chain.runs.indexOf(token);
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
		} else if (this.retrying) {
			this.earlier = true;
			this.unidentified =
				'this n8n gives the node no custom data of the execution being retried, so the payments of that execution cannot be recognised';
		}
		this.origin = this.chain?.origin ?? this.execution;
	}

	private save(): void {
		if (this.chain) safe(() => this.data?.set(CHAIN_DATA_KEY, chainText(this.chain!, this.secret)));
	}

	/** FacilitaPay's answers in this chain never showed `meta` dropped ('' or 'k'). */
	get metaDropped(): boolean {
		return this.chain?.meta === 'd';
	}

	/** Every run of the chain before this one ended (its requests of unknown outcome are written). */
	get clear(): boolean {
		return this.chain !== undefined && !this.unknownBefore;
	}

	/** A create answer: whether it echoed the identity (FacilitaPay keeps `meta`). */
	answered(ref: string, answer: unknown): void {
		if (!this.chain || this.chain.meta === 'd') return;
		const kept = metaOf(answer).ref === ref ? 'k' : 'd';
		if (kept !== this.chain.meta) {
			this.chain.meta = kept;
			this.save();
		}
	}

	/**
	 * A request of this run has no known outcome: the item is written in the chain, with the moment
	 * (FacilitaPay's clock, epoch ms) its try failed.
	 */
	unknownOutcome(item: MoneyItem, atMs: number): void {
		const chain = this.chain;
		if (!chain) return;
		const at = Math.ceil(atMs / 1000);
		chain.unknownAt = Math.max(chain.unknownAt ?? 0, at);
		const entry = `${this.runPosition}.${item.itemIndex}`;
		if (this.runPosition < 0 || chain.runs.includes('*')) chain.unknownItems = '*';
		else if (chain.unknownItems !== '*') {
			const items = chain.unknownItems ?? [];
			if (!items.includes(entry)) items.push(entry);
			chain.unknownItems = items;
		}
		this.save();
	}

	/**
	 * Whether this item's request may have been processed without an answer in an earlier try of
	 * the chain, and when (FacilitaPay's clock, epoch ms; undefined: not known). Undefined when it
	 * had none: every try of the chain ended, and it is not among those of unknown outcome.
	 */
	unknownFor(item: MoneyItem): { atMs?: number } | undefined {
		const chain = this.chain;
		if (!chain) return undefined;
		const atMs = chain.unknownAt === undefined ? undefined : chain.unknownAt * 1000;
		// An earlier run that never ended (n8n stopped): any of its requests, at a moment not known.
		if (this.unknownBefore) return {};
		const items = chain.unknownItems;
		if (items === undefined) return undefined;
		if (items === '*' || items.includes(`${this.runPosition}.${item.itemIndex}`)) return { atMs };
		return undefined;
	}

	/**
	 * The run ended: lists waiting are released, and the flag written before the first request left
	 * is cleared (the items of unknown outcome are written one by one), unless an earlier run of the
	 * chain never ended.
	 */
	finish(): void {
		for (const opening of this.openings.values()) opening.release();
		if (this.chain && this.chain.unknown && !this.unknownBefore) {
			this.chain.unknown = false;
			this.save();
		}
	}

	/**
	 * Before a request to a list the chain has not sent to yet leaves: the list is written in the
	 * chain with the point a retry reads it from (the newest record this process knows there, or
	 * else the answer to this first request; the others to that list wait for it).
	 */
	async open(item: MoneyItem, cursor: string | undefined): Promise<void> {
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
	opened(item: MoneyItem, recordId: string | undefined, failedClearly: boolean): void {
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
	windowsFor(item: MoneyItem): ListWindow[] | undefined {
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
}
