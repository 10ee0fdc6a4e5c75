import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { simplifyField, transactionIdField } from '../common/fields';
import { idParameter } from '../common/input';
import { simplifyTransaction } from '../common/simplify';
import { pixOutputItem, qrCodeImageFields, qrCodeTarget } from './pixOutput';

const properties: INodeProperties[] = [transactionIdField, simplifyField, ...qrCodeImageFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = idParameter(this, i, 'transactionId', 'Transaction ID');
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const qrProperty = qrCodeTarget(this, i);
	const data = (await apiRequest.call(this, {
		method: 'GET',
		path: `/transactions/${encodeURIComponent(id)}`,
		retry: 'safe',
		itemIndex: i,
	})) as IDataObject;
	return [await pixOutputItem(this, simplify ? simplifyTransaction(data) : data, data, qrProperty)];
}
