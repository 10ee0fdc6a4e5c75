import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import type { FacilitaPayContext } from '../FacilitaPay/transport';
import { apiRequest } from '../FacilitaPay/transport';
import { readRetryOptions, READS_WITHIN_MS } from './reads';

/*
 * FacilitaPay keeps one webhook URL per account: whoever enabled webhooks last receives every
 * notification. The notification records (GET /notifications) say where each one was sent, so the
 * newest record tells whether the URL is still this trigger's.
 */

export type Ownership =
	| { kind: 'ours' }
	/** No notification was sent yet: nothing tells. */
	| { kind: 'unknown'; reason: string }
	/** The newest notification went to a URL this trigger never registered. */
	| { kind: 'foreign'; url: string; at?: string };

/** The origin of another system's URL, for logs: its path may carry a token of its own. */
export function maskUrl(url: string): string {
	try {
		return `${new URL(url).origin}/…`;
	} catch {
		return 'an unreadable URL';
	}
}

/** Who received the newest notification, given the URLs this trigger registered. Pure. */
export function ownershipFrom(records: unknown, ours: string[]): Ownership {
	if (!Array.isArray(records) || records.length === 0) {
		return {
			kind: 'unknown',
			reason: 'FacilitaPay has sent no notification yet',
		};
	}
	let newest: IDataObject | undefined;
	for (const record of records as IDataObject[]) {
		if (!record || typeof record !== 'object' || typeof record.url !== 'string') continue;
		if (!newest || String(record.inserted_at ?? '') > String(newest.inserted_at ?? ''))
			newest = record;
	}
	if (!newest) return { kind: 'unknown', reason: 'the notification records name no URL' };
	if (ours.includes(newest.url as string)) return { kind: 'ours' };
	return {
		kind: 'foreign',
		url: newest.url as string,
		at: typeof newest.inserted_at === 'string' ? newest.inserted_at : undefined,
	};
}

/** Reads the newest notification records and tells who receives the account's notifications. */
export async function checkOwnership(ctx: FacilitaPayContext, ours: string[]): Promise<Ownership> {
	try {
		const records = await apiRequest.call(
			ctx,
			{
				method: 'GET',
				path: '/notifications',
				qs: { order_by: 'desc', per_page: '10' },
				retry: 'safe',
			},
			{ ...readRetryOptions(Date.now() + READS_WITHIN_MS), maxAttempts: 1 },
		);
		return ownershipFrom(records, ours);
	} catch (error) {
		return {
			kind: 'unknown',
			reason: `the notification records could not be read: ${(error as Error).message}`,
		};
	}
}

/**
 * Before a test listening registers its URL: where the account's notifications go now when a test
 * would take them from there (this workflow while active, another workflow or system), or
 * undefined when nothing receives them yet. n8n starts a test listening from empty static data, so
 * the node cannot know its own production URL then: whether the workflow is active and the newest
 * notification record (`ownership`, checked against the test URL alone) are what tell.
 */
export function testWouldTakeUrl(ctx: IHookFunctions, ownership: Ownership): string | undefined {
	const workflow = ctx.getWorkflow() as { active?: boolean } | undefined;
	if (workflow?.active === true) return 'this workflow, which is active';
	if (ownership.kind === 'foreign') {
		return `${maskUrl(ownership.url)}, where the newest notification went (an active workflow or another system)`;
	}
	if (ownership.kind === 'unknown' && !/no notification yet/.test(ownership.reason)) {
		return `wherever they go now (${ownership.reason})`;
	}
	return undefined;
}
