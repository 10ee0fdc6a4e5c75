import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from '../transport';
import { factsOf, SERVICE_PAGE_SIZE } from '../transport';
import type { FindSentResult } from './types';
import { isObject, messageOf, statusOf, textOf } from './records';

/** Sends one read (always `retry: 'lookup'`) and gives the answer's `data`. */
export type Read = (request: ApiRequest) => Promise<unknown>;

/**
 * The most pages read from one list (a million records); a longer list cannot be settled. A guard
 * against a list that never ends, not a budget: a retry reads each subject's list once.
 */
export const MAX_PAGES = 10_000;
/**
 * Every record of a list that pages by `last_id`, or why it could not be read to its end.
 */
export async function readAll(
	read: Read,
	path: string,
	what: string,
	after?: string,
	onPage?: () => void,
): Promise<{ records: IDataObject[] } | { problem: string }> {
	const records: IDataObject[] = [];
	const seen = new Set<string>();
	let lastId: string | undefined = after;
	for (let page = 0; page < MAX_PAGES; page++) {
		onPage?.();
		let answer: unknown;
		try {
			answer = await read({
				method: 'GET',
				path,
				...(lastId === undefined ? {} : { qs: { last_id: lastId } }),
				retry: 'lookup',
			});
		} catch (error) {
			return { problem: `${what} could not be read: ${messageOf(error)}.` };
		}
		if (!Array.isArray(answer)) return { problem: `${what} did not come as a list.` };
		if (answer.length === 0) return { records };
		let fresh = 0;
		for (const item of answer) {
			if (!isObject(item)) return { problem: `${what} holds an entry that is not a record.` };
			const id = textOf(item.id);
			if (id !== undefined && seen.has(id)) continue;
			if (id !== undefined) seen.add(id);
			records.push(item);
			fresh++;
		}
		if (fresh === 0) {
			// The same page again: the service ignores last_id and sent the whole list, unless the
			// page may be a full one of a longer list.
			if (answer.length < SERVICE_PAGE_SIZE) return { records };
			return {
				problem: `${what} did not go past its first ${answer.length} records when asked for the next page, so the rest could not be read.`,
			};
		}
		const nextId = textOf((answer[answer.length - 1] as IDataObject).id);
		if (nextId === undefined) {
			return {
				problem: `a page of ${what} ends with a record without an ID, so the next page could not be asked for.`,
			};
		}
		lastId = nextId;
	}
	return { problem: `${what} has more than ${MAX_PAGES} pages; not all were read.` };
}

/** Reads one record by its path for a status lookup; a failure is a reason. */
export async function readOne(
	read: Read,
	path: string,
	what: string,
): Promise<{ record: IDataObject } | { problem: string; status?: number }> {
	try {
		const answer = await read({ method: 'GET', path, retry: 'lookup' });
		if (!isObject(answer)) return { problem: `${what} did not come as a record.` };
		return { record: answer };
	} catch (error) {
		return {
			problem: `${what} could not be read: ${messageOf(error)}.`,
			status: factsOf(error)?.status,
		};
	}
}

/**
 * The record at `path` read for its status (lower case; "cancelled" is "canceled") and placed by
 * `place`; a failed read, or a status `place` leaves undefined, is a cannotTell ending with `check`.
 */
export async function judgeStatus(
	read: Read,
	path: string,
	what: string,
	check: string,
	place: (status: string | undefined, record: IDataObject) => FindSentResult | undefined,
): Promise<FindSentResult> {
	const answer = await readOne(read, path, what);
	if ('problem' in answer) return { cannotTell: `${answer.problem} ${check}` };
	const status = statusOf(answer.record);
	return (
		place(status, answer.record) ?? {
			cannotTell: `${what} ${
				status === undefined ? 'shows no status' : `is ${status}`
			}, which does not tell whether the request was processed. ${check}`,
		}
	);
}
