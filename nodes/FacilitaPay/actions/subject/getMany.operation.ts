import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimit, simplifyField } from '../common/fields';
import { simplifySubject } from '../common/simplify';
import { SERVICE_PAGE_SIZE } from '../../transport';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [...returnAllOrLimit, simplifyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['getMany'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', i) as number);
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	return {
		request: { method: 'GET', path: '/subject/people', retry: 'safe', itemIndex: i },
		send: 'allPages',
		page: { limit, pageSize: SERVICE_PAGE_SIZE },
		output: (people) =>
			(people as IDataObject[]).map((person) => ({
				json: simplify ? simplifySubject(person) : person,
			})),
	};
}
