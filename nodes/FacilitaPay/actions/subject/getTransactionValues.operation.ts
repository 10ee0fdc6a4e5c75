import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkUuid } from '../../validation/misc';
import { subjectIdField } from '../common/fields';
import { requireValid } from '../common/input';
import { answerAsJson } from '../common/output';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [subjectIdField()];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['getTransactionValues'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(this.getNodeParameter('subjectId', i) as string));
	return {
		request: {
			method: 'GET',
			path: `/subject/${encodeURIComponent(id)}/transaction_values`,
			retry: 'safe',
			itemIndex: i,
		},
		output: (data) => [{ json: answerAsJson(data, {}, 'value') }],
	};
}
