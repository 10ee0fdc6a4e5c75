import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ApiRequest, FacilitaPayError, RunState } from '../../transport';
import {
	accountOfRun,
	apiDownload,
	apiRequest,
	apiRequestAllItems,
	errorFromFacts,
	factsOf,
	setFacts,
} from '../../transport';
import type { MoneyItem } from '../../money';
import { MoneyRun, recordIdOf } from '../../money';
import { maskCardData, redactCardError } from '../../security/cardData';
import type { ItemWork } from '../node.type';

/**
 * The error as this package's error with facts, for the item it belongs to. An error from elsewhere
 * (n8n reading a parameter, an expression) happened while checking (`check`: nothing was sent) or
 * while sending (`send`).
 */
export function forItem(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	phase: 'check' | 'send',
): FacilitaPayError {
	const facts = factsOf(error);
	if (facts) {
		const own = error as FacilitaPayError;
		if (facts.itemIndex === undefined) setFacts(own, { ...facts, itemIndex });
		return own;
	}
	const { message, description } = (error ?? {}) as { message?: string; description?: string };
	const head = String(message ?? error);
	return errorFromFacts(
		ctx.getNode(),
		phase === 'check'
			? { itemIndex, outcome: 'notSent', invalidInput: true, head, fix: description ?? undefined }
			: { itemIndex, outcome: 'failed', head, fix: description ?? undefined },
	);
}

/** What a money-moving run did, for the hint above its output. */
export interface SentCounts {
	sent: ApiRequest[];
	alreadyDone: number;
}

/** Sends one item's work and turns the answer into its output items. */
export async function perform(
	ctx: IExecuteFunctions,
	run: RunState,
	work: ItemWork,
	money: MoneyRun | undefined,
	item: MoneyItem | undefined,
	sentCounts: SentCounts,
): Promise<INodeExecutionData[]> {
	const index = work.request.itemIndex ?? item?.itemIndex ?? 0;
	/** The item's error, its card data hidden, in this package's shape. */
	const failure = (error: unknown) =>
		forItem(
			ctx,
			work.cardSecrets ? redactCardError(ctx, error, work.cardSecrets) : error,
			index,
			'send',
		);
	let answer: unknown;
	let replayed = false;
	try {
		// Rules that depend on the moment of sending (a PIX expiry at least a minute ahead).
		work.beforeSend?.call(ctx);
	} catch (error) {
		throw failure(error);
	}
	// The request as it leaves: the payment's identity in its meta.
	const request = money && item ? money.withIdentity(item) : work.request;
	if (money && item) {
		try {
			const decision = await money.before(item);
			if (decision.kind === 'alreadyDone' || decision.kind === 'notSent') {
				sentCounts.alreadyDone++;
				// FacilitaPay's record of a card payment is an answer like any other: card data masked.
				const json = work.cardSecrets
					? maskCardData(decision.json, work.cardSecrets)
					: decision.json;
				return [{ json }];
			}
			if (decision.kind === 'replay') {
				answer = decision.answer;
				replayed = true;
			}
		} catch (error) {
			throw failure(error);
		}
	}
	if (!replayed) {
		try {
			if (work.send === 'allPages')
				answer = await apiRequestAllItems.call(ctx, request, work.page, undefined, run);
			else if (work.send === 'reads' && work.perform)
				answer = await work.perform.call(
					ctx,
					async (read) => await apiRequest.call(ctx, read, undefined, run),
					accountOfRun(ctx, run),
				);
			else if (work.send === 'download')
				answer = await apiDownload.call(ctx, request, undefined, run);
			else answer = await apiRequest.call(ctx, request, undefined, run);
		} catch (error) {
			if (money && item) money.failed(item, error);
			throw failure(error);
		}
		if (money && item) {
			money.sent(item, answer);
			sentCounts.sent.push(item.request);
			try {
				await money.confirm(item, answer);
			} catch (error) {
				throw failure(error);
			}
		}
	}
	try {
		return await work.output.call(ctx, answer);
	} catch (error) {
		const own = failure(error);
		if (work.request.retry !== 'sendOnce') throw own;
		// Processed at FacilitaPay: the item is done whatever went wrong after.
		const facts = factsOf(own)!;
		setFacts(own, {
			...facts,
			outcome: 'done',
			head: `its output could not be built: ${facts.head}`,
			recordId: recordIdOf(answer),
			movesMoney: true,
			invalidInput: false,
		});
		throw own;
	}
}
