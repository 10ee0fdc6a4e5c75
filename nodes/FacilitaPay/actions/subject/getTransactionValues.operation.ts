import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkUuid } from '../../validation/uuid';
import { subjectIdField } from '../common/fields';
import { requireValid } from '../common/input';
import { answerAsJson } from '../common/output';
import type { ItemWork } from '../node.type';
import { locatorValue } from '../common/locator';

const properties: INodeProperties[] = [subjectIdField()];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['getTransactionValues'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(locatorValue(this, 'subjectId', i)));
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
