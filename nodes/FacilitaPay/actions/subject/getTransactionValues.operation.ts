import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { checkUuid } from '../../validation/misc';
import { subjectIdField } from '../common/fields';
import { requireValid } from '../common/input';
import { answerAsJson } from '../common/output';

const properties: INodeProperties[] = [subjectIdField()];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['getTransactionValues'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(this.getNodeParameter('subjectId', i) as string));
	const data = await apiRequest.call(this, {
		method: 'GET',
		path: `/subject/${encodeURIComponent(id)}/transaction_values`,
		retry: 'safe',
		itemIndex: i,
	});
	return [{ json: answerAsJson(data, {}, 'value') }];
}
