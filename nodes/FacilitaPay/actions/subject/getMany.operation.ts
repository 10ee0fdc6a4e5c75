import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { returnAllOrLimit, simplifyField } from '../common/fields';
import { simplifySubject } from '../common/simplify';

/** The service returns at most 100 people per request. */
export const PEOPLE_PAGE_SIZE = 100;

const properties: INodeProperties[] = [...returnAllOrLimit, simplifyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', i) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', i) as number);
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const people = await apiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/subject/people', retry: 'safe', itemIndex: i },
		{ limit, pageSize: PEOPLE_PAGE_SIZE },
	);
	return people.map((person: IDataObject) => ({ json: simplify ? simplifySubject(person) : person }));
}
