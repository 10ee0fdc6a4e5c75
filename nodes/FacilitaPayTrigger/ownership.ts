import type { IDataObject } from 'n8n-workflow';

import type { FacilitaPayContext } from '../FacilitaPay/transport';
import { apiRequest } from '../FacilitaPay/transport';
import { verifyRetryOptions } from './verification';

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
			{ ...verifyRetryOptions, maxAttempts: 1 },
		);
		return ownershipFrom(records, ours);
	} catch (error) {
		return {
			kind: 'unknown',
			reason: `the notification records could not be read: ${(error as Error).message}`,
		};
	}
}
