import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ChargeKind, Decision, WaitedItem } from '../../waiting';
import { PAID_STATUSES, RECORD_DECISIONS } from '../../waiting';

/**
 * What Wait for Payment puts out (pure): the item of a charge FacilitaPay decided (Paid, Not Paid)
 * and of one still open at the limit (Timed Out), on their outputs in input order.
 */

export const OUTPUT_NAMES = ['Paid', 'Not Paid', 'Timed Out'] as const;
const OUTCOME_INDEX = { paid: 0, notPaid: 1, timedOut: 2 } as const;

/** How to settle an item that reached Timed Out: what the user reads on it. */
export function howToCheck(id: string, kind: ChargeKind): string {
	return kind === 'checkout'
		? `Connect Timed Out to Transaction > Get Checkout (or Find) with ID ${id} and branch on what FacilitaPay shows; a card checkout's page may still be paid after the limit.`
		: `Connect Timed Out to Transaction > Get with ID ${id} and branch on its status (identified, exchanged or wired = paid; canceled = not paid; pending = still open).`;
}

/** The item of a charge FacilitaPay decided. */
export function decidedJson(
	item: Pick<WaitedItem, 'id' | 'kind' | 'limitAt'>,
	transaction: IDataObject | undefined,
	decision: Decision,
): IDataObject {
	return {
		outcome: decision.outcome,
		...(decision.reason !== undefined && { reason: decision.reason }),
		...(decision.detail !== undefined && { reasonDetail: decision.detail }),
		decidedBy: decision.decidedBy,
		transactionId: item.id,
		checkout: item.kind === 'checkout',
		transaction: transaction ?? null,
		record: (decision.record as IDataObject | undefined) ?? null,
		limit: new Date(item.limitAt).toISOString(),
	};
}

/**
 * The item of a charge still open at the limit. `checkedAtLimit`: FacilitaPay was read at the
 * limit and showed it open; otherwise its last read failed (the message says so and how to check).
 */
export function timedOutJson(item: WaitedItem): IDataObject {
	const checked = item.error === undefined;
	return {
		outcome: 'timedOut',
		decidedBy: 'limit',
		transactionId: item.id,
		checkout: item.kind === 'checkout',
		transaction: item.transaction ?? null,
		record: null,
		limit: new Date(item.limitAt).toISOString(),
		checkedAtLimit: checked,
		howToCheck: howToCheck(item.id, item.kind),
		...(!checked && {
			error: `FacilitaPay could not be read at the limit (${item.error}): the outcome of charge ${item.id} is unknown.`,
		}),
	};
}

/**
 * Whether FacilitaPay's own record shows the item paid: the transaction's status, or a log record
 * of a paying type naming it. The last check before anything goes out on Paid.
 */
export function paidOnRecord(json: IDataObject): boolean {
	const status = (json.transaction as IDataObject | null)?.status;
	if (typeof status === 'string' && (PAID_STATUSES as readonly string[]).includes(status))
		return true;
	const type = ((json.record as IDataObject | null)?.notification as IDataObject | undefined)?.type;
	return typeof type === 'string' && RECORD_DECISIONS[type]?.outcome === 'paid';
}

/** Every item on its output, in input order, each paired with its input item. */
export function route(items: readonly WaitedItem[]): INodeExecutionData[][] {
	const outputs: INodeExecutionData[][] = [[], [], []];
	for (const item of [...items].sort((a, b) => a.i - b.i)) {
		let json = item.decided ?? timedOutJson(item);
		if (json.outcome === 'paid' && !paidOnRecord(json)) json = timedOutJson(item);
		const index = OUTCOME_INDEX[json.outcome as keyof typeof OUTCOME_INDEX] ?? 2;
		outputs[index].push({ json, pairedItem: { item: item.i } });
	}
	return outputs;
}
