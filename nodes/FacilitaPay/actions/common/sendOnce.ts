import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { ItemWork } from '../node.type';

/**
 * One item's work whose request creates, moves or changes something at FacilitaPay: sent once
 * (`retry: 'sendOnce'`: an unclear outcome is never sent again on its own), its answer turned into
 * the item by `output`.
 */
export function sendOnce(
	i: number,
	method: IHttpRequestMethods,
	path: string,
	body: IDataObject | undefined,
	output: ItemWork['output'],
): ItemWork {
	return {
		request: {
			method,
			path,
			...(body === undefined ? {} : { body }),
			retry: 'sendOnce',
			itemIndex: i,
		},
		output,
	};
}
