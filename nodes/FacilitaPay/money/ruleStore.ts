import type { IExecuteFunctions } from 'n8n-workflow';

import type { Ledger } from './ledger';
import type { MoneyDecision, MoneyItem } from './types';
import { findable } from './types';
import { alreadyDone, keyReusedError, otherPayment, unknownError } from './words';

/**
 * n8n's store (ledger.ts) as one run of the money rule uses it (rule.ts), keyed by the account the
 * run speaks for: `A:` an identity attempted, `K:` a key attempted and `F:` the fingerprint of the
 * payment it names, `D:` processed where no record can be found at FacilitaPay. It decides where
 * FacilitaPay's record cannot settle an identity (ruleRecord.ts). Its writes are awaited at
 * `finish()`; a store that fails never stops a payment the user asked for.
 */
export class RuleStore {
	/** The account alone: n8n's store is shared by every process (and credential) reaching it. */
	account = '';
	private readonly writes: Array<Promise<void>> = [];
	private readonly removals: string[] = [];
	/** Keyed items FacilitaPay's list could not settle: why (n8n's store decides at attempt()). */
	private readonly unproven = new Map<number, string>();

	constructor(
		private readonly ctx: IExecuteFunctions,
		/** None: n8n before 1.64 has no store (or the run was begun without one). */
		readonly ledger: Ledger | undefined,
	) {}

	/** A key of n8n's store (`A:`, `D:`, `K:`, `F:`), for the account the run speaks for. */
	private stored(kind: 'A' | 'D' | 'K' | 'F', ref: string, print?: string): string {
		return `${kind}:${ref}${print === undefined ? '' : `:${print}`}@${this.account}`;
	}

	/** A keyed item FacilitaPay's list could not settle: n8n's store decides at `attempt()`. */
	leaveToAttempt(item: MoneyItem, why: string): void {
		this.unproven.set(item.itemIndex, why);
	}

	/**
	 * Records in n8n's store that this identity is being attempted (and a key's fingerprint); a key
	 * this node sent before with other decisive parameters (another subject, amount, account) is
	 * refused here, before anything leaves. One store call for the items of a moment together.
	 */
	async attempt(item: MoneyItem, ref: string, print: string | undefined): Promise<undefined> {
		const keys =
			print === undefined
				? [this.stored('A', ref)]
				: [this.stored('K', ref), this.stored('F', ref, print)];
		const unproven = this.unproven.get(item.itemIndex);
		let seen: Set<string>;
		try {
			seen = await this.ledger!.record(keys);
		} catch {
			if (unproven !== undefined)
				throw unknownError(this.ctx.getNode(), item, `it may have been sent before: ${unproven}`);
			// n8n's database: when it fails, FacilitaPay's record still settles what it can.
			return undefined;
		}
		if (print !== undefined && seen.has(keys[0]) && !seen.has(keys[1])) {
			this.removals.push(...keys.filter((key) => !seen.has(key)));
			throw keyReusedError(this.ctx.getNode(), item, otherPayment(item));
		}
		// A key FacilitaPay's list cannot settle, attempted before by this node (or another
		// execution is sending it right now): its outcome is unknown here.
		if (unproven === undefined || !seen.has(keys[0])) return undefined;
		throw unknownError(
			this.ctx.getNode(),
			item,
			`it was sent before (or another execution is sending it right now) without a known outcome: ${unproven}`,
		);
	}

	/**
	 * Where FacilitaPay's record cannot settle it: n8n's store says whether this identity was
	 * attempted. When it has nothing, a key's first use and a request no record can be found for
	 * are sent; a payment of a node run the chain already started (`earlier`) is not.
	 */
	async byLedger(
		item: MoneyItem,
		ref: string,
		print: string | undefined,
		why: string,
		earlier: boolean,
	): Promise<MoneyDecision | undefined> {
		if (!this.ledger) {
			// n8n before 1.64 has no store: a key nothing shows as used is taken as new.
			if (item.idempotencyKey !== undefined && !earlier) return undefined;
			throw unknownError(this.ctx.getNode(), item, `it may have been sent before: ${why}`);
		}
		const tried = this.stored(print === undefined ? 'A' : 'K', ref);
		const bound = print === undefined ? [] : [this.stored('F', ref, print)];
		const done = this.stored('D', ref);
		let seen: Set<string>;
		try {
			seen = await this.ledger.peek([tried, done, ...bound]);
		} catch {
			throw unknownError(this.ctx.getNode(), item, `it may have been sent before: ${why}`);
		}
		if (print !== undefined && seen.has(tried) && !seen.has(bound[0]))
			throw keyReusedError(this.ctx.getNode(), item, otherPayment(item));
		if (seen.has(done))
			return {
				kind: 'alreadyDone',
				json: alreadyDone(
					`Not sent: this node recorded it as processed by FacilitaPay (${ref}). ${why}.`,
					ref,
				),
			};
		if (seen.has(tried) || (earlier && item.idempotencyKey === undefined && findable(item)))
			throw unknownError(
				this.ctx.getNode(),
				item,
				`it was sent before (or another execution is sending it right now) without a known outcome: ${why}`,
			);
		return undefined;
	}

	/** The request was answered: `D:` only where no record can be found (a key's payment is found at FacilitaPay). */
	sent(item: MoneyItem, ref: string): void {
		if (this.ledger && !findable(item))
			this.writes.push(this.ignoreStoreFailure(this.ledger.record([this.stored('D', ref)])));
	}

	/** A clear failure frees the identity (and a key for other parameters: nothing was paid). */
	freed(ref: string, print: string | undefined): void {
		this.removals.push(
			...(print === undefined
				? [this.stored('A', ref)]
				: [this.stored('K', ref), this.stored('F', ref, print)]),
		);
	}

	/** Writes what n8n's store still has to know; the run's answer waits for it. */
	async finish(): Promise<void> {
		await Promise.all(this.writes.splice(0));
		if (this.ledger && this.removals.length > 0)
			await this.ignoreStoreFailure(this.ledger.remove(this.removals.splice(0)));
	}

	/** A store that cannot be written does not stop a payment the user asked for. */
	private async ignoreStoreFailure(write: Promise<unknown>): Promise<void> {
		try {
			await write;
		} catch {
			// n8n's database: when it fails, FacilitaPay's record still settles what it can.
		}
	}
}
