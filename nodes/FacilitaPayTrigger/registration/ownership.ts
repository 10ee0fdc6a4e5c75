import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import type { FacilitaPayContext } from '../../FacilitaPay/transport';
import { apiRequest } from '../../FacilitaPay/transport';
import { readServiceTime } from '../../FacilitaPay/validation/dates';
import { processState, urlMatcher } from '../log';
import { readRetryOptions, READ_TIMEOUT_MS } from './account';

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

/**
 * Whether FacilitaPay's time `a` is after `b`, read as times (`…30.989491` is after `…30Z`); as
 * text when either cannot be read.
 */
function isLater(a: unknown, b: unknown): boolean {
	const [timeA, timeB] = [readServiceTime(a), readServiceTime(b)];
	if (timeA !== undefined && timeB !== undefined) return timeA > timeB;
	return String(a ?? '') > String(b ?? '');
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
		if (!newest || isLater(record.inserted_at, newest.inserted_at)) newest = record;
	}
	if (!newest) return { kind: 'unknown', reason: 'the notification records name no URL' };
	if (urlMatcher(ours)(newest.url)) return { kind: 'ours' };
	return {
		kind: 'foreign',
		url: newest.url as string,
		at: typeof newest.inserted_at === 'string' ? newest.inserted_at : undefined,
	};
}

/** What the read of the newest records found: who receives, and the newest record's id. */
export type OwnershipRead = Ownership & {
	/** The newest record's id; null when the log is empty; undefined when it could not be read. */
	newestId?: string | null;
	/** The newest record's inserted_at (FacilitaPay's clock), when it has one. */
	newestAt?: string;
};

/** Reads the newest notification records and tells who receives the account's notifications. */
export async function checkOwnership(
	ctx: FacilitaPayContext,
	ours: string[],
): Promise<OwnershipRead> {
	try {
		const records = await apiRequest.call(
			ctx,
			{
				method: 'GET',
				path: '/notifications',
				qs: { order_by: 'desc', per_page: '10' },
				retry: 'safe',
			},
			{ ...readRetryOptions(Date.now() + READ_TIMEOUT_MS), maxAttempts: 1 },
		);
		const first = Array.isArray(records) ? (records[0] as IDataObject | undefined) : undefined;
		const newestId = typeof first?.id === 'string' && first.id !== '' ? first.id : null;
		const newestAt = typeof first?.inserted_at === 'string' ? first.inserted_at : undefined;
		return { ...ownershipFrom(records, ours), newestId, newestAt };
	} catch (error) {
		return {
			kind: 'unknown',
			reason: `the notification records could not be read: ${(error as Error).message}`,
		};
	}
}

/*
 * Production registrations this n8n process made or found in place live in the trigger's process
 * memory (log/state.ts: `production`, per account, and `productionByService`): n8n starts a test
 * listening from empty static data and tells the node the workflow is not active, so this is how a
 * test listening learns that an active workflow of this process receives the account's
 * notifications; and before turning off an account's notifications every active trigger on the
 * same service counts (two credentials of one account have different tokens).
 */
const { production, productionByService } = processState;

function add(map: Map<string, Map<string, string>>, at: string, workflowId: string, url: string) {
	const byWorkflow = map.get(at) ?? new Map<string, string>();
	byWorkflow.set(workflowId, url);
	map.set(at, byWorkflow);
}

export function rememberProduction(
	account: string,
	workflowId: string,
	url: string,
	service = '',
): void {
	add(production, account, workflowId, url);
	add(productionByService, service, workflowId, url);
}

export function forgetProduction(account: string, workflowId: string, service = ''): void {
	production.get(account)?.delete(workflowId);
	productionByService.get(service)?.delete(workflowId);
}

/**
 * Another active workflow of this process with a FacilitaPay Trigger on the same service (its
 * workflow ID), which would lose its notifications if this one turned them off; undefined if none.
 */
export function otherActiveOn(service: string, workflowId: string): string | undefined {
	for (const other of productionByService.get(service)?.keys() ?? []) {
		if (other !== workflowId) return other;
	}
	return undefined;
}

/**
 * Before a test listening registers its URL: where the account's notifications go now when a test
 * would take them from there (an active workflow of this process, a URL the newest notification
 * went to, or somewhere unknown because the records cannot be read), or undefined when nothing
 * receives them that the trigger can see. `ownership` is checked against the test URL alone.
 */
export function testWouldTakeUrl(
	ctx: IHookFunctions,
	ownership: Ownership,
	account: string,
): string | undefined {
	const workflowId = String((ctx.getWorkflow() as { id?: string } | undefined)?.id ?? '');
	const active = production.get(account);
	if (active?.has(workflowId)) return 'this workflow, which is active';
	if (active && active.size > 0) {
		return `the active workflow ${[...active.keys()][0]}, which uses the same FacilitaPay account`;
	}
	if (ownership.kind === 'foreign') {
		return `${maskUrl(ownership.url)}, where the newest notification went (an active workflow or another system)`;
	}
	if (ownership.kind === 'unknown' && !/no notification yet/.test(ownership.reason)) {
		return `wherever they go now (${ownership.reason})`;
	}
	return undefined;
}
