import type { IDataObject } from 'n8n-workflow';

import type { UrlMatcher } from './urls';
import { urlMatcher } from './urls';

/*
 * Which notification records start the workflow: pure, no n8n. FacilitaPay's notification log
 * (`GET /notifications`) is the proof of an event; a record is one event, its id the identity.
 */

/** A notification record as the log lists it (the fields this trigger relies on). */
export interface LogRecord {
	id: string;
	url: string;
	notification: IDataObject;
	inserted_at?: unknown;
	sent_at?: unknown;
	failed_at?: unknown;
}

/** What the trigger keeps between runs (in the node's workflow static data). */
export interface LogState {
	/** The id of the last record settled; the next read starts after it. Null: from the start. */
	cursor: string | null;
	/** When the cursor was first set (the trigger's first registration). */
	since: string;
	/** The ids of the records that started the workflow, newest last, at most STARTED_KEPT. */
	started: string[];
}

/** How many started record ids are kept (a redelivered or late record is found among them). */
export const STARTED_KEPT = 2_000;

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A list entry as a record, or undefined when it lacks what a record has (id, url, payload). */
export function asRecord(value: unknown): LogRecord | undefined {
	if (!isObject(value)) return undefined;
	const { id, url, notification } = value;
	if (typeof id !== 'string' || id === '' || typeof url !== 'string') return undefined;
	if (!isObject(notification)) return undefined;
	return value as unknown as LogRecord;
}

/** Whether the record failed (FacilitaPay gave up or still retries): `failed_at` is set. */
export function hasFailed(record: LogRecord): boolean {
	return record.failed_at !== null && record.failed_at !== undefined && record.failed_at !== '';
}

export interface PageVerdict {
	/** Records to start, in the log's order, one execution each. */
	start: LogRecord[];
	/** Records of this workflow that FacilitaPay lists as failed: to mark successful once started. */
	markSuccessful: LogRecord[];
	/** The cursor after this page (its last record), or the same cursor for an empty page. */
	cursor: string | null;
	/** How many records of the page were sent to this workflow's URL (started now or before). */
	ours: number;
	/**
	 * The records FacilitaPay lists as sent to a URL that is not this workflow's, after the page's
	 * last record of this workflow (all of them when it has none).
	 */
	foreign: LogRecord[];
}

function matcherOf(ours: readonly string[] | UrlMatcher): UrlMatcher {
	return typeof ours === 'function' ? ours : urlMatcher(ours);
}

/**
 * Settles one page of the log read after the cursor: the records sent to one of `ours` (this
 * workflow's production URLs, the current one and earlier ones) that did not start yet start;
 * those and the ones already started that FacilitaPay lists as failed are marked successful.
 * `wanted` says whether the event type is chosen (Events); an unchosen record is settled too.
 */
export function settlePage(
	page: unknown[],
	state: Pick<LogState, 'cursor' | 'started'>,
	ours: readonly string[] | UrlMatcher,
	wanted: (type: string) => boolean,
): PageVerdict {
	const isOurs = matcherOf(ours);
	const started = new Set(state.started);
	const start: LogRecord[] = [];
	const foreign: LogRecord[] = [];
	const markSuccessful: LogRecord[] = [];
	let oursListed = 0;
	let cursor = state.cursor;
	for (const entry of page) {
		const id = isObject(entry) && typeof entry.id === 'string' ? entry.id : undefined;
		if (id) cursor = id;
		const record = asRecord(entry);
		if (!record) continue;
		if (!isOurs(record.url)) {
			foreign.push(record);
			continue;
		}
		oursListed += 1;
		foreign.length = 0;
		if (!started.has(record.id) && wanted(String(record.notification.type ?? ''))) {
			start.push(record);
			started.add(record.id);
		}
		if (hasFailed(record)) markSuccessful.push(record);
	}
	return { start, markSuccessful, cursor, ours: oursListed, foreign };
}

/**
 * The records of a recent window read newest first (the backward look) that the log lists behind
 * the cursor (after it in this newest-first page: those before it are the next reads' own), are
 * ours, were written since the trigger's first registration, and did not start. Pure.
 */
export function missedBehind(
	page: unknown[],
	state: Pick<LogState, 'cursor' | 'since' | 'started'>,
	ours: readonly string[] | UrlMatcher,
	wanted: (type: string) => boolean,
): LogRecord[] {
	const isOurs = matcherOf(ours);
	const started = new Set(state.started);
	const since = Date.parse(state.since);
	const missed: LogRecord[] = [];
	const at = page.findIndex((entry) => isObject(entry) && entry.id === state.cursor);
	if (state.cursor === null || at === -1) return missed;
	for (const entry of page.slice(at + 1)) {
		const record = asRecord(entry);
		if (!record || !isOurs(record.url) || started.has(record.id)) continue;
		const inserted = Date.parse(String(record.inserted_at ?? ''));
		if (!Number.isFinite(inserted) || !Number.isFinite(since) || inserted < since) continue;
		if (!wanted(String(record.notification.type ?? ''))) continue;
		missed.push(record);
	}
	return missed.reverse();
}

/** The started ids with `ids` added, the oldest dropped beyond STARTED_KEPT. */
export function withStarted(started: readonly string[], ids: readonly string[]): string[] {
	const next = [...started, ...ids];
	return next.length > STARTED_KEPT ? next.slice(next.length - STARTED_KEPT) : next;
}

/** The failed records (read with `failed=true`) of this workflow that already started. */
export function startedButFailed(
	page: unknown[],
	state: Pick<LogState, 'started'>,
	ours: readonly string[] | UrlMatcher,
): LogRecord[] {
	const isOurs = matcherOf(ours);
	const started = new Set(state.started);
	return page
		.map(asRecord)
		.filter(
			(record): record is LogRecord =>
				record !== undefined && isOurs(record.url) && started.has(record.id) && hasFailed(record),
		);
}

/** The log state kept in static data, or undefined when the trigger never set its cursor. */
export function readLogState(staticData: IDataObject): LogState | undefined {
	const log = staticData.log;
	if (!isObject(log)) return undefined;
	const cursor = typeof log.cursor === 'string' && log.cursor !== '' ? log.cursor : null;
	const since = typeof log.since === 'string' ? log.since : '';
	const started = Array.isArray(log.started)
		? log.started.filter((id): id is string => typeof id === 'string')
		: [];
	return { cursor, since, started };
}

/** Writes the log state into static data (n8n saves it with the next execution it starts). */
export function writeLogState(staticData: IDataObject, state: LogState): void {
	staticData.log = { cursor: state.cursor, since: state.since, started: [...state.started] };
}
