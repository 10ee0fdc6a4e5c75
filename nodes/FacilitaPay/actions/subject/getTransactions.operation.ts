import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkUuid } from '../../validation/uuid';
import { returnAllOrLimit, simplifyField, subjectIdField } from '../common/fields';
import { requireValid } from '../common/input';
import { simplifyTransaction } from '../common/simplify';
import type { ItemWork } from '../node.type';
import { locatorValue } from '../common/locator';

const properties: INodeProperties[] = [subjectIdField(), ...returnAllOrLimit, simplifyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['getTransactions'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(locatorValue(this, 'subjectId', i)));
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', i) as number);
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	// The spec shows no paging on this list: one request, Limit applied here.
	return {
		request: {
			method: 'GET',
			path: `/subject/${encodeURIComponent(id)}/transactions`,
			retry: 'safe',
			itemIndex: i,
		},
		output: (data) => {
			const transactions = (Array.isArray(data) ? data : data ? [data] : []) as IDataObject[];
			const kept = limit === undefined ? transactions : transactions.slice(0, limit);
			return kept.map((t) => ({ json: simplify ? simplifyTransaction(t) : t }));
		},
	};
}
