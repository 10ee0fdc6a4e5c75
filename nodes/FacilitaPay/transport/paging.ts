import type { IDataObject } from 'n8n-workflow';

import type { RetryOptions } from './retry';
import { defaultRetryOptions } from './retry';
import type { FacilitaPayContext, RunState } from './run';
import { beginRun } from './run';
import type { ApiRequest } from './send';
import { apiRequest } from './request';

/**
 * The most records the service returns in one page of a list (its people list: 100); the other
 * lists are asked for as many, and a shorter page is read as the last one where that is known.
 */
export const SERVICE_PAGE_SIZE = 100;

export interface PageOptions {
	/** Stop after this many items; undefined returns all. */
	limit?: number;
	/** The service's page size for this list, when known (people: 100). A shorter page ends the list. */
	pageSize?: number;
	/** Query parameter that carries the page size, when the endpoint accepts one. */
	pageSizeParam?: string;
	/**
	 * Whether a page shorter than `pageSize` ends the list (default true). Set it to false when the
	 * service's maximum page size is unknown and it may return fewer items than asked for: the list
	 * then ends only on an empty page, a page with nothing new, or the `limit`.
	 */
	shortPageEnds?: boolean;
}

/**
 * Follows `last_id` keyset paging: asks for the next page with the id of the last item seen, until
 * a page is empty, shorter than the known page size, or brings nothing new; or until `limit` items
 * were collected (no further page is requested once it is reached).
 */
export async function apiRequestAllItems(
	this: FacilitaPayContext,
	request: ApiRequest,
	page: PageOptions = {},
	retryOptions: RetryOptions = defaultRetryOptions,
	run: RunState = beginRun(),
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	const qs: IDataObject = { ...(request.qs ?? {}) };
	const seen = new Set<string>();
	for (;;) {
		if (page.pageSizeParam && page.pageSize) {
			const remaining = page.limit === undefined ? page.pageSize : page.limit - items.length;
			qs[page.pageSizeParam] = String(Math.min(page.pageSize, remaining));
		}
		const data = await apiRequest.call(this, { ...request, qs: { ...qs } }, retryOptions, run);
		const pageItems = Array.isArray(data) ? (data as IDataObject[]) : [];
		let fresh = 0;
		for (const item of pageItems) {
			const id = item && typeof item === 'object' ? String(item.id ?? '') : '';
			if (id && seen.has(id)) continue;
			if (id) seen.add(id);
			items.push(item);
			fresh++;
			if (page.limit !== undefined && items.length >= page.limit) return items;
		}
		const last = pageItems[pageItems.length - 1];
		const lastId = last && typeof last === 'object' ? last.id : undefined;
		if (
			pageItems.length === 0 ||
			fresh === 0 ||
			lastId === undefined ||
			lastId === null ||
			(page.shortPageEnds !== false &&
				page.pageSize !== undefined &&
				pageItems.length < page.pageSize)
		) {
			return items;
		}
		qs.last_id = lastId;
	}
}
