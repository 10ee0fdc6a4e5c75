import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkUuid } from '../../validation/uuid';
import { simplifyField, subjectIdField } from '../common/fields';
import { requireValid } from '../common/input';
import { simplifySubject } from '../common/simplify';
import type { ItemWork } from '../node.type';
import { answerAsJson } from '../common/output';
import { locatorValue } from '../common/locator';

const properties: INodeProperties[] = [subjectIdField(), simplifyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['get'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(locatorValue(this, 'subjectId', i)));
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	return {
		request: {
			method: 'GET',
			path: `/subject/people/${encodeURIComponent(id)}`,
			retry: 'safe',
			itemIndex: i,
		},
		output: (data) => [
			{ json: simplify ? simplifySubject(data as IDataObject) : answerAsJson(data) },
		],
	};
}
