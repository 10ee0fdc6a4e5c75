import type { IDataObject, IExecuteData, INode, INodeExecutionData } from 'n8n-workflow';

import type { ChargeKind, LogRecord } from './decide';
import { asLogRecord } from './decide';
import type { StackEntry } from './engine';

/**
 * What a waiting Wait for Payment keeps in n8n's database, and the stack entries it is kept in
 * (pure: plain objects; engine.ts names the n8n internals they rely on). docs/waiting.md draws it.
 *
 * - the GATE: the node's own entry, which n8n puts back at the front of the stack when the node
 *   waits. Its input is empty, so it runs nothing and forwards nothing, whatever n8n does with it
 *   (n8n disables it at a time resume). A resume call's webhook() turns it into the RESUMED entry.
 * - the FALLBACK, behind it: a copy of the node under its own name (FALLBACK_SUFFIX), so that n8n
 *   routes nothing from it and a Retry "with the currently saved workflow" refuses it. When n8n
 *   resumes the execution at its time it runs as usual and puts the RESUMED entry in front.
 * - the RESUMED entry: the node itself, with its own source and every input item in input order,
 *   so that pairedItem and `$('Node').item` after it work on every output. Its run decides.
 */

export const STATE_FIELD = 'facilitaPayWait';
export const STATE_VERSION = 2;

/** The fallback's name: the node's, plus this (what a refused Retry names). */
export const FALLBACK_SUFFIX = ' · FacilitaPay wait (retry with the original workflow)';

/** One input item of the node, as the wait keeps it. */
export interface WaitedItem {
	/** Its position in the node's input. */
	i: number;
	/** The waited ID. */
	id: string;
	kind: ChargeKind;
	/** What goes out for it once FacilitaPay decided it (Paid or Not Paid); absent while open. */
	decided?: IDataObject;
	/** The transaction as FacilitaPay showed it last. */
	transaction?: IDataObject | null;
	/** Why its last read failed (it stays open: a failed read decides nothing). */
	error?: string;
	/** Its limit. */
	limitAt: number;
}

export interface WaitState {
	v: typeof STATE_VERSION;
	/** The execution's wait, one value from its first wait to its end. */
	key: string;
	/** Which wait of n8n this is (one more at every lease). */
	generation: number;
	/** This wait's secret (hex): the key of the resume calls (signature.ts). */
	secret: string;
	executionId: string;
	/** n8n's resume URL of the execution (never written outside n8n). */
	resumeUrl: string;
	account: string;
	/** Every input item, in input order. */
	items: WaitedItem[];
	/** The latest limit of its items. */
	limitAt: number;
	/** n8n's time of this wait. */
	waitTill: number;
	/** The log record the wait's records are complete up to. */
	cursor: string;
	/** Deciding records of the waited IDs read so far. */
	records: LogRecord[];
	/** The node as it was when the wait began, and its entry's source. */
	node: INode;
	source: IExecuteData['source'];
}

export type Role = 'gate' | 'fallback' | 'resumed';

/** Why the RESUMED entry runs: n8n's time (the fallback), or a signed call (records or renew). */
export interface Wake {
	kind: 'time' | 'records' | 'renew';
	records: LogRecord[];
	cursor?: string;
}

export interface KeptWait {
	role: Role;
	state: WaitState;
	wake?: Wake;
}

function isItem(value: unknown): value is WaitedItem {
	const item = value as WaitedItem | undefined;
	return (
		!!item &&
		typeof item === 'object' &&
		Number.isInteger(item.i) &&
		typeof item.id === 'string' &&
		['transaction', 'checkout', 'unknown'].includes(item.kind)
	);
}

function records(value: unknown): LogRecord[] {
	return (Array.isArray(value) ? value : [])
		.map(asLogRecord)
		.filter((r): r is LogRecord => r !== undefined);
}

/** The wait an entry keeps, or undefined (an entry of no wait, or of an older shape). */
export function readWait(entry: StackEntry | undefined): KeptWait | undefined {
	const kept = entry?.metadata?.[STATE_FIELD] as IDataObject | undefined;
	if (!kept || typeof kept !== 'object') return undefined;
	const role = kept.role as Role;
	const state = kept.state as unknown as WaitState | undefined;
	if (!['gate', 'fallback', 'resumed'].includes(role) || !state || state.v !== STATE_VERSION)
		return undefined;
	if (typeof state.executionId !== 'string' || typeof state.secret !== 'string') return undefined;
	if (!Array.isArray(state.items) || !state.items.every(isItem)) return undefined;
	if (!state.node || typeof state.node !== 'object') return undefined;
	const wake = kept.wake as unknown as Wake | undefined;
	return {
		role,
		state: { ...state, records: records(state.records) },
		...(wake &&
			['time', 'records', 'renew'].includes(wake.kind) && {
				wake: {
					kind: wake.kind,
					records: records(wake.records),
					...(typeof wake.cursor === 'string' && { cursor: wake.cursor }),
				},
			}),
	};
}

function keep(role: Role, state: WaitState, wake?: Wake): IDataObject {
	return {
		[STATE_FIELD]: { role, state, ...(wake && { wake }) } as unknown as IDataObject,
	};
}

function withoutWait(metadata: IDataObject | undefined): IDataObject {
	const rest = { ...(metadata ?? {}) };
	delete rest[STATE_FIELD];
	return rest;
}

/** The node's own entry made the gate: no input (nothing to run or forward), the state kept. */
export function makeGate(entry: StackEntry, state: WaitState): void {
	entry.data = { main: [] };
	entry.metadata = { ...withoutWait(entry.metadata), ...keep('gate', state) };
}

/** The fallback entry (behind the gate): the node under its own name, one placeholder item. */
export function fallbackEntry(state: WaitState): StackEntry {
	return {
		node: {
			...state.node,
			name: `${state.node.name}${FALLBACK_SUFFIX}`,
			disabled: false,
			alwaysOutputData: false,
			executeOnce: false,
			retryOnFail: false,
			continueOnFail: false,
			onError: 'stopWorkflow',
		},
		data: { main: [[{ json: {} }]] },
		source: null,
		metadata: keep('fallback', state),
	};
}

/** The node's input as the RESUMED entry gives it: one item per input item, in input order. */
export function inputItems(state: WaitState): INodeExecutionData[] {
	return [...state.items]
		.sort((a, b) => a.i - b.i)
		.map((item) => ({ json: { transactionId: item.id }, pairedItem: { item: item.i } }));
}

/** The RESUMED entry: the node itself, enabled, its source, every input item, why it runs. */
export function resumedEntry(state: WaitState, wake: Wake): StackEntry {
	return {
		node: { ...state.node, disabled: false },
		data: { main: [inputItems(state)] },
		source: state.source,
		metadata: keep('resumed', state, wake),
	};
}

/** A resume call turns the gate (n8n's first entry) into the RESUMED entry, in place. */
export function resumeGate(entry: StackEntry, state: WaitState, wake: Wake): INodeExecutionData[] {
	entry.node = { ...state.node, disabled: false };
	entry.source = state.source;
	entry.metadata = { ...withoutWait(entry.metadata), ...keep('resumed', state, wake) };
	return inputItems(state);
}

/** Whether an entry belongs to the execution's wait `key`. */
export function ofWait(entry: StackEntry, key: string): boolean {
	return readWait(entry)?.state.key === key;
}
