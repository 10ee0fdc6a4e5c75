import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ChainRun } from './chainRun';
import { IDENTITY_FIELD, metaOf, recordText } from './identity';
import type { RuleStore } from './ruleStore';
import { SETTLE_WINDOW_MS } from './settle';
import type { FindSent, FindSentResult, MoneyDecision, MoneyItem } from './types';
import { findable, isVoid } from './types';
import {
	alreadyDone,
	keyReusedError,
	lowerFirst,
	notYetSettled,
	paidTwiceError,
	unknownError,
	voidedNote,
} from './words';

/** What settling an identity by FacilitaPay's record reads and writes of its run (rule.ts). */
export interface RecordRun {
	ctx: IExecuteFunctions;
	/** This run's chain of executions: the lists it sent to, its tries of unknown outcome. */
	chain: ChainRun;
	findSent?: FindSent;
	/** n8n's store, where FacilitaPay's record cannot settle it. */
	store: RuleStore;
	/** Items whose every record under their identity FacilitaPay shows canceled or failed. */
	voided: Map<number, IDataObject[]>;
}

/** One identity to settle, with what this process knows of it. */
export interface Settling {
	item: MoneyItem;
	ref: string;
	/** The fingerprint of a keyed item's decisive parameters. */
	print?: string;
	/** This process tried it with an unknown outcome (at `unknownAt`, FacilitaPay's clock). */
	earlierUnknown: boolean;
	unknownAt?: number;
	/** This process was answered for this key's payment. */
	answered?: { recordId?: string };
}

/**
 * An identity that may have been sent before: FacilitaPay's record decides (docs/money.md). Found →
 * not sent (two live records: paid twice; a key's record of other parameters: refused). Not found →
 * sent (undefined) only where that proves "not sent"; else n8n's store decides, or the item fails
 * with what to check.
 */
export async function settleByRecord(
	run: RecordRun,
	{ item, ref, print, earlierUnknown, unknownAt, answered }: Settling,
): Promise<MoneyDecision | undefined> {
	const { chain } = run;
	const windows = chain.windowsFor(item);
	let result: FindSentResult;
	if (windows !== undefined && windows.length === 0)
		// The chain sent to no list: nothing of it can be anywhere.
		result = { notFound: true };
	else if (!run.findSent) result = { cannotTell: 'no lookup at FacilitaPay is available' };
	else {
		try {
			result = await run.findSent(
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
		const unique = new Map<string, IDataObject>();
		for (const record of result.all ?? [result.found]) unique.set(String(record.id), record);
		const records = [...unique.values()];
		// A payment FacilitaPay shows canceled or failed moved no money: it no longer counts.
		const voided = records.filter(isVoid);
		const live = records.filter((record) => !isVoid(record));
		if (live.length > 1) throw paidTwiceError(run.ctx.getNode(), item, ref, live, voided);
		if (live.length === 1) {
			const found = live[0];
			const held = metaOf(found).fp;
			if (print !== undefined && held !== undefined && held !== print)
				throw keyReusedError(run.ctx.getNode(), item, recordText(found));
			return {
				kind: 'alreadyDone',
				json: alreadyDone(
					`Not sent: FacilitaPay already holds this payment under ${IDENTITY_FIELD} "${ref}"; this is its record.${voidedNote(voided)}`,
					ref,
					found,
				),
			};
		}
		// Every payment under it was canceled or failed: the identity is free; FacilitaPay
		// showed it kept meta (these records carry it).
		run.voided.set(item.itemIndex, voided);
		result = { notFound: true, metaShown: true, readAt: result.readAt };
	}
	if ('notFound' in result) {
		// "Not found" is "not sent" by construction (nothing of the chain can be there), or when
		// FacilitaPay keeps meta (no answer showed it dropped; records read since the chain's
		// point carry identities, or every run of the chain ended) and the payment had no try of
		// unknown outcome. A try of unknown outcome (a 504, a timeout) may still be written: "not
		// found" proves "not sent" only once FacilitaPay's clock shows the settle window passed
		// since that try; a record written after it proves nothing (FacilitaPay writes requests
		// side by side: a later one can be written first).
		const suspect = earlierUnknown
			? { atMs: unknownAt ?? chain.unknownFor(item)?.atMs }
			: answered
				? undefined
				: chain.unknownFor(item);
		const chainClear = item.idempotencyKey === undefined && chain.clear;
		const metaKept =
			result.metaShown === undefined || (!chain.metaDropped && (result.metaShown || chainClear));
		if (suspect !== undefined && result.metaShown !== undefined) {
			const settled =
				suspect.atMs !== undefined &&
				result.readAt !== undefined &&
				result.readAt >= suspect.atMs + SETTLE_WINDOW_MS;
			if (metaKept && result.metaShown && settled) return undefined;
			throw unknownError(
				run.ctx.getNode(),
				item,
				notYetSettled(ref, suspect.atMs, result.readAt, metaKept && result.metaShown),
			);
		}
		if (metaKept) return undefined;
		const why = `FacilitaPay shows no record under ${IDENTITY_FIELD} "${ref}", but nothing read since the payment's first try shows FacilitaPay keeping meta, so "not found" does not prove "not sent"`;
		if (item.idempotencyKey !== undefined && run.store.ledger && findable(item)) {
			// A key: n8n's store decides when its attempt is recorded (one call, see attempt()).
			run.store.leaveToAttempt(item, why);
			return undefined;
		}
		return await run.store.byLedger(item, ref, print, why, chain.earlier);
	}
	if (!findable(item) && !earlierUnknown)
		return await run.store.byLedger(item, ref, print, result.cannotTell, chain.earlier);
	// FacilitaPay cannot be read now, but answered this process for this key: done.
	if (answered) return undefined;
	throw unknownError(
		run.ctx.getNode(),
		item,
		`it may have been sent before and ${lowerFirst(result.cannotTell)}`,
	);
}
