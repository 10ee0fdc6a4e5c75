import type { IExecuteFunctions } from 'n8n-workflow';

import type { RunSettings, RunState } from '../../transport';
import { accountOfRun, apiRequest, beginRun, CREDENTIAL_TYPE, stopRun } from '../../transport';
import { lookupsFor, MoneyRun } from '../../money';
import type { OperationModule } from '../node.type';
import type { Batch } from './check';
import { checkItems, SEND_WHILE_CHECKING_YIELD_MS } from './check';
import type { CheckedSoFar } from './checked';
import { forItem, perform } from './perform';
import type { SentCounts } from './perform';
import { runPool } from './pool';

/** n8n's $runIndex of this run of the node, when it tells it. */
export function runIndexOf(ctx: IExecuteFunctions): number | undefined {
	try {
		const runIndex = ctx.getWorkflowDataProxy?.(0)?.$runIndex;
		return typeof runIndex === 'number' ? runIndex : undefined;
	} catch {
		return undefined;
	}
}

/** The money rule's run over the batch's money-moving items, or undefined when there are none. */
function beginMoney(
	ctx: IExecuteFunctions,
	batch: Batch,
	run: RunState,
	runIndex: number | undefined,
): MoneyRun | undefined {
	const { moneyItems } = batch;
	if (moneyItems.length === 0) return undefined;
	// The account the credentials reach: the money rule's memories and caches are keyed by it.
	const account = accountOfRun(ctx, run);
	account.catch(() => undefined);
	const lookups = lookupsFor(
		async (read) => await apiRequest.call(ctx, read, undefined, run),
		account,
		ctx.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? '',
	);
	return MoneyRun.begin(ctx, moneyItems, {
		runIndex,
		account,
		findSent: async (place, ref, windows) => await lookups.find(place, ref, windows),
		recount: async (place, ref) => await lookups.recount(place, ref),
		judge: async (place, records) => {
			const judged = await lookups.judge(place, records, true);
			return 'problem' in judged ? records : judged;
		},
	});
}

/** How a batch is sent: the run's settings, and whether it is still being checked meanwhile. */
export interface Sending {
	settings: RunSettings;
	continueOnFail: boolean;
	checked: CheckedSoFar;
	/** Items are sent as soon as they are checked (check.ts sendsWhileChecking). */
	streaming: boolean;
}

/** What sending left: the first failed item (a stop without Continue On Fail) and the counts. */
export interface Sent {
	firstFailure?: number;
	sentCounts: SentCounts;
}

/**
 * Sends the batch's requests through a pool of Max Parallel Requests whose width adapts to the
 * service's rate limit; each item waits until it is checked, a money-moving one until the money
 * rule began over every item (money/). Without Continue On Fail the first failure stops the run:
 * no new item starts and requests still waiting are not sent. Results go into `batch.results`.
 */
export async function sendItems(
	ctx: IExecuteFunctions,
	operation: OperationModule,
	batch: Batch,
	{ settings, continueOnFail, checked, streaming }: Sending,
): Promise<Sent> {
	const run = beginRun(settings);
	const runIndex = runIndexOf(ctx);
	const sentCounts: SentCounts = { sent: [], alreadyDone: 0 };
	const { slots, results } = batch;
	// The money run starts once every item is checked (it needs them all): at once, or when
	// sending while checking, after the checking below; money-moving items wait for it.
	let moneyStarted: (money: MoneyRun | undefined) => void = () => {};
	let moneyRefused: (error: unknown) => void = () => {};
	const moneyReady = new Promise<MoneyRun | undefined>((resolve, reject) => {
		moneyStarted = resolve;
		moneyRefused = reject;
	});
	moneyReady.catch(() => {});
	if (!streaming) moneyStarted(beginMoney(ctx, batch, run, runIndex));

	let firstFailure: number | undefined;
	const sending = runPool(
		slots.length,
		settings.concurrency,
		async (i) => {
			await checked.reached(i);
			const slot = slots[i];
			if (!slot) return;
			slots[i] = {};
			try {
				const money = slot.money && (await moneyReady);
				const work = slot.work ?? (await operation.prepare.call(batch.reader, i));
				const item = slot.money && { ...slot.money, request: work.request };
				results[i] = await perform(ctx, run, work, money, item, sentCounts);
			} catch (error) {
				results[i] = forItem(ctx, error, i, 'send');
				if (!continueOnFail && (firstFailure === undefined || i < firstFailure)) {
					firstFailure = i;
					stopRun(run);
				}
			}
		},
		() => firstFailure !== undefined && !continueOnFail,
	);
	let moneyError: unknown;
	if (streaming) {
		await checkItems(ctx, operation, batch, checked, SEND_WHILE_CHECKING_YIELD_MS);
		try {
			moneyStarted(beginMoney(ctx, batch, run, runIndex));
		} catch (error) {
			moneyError = error;
			moneyRefused(error);
		}
	}
	try {
		await sending;
	} finally {
		await (await moneyReady.catch(() => undefined))?.finish();
	}
	if (moneyError !== undefined) throw moneyError;
	return { firstFailure, sentCounts };
}
