import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { clock } from '../../clock';
import type { FacilitaPayContext, RunState } from '../../transport';
import { apiRequest, beginRun, factsOf } from '../../transport';
import type { ChargeKind, LogRecord, Wake, WaitedItem, WaitState } from '../../waiting';
import {
	catchUp,
	decide,
	engineProblem,
	executionStack,
	fallbackEntry,
	makeGate,
	namesCheckout,
	newWaitSecret,
	ofWait,
	ownEntry,
	register,
	resumedEntry,
	takeOut,
	waitTillOf,
} from '../../waiting';
import { decidedJson, route } from './waitForPayment.items';

/**
 * The mechanics of Wait for Payment (docs/waiting.md): reading and deciding the waited charges
 * (settle), waiting in n8n (arrangeWait: the gate, the fallback, n8n's time, the waiter), and the
 * three ways its code runs again: the RESUMED entry (after a resume call or n8n's own time), the
 * FALLBACK (n8n's time: it puts the RESUMED entry in front and runs nothing else).
 */

/** A time resume this near the limit is the last one (n8n's timer fires at or after its time). */
const FINAL_WITHIN_MS = 2_000;

interface ChargeRead {
	transaction?: IDataObject;
	/** FacilitaPay answered 404: a checkout's ID, or a charge it does not show yet. */
	notFound?: boolean;
	error?: string;
}

function statusOf(error: unknown): number | undefined {
	const facts = factsOf(error) as { status?: number } | undefined;
	if (typeof facts?.status === 'number') return facts.status;
	const code = Number((error as { httpCode?: string })?.httpCode);
	return Number.isFinite(code) ? code : undefined;
}

/** One read of a waited ID; never throws (a failed read decides nothing). */
export async function readCharge(
	ctx: FacilitaPayContext,
	id: string,
	run: RunState,
): Promise<ChargeRead> {
	try {
		const transaction = await apiRequest.call(
			ctx,
			{ method: 'GET', path: `/transactions/${encodeURIComponent(id)}`, retry: 'safe' },
			undefined,
			run,
		);
		return { transaction: (transaction ?? {}) as IDataObject };
	} catch (error) {
		if (statusOf(error) === 404) return { notFound: true };
		return { error: (error as Error).message };
	}
}

function recordsOf(records: readonly LogRecord[], id: string): LogRecord[] {
	return records.filter(
		(r) => r.notification.transaction_id === id || r.notification.checkout_id === id,
	);
}

/**
 * One open item decided again, with FacilitaPay's records that name it: its transaction read now
 * (a checkout's: the transaction its approving record names). Nothing is decided on a failed
 * read; a 404 leaves it open ("unknown": a checkout or a charge not shown yet) for the next look.
 */
async function settleItem(
	ctx: FacilitaPayContext,
	item: WaitedItem,
	records: readonly LogRecord[],
	run: RunState,
	read: boolean,
): Promise<WaitedItem> {
	const named = recordsOf(records, item.id);
	if (!read) return item;
	const kind: ChargeKind = named.some((r) => namesCheckout(r, item.id)) ? 'checkout' : item.kind;
	if (kind === 'checkout') {
		const approving = named.find(
			(r) => r.notification.checkout_id === item.id && r.notification.type === 'payment_approved',
		);
		const paidId = approving?.notification.transaction_id;
		if (typeof paidId !== 'string' || paidId === '') return { ...item, kind, error: undefined };
		const paid = await readCharge(ctx, paidId, run);
		if (!paid.transaction) return { ...item, kind, error: paid.error ?? 'not shown yet' };
		const decision = decide(paid.transaction, named, item.id, 'checkout');
		const checkout: WaitedItem = { ...item, kind, error: undefined };
		return decision
			? { ...checkout, decided: decidedJson(checkout, paid.transaction, decision) }
			: checkout;
	}
	const current = await readCharge(ctx, item.id, run);
	if (current.error !== undefined) return { ...item, error: current.error };
	const seen: ChargeKind = current.transaction ? 'transaction' : kind;
	const decision = decide(current.transaction, named, item.id, seen);
	const next: WaitedItem = {
		...item,
		kind: seen,
		error: undefined,
		...(current.transaction && { transaction: current.transaction }),
	};
	if (decision) next.decided = decidedJson(next, current.transaction, decision);
	return next;
}

/** The open items decided again (`onlyWithRecords`: only those a record names, e.g. a renewal). */
export async function settle(
	ctx: FacilitaPayContext,
	items: readonly WaitedItem[],
	records: readonly LogRecord[],
	onlyWithRecords = false,
): Promise<WaitedItem[]> {
	const run = beginRun({ concurrency: 5, timeoutMs: 30_000 });
	return await Promise.all(
		items.map(async (item) => {
			if (item.decided) return item;
			const read = !onlyWithRecords || recordsOf(records, item.id).length > 0;
			return await settleItem(ctx, item, records, run, read);
		}),
	);
}

function refuse(ctx: IExecuteFunctions, problem: string): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`Wait for Payment cannot wait on this n8n: ${problem}`,
		{
			description:
				'Nothing was decided and the execution does not wait. This n8n version runs waiting executions in a way Wait for Payment was not built for; see the package README for the n8n versions it is tested on. Until then, connect Transaction > Get after a Wait node instead.',
			itemIndex: 0,
		},
	);
}

/** Refuses to wait (before anything is read) when this n8n is not what the wait is built on. */
export function checkEngine(ctx: IExecuteFunctions): void {
	const problem = engineProblem(ctx);
	if (problem !== undefined) throw refuse(ctx, problem);
}

function mergeRecords(a: readonly LogRecord[], b: readonly LogRecord[]): LogRecord[] {
	const byId = new Map<string, LogRecord>();
	for (const record of [...a, ...b]) byId.set(record.id, record);
	return [...byId.values()];
}

/**
 * The execution waits in n8n (again): a new generation with its own secret, n8n's time a lease
 * from now (or the limit), the gate and the fallback on the stack, the waiter told.
 */
export async function arrangeWait(
	ctx: IExecuteFunctions,
	previous: WaitState,
): Promise<INodeExecutionData[][]> {
	const own = ownEntry(ctx);
	const stack = executionStack(ctx);
	if (!own || !stack) throw refuse(ctx, 'its stack entry or stack is not where it was');
	const now = clock.now().getTime();
	const state: WaitState = {
		...previous,
		generation: previous.generation + 1,
		secret: newWaitSecret(),
		waitTill: waitTillOf(previous.limitAt, now),
		records: previous.records.filter((r) =>
			previous.items.some((item) => !item.decided && recordsOf([r], item.id).length > 0),
		),
	};
	takeOut(stack, (entry) => ofWait(entry, state.key));
	stack.unshift(fallbackEntry(state));
	makeGate(own, state);
	await ctx.putExecutionToWait(new Date(state.waitTill));
	const open = state.items.filter((item) => !item.decided);
	await register(ctx, {
		account: state.account,
		executionId: state.executionId,
		generation: state.generation,
		resumeUrl: state.resumeUrl,
		secret: state.secret,
		ids: new Map(open.map((item) => [item.id, item.kind])),
		limitAt: state.limitAt,
		waitTill: state.waitTill,
		cursor: state.cursor,
	});
	return [[], [], []];
}

/** What has run of a wait in this process (a leftover entry of it then runs nothing). */
const ended = new Set<string>();
const ENDED_MEMORY = 10_000;

function markEnded(state: WaitState): void {
	ended.add(`${state.executionId}|${state.key}|${state.generation}`);
	if (ended.size > ENDED_MEMORY) ended.delete(ended.values().next().value as string);
}

/**
 * The FALLBACK runs (n8n resumed the execution at its time; the gate in front of it was disabled):
 * it puts the RESUMED entry in front, to run next, and runs nothing itself (null: n8n records no
 * run and routes nothing).
 */
export function fallback(ctx: IExecuteFunctions, state: WaitState): null {
	if (ended.has(`${state.executionId}|${state.key}|${state.generation}`)) return null;
	const stack = executionStack(ctx);
	if (!stack) throw refuse(ctx, 'the stack is not where it was when the wait began');
	stack.unshift(resumedEntry(state, { kind: 'time', records: [] }));
	return null;
}

/**
 * The RESUMED entry runs: the leftovers of this wait are taken off the stack, the open charges are
 * read again with the records the wake brought (n8n's time: the log since the wait's cursor), and
 * then every item goes out (all decided, or the limit) or the execution waits again.
 */
export async function resumed(
	ctx: IExecuteFunctions,
	state: WaitState,
	wake: Wake,
): Promise<INodeExecutionData[][]> {
	const stack = executionStack(ctx);
	if (!stack) throw refuse(ctx, 'the stack is not where it was when the wait began');
	takeOut(stack, (entry) => ofWait(entry, state.key));
	markEnded(state);
	let records = mergeRecords(state.records, wake.records);
	let cursor = wake.cursor ?? state.cursor;
	let readError: string | undefined;
	if (wake.kind === 'time') {
		try {
			const after = await catchUp(ctx, state.account, state.cursor);
			records = mergeRecords(records, after.records);
			cursor = after.cursor;
		} catch (error) {
			readError = `the notification log could not be read: ${(error as Error).message}`;
		}
	}
	const now = clock.now().getTime();
	const final = now >= state.limitAt - FINAL_WITHIN_MS;
	let items = await settle(ctx, state.items, records, wake.kind === 'renew' && !final);
	if (final && readError !== undefined)
		items = items.map((item) =>
			item.decided ? item : { ...item, error: item.error ?? readError },
		);
	if (final || items.every((item) => item.decided)) return route(items);
	return await arrangeWait(ctx, { ...state, items, records, cursor });
}
