import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { checkUuid } from '../../validation/misc';
import { returnAllOrLimit, simplifyField, subjectIdField } from '../common/fields';
import { requireValid } from '../common/input';
import { simplifyTransaction } from '../common/simplify';

const properties: INodeProperties[] = [subjectIdField(), ...returnAllOrLimit, simplifyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['getTransactions'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(this.getNodeParameter('subjectId', i) as string));
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', i) as number);
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const transactions = await apiRequestAllItems.call(
		this,
		{ method: 'GET', path: `/subject/${encodeURIComponent(id)}/transactions`, retry: 'safe', itemIndex: i },
		{ limit },
	);
	return transactions.map((t: IDataObject) => ({ json: simplify ? simplifyTransaction(t) : t }));
}
