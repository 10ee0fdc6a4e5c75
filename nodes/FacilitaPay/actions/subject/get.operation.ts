import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { checkUuid } from '../../validation/misc';
import { simplifyField, subjectIdField } from '../common/fields';
import { requireValid } from '../common/input';
import { simplifySubject } from '../common/simplify';

const properties: INodeProperties[] = [subjectIdField(), simplifyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(this.getNodeParameter('subjectId', i) as string));
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const data = (await apiRequest.call(this, {
		method: 'GET',
		path: `/subject/people/${encodeURIComponent(id)}`,
		retry: 'safe',
		itemIndex: i,
	})) as IDataObject;
	return [{ json: simplify ? simplifySubject(data) : data }];
}
