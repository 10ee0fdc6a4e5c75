import type { IDataObject } from 'n8n-workflow';

import { type Comparison, parseServiceTime } from './records';

/*
 * The verdict over the records a lookup read: each record is judged against the request (a
 * candidate, sure or not, or ruled out), and the candidates decide found / notFound / cannotTell.
 */

/** What a lookup found: the record, nothing (send it), or why it cannot tell (do not send). */
export type FindSentResult = { found: IDataObject } | { notFound: true } | { cannotTell: string };

/** How far FacilitaPay's clock may be behind n8n's. */
export const CLOCK_SKEW_MS = 2 * 60_000;
/** How far a time written without a zone may be from UTC (zones run from UTC-12 to UTC+14). */
const UNZONED_SPREAD_MS = 14 * 3_600_000;
/** How many records a `cannotTell` names. */
const NAMED_RECORDS = 3;

/** A record that may be the one looked for: `unsure` is empty when it surely is. */
export interface Candidate {
	record: IDataObject;
	/** What `taken` holds for it (the first is its identity); empty when it has no ID. */
	ids: string[];
	time?: number;
	position: number;
	/** It shows the kind looked for (a payout's `subject_is_receiver`, a boleto's `bar_code`…). */
	marked: boolean;
	unsure: string[];
}

type Placement = 'in' | 'out' | { unsure: string };

/** Where a record's creation time falls against the window that starts at `start`. */
function placeInWindow(
	record: IDataObject,
	start: number,
): { placement: Placement; time?: number } {
	const raw = record.inserted_at ?? record.created_at;
	const time = parseServiceTime(raw);
	if (!time) {
		return {
			placement: {
				unsure:
					raw === undefined || raw === null
						? 'it shows no creation time'
						: 'its creation time could not be read',
			},
		};
	}
	if (time.ms >= start) return { placement: 'in', time: time.ms };
	if (!time.zoned && time.ms + UNZONED_SPREAD_MS >= start) {
		return {
			placement: {
				unsure: `its creation time (${String(raw)}) has no time zone, so it may be after the first attempt`,
			},
			time: time.ms,
		};
	}
	return { placement: 'out', time: time.ms };
}

/**
 * A record against the request's fields: undefined when a field it shows differs or it is older
 * than the window; otherwise a candidate, sure or not.
 */
export function judge(
	record: IDataObject,
	position: number,
	checks: Array<[label: string, comparison: Comparison]>,
	start: number,
	ids: string[],
	marked: boolean,
): Candidate | undefined {
	const unsure: string[] = [];
	for (const [label, comparison] of checks) {
		if (comparison === 'differs') return undefined;
		if (comparison === 'unreadable') unsure.push(`its ${label} could not be read`);
	}
	const { placement, time } = placeInWindow(record, start);
	if (placement === 'out') return undefined;
	if (placement !== 'in') unsure.push(placement.unsure);
	if (ids.length === 0) unsure.push('it has no ID');
	return { record, ids, time, position, marked, unsure };
}

/** Records that show the kind first, then the oldest, then the first listed. */
function byPreference(first: Candidate, second: Candidate): number {
	if (first.marked !== second.marked) return first.marked ? -1 : 1;
	const firstTime = first.time ?? Number.POSITIVE_INFINITY;
	const secondTime = second.time ?? Number.POSITIVE_INFINITY;
	if (firstTime !== secondTime) return firstTime - secondTime;
	return first.position - second.position;
}

function describeCandidate(candidate: Candidate): string {
	const id = candidate.ids[0] ? `ID ${candidate.ids[0]}` : 'a record without an ID';
	return `${id} (${candidate.unsure.join('; ')})`;
}

/**
 * The answer from the candidates, claiming the one found in `taken`. Runs without awaiting, after
 * every read, so concurrent lookups of one run never claim the same record.
 */
export function decide(
	candidates: Candidate[],
	taken: Set<string>,
	what: string,
	check: string,
	none: FindSentResult,
): FindSentResult {
	const free = candidates.filter((candidate) => !candidate.ids.some((id) => taken.has(id)));
	const sure = free.filter((candidate) => candidate.unsure.length === 0).sort(byPreference);
	if (sure.length > 0) {
		for (const id of sure[0].ids) taken.add(id);
		return { found: sure[0].record };
	}
	const maybe = free.sort(byPreference);
	if (maybe.length > 0) {
		const named = maybe.slice(0, NAMED_RECORDS).map(describeCandidate).join(', ');
		const more = maybe.length > NAMED_RECORDS ? ` and ${maybe.length - NAMED_RECORDS} more` : '';
		const count = maybe.length === 1 ? '1 record' : `${maybe.length} records`;
		return {
			cannotTell: `FacilitaPay shows ${count} that may be ${what}, but cannot be compared in full: ${named}${more}. ${check}`,
		};
	}
	return none;
}
