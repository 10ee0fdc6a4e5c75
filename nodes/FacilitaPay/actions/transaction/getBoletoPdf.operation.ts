import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiDownload } from '../../transport';
import { binaryPropertyOutputField, transactionIdField } from '../common/fields';
import { idParameter } from '../common/input';

const properties: INodeProperties[] = [
	{ ...transactionIdField, description: 'ID of the boleto transaction, as returned by Create Boleto' },
	binaryPropertyOutputField('data'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['getBoletoPdf'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = idParameter(this, i, 'transactionId', 'Transaction ID');
	const property = this.getNodeParameter('binaryPropertyName', i, 'data') as string;
	const file = await apiDownload.call(this, {
		method: 'GET',
		path: `/transactions/${encodeURIComponent(id)}/boleto_pdf`,
		retry: 'safe',
		itemIndex: i,
	});
	const fileName = `boleto-${id}.pdf`;
	const mimeType = file.contentType === 'application/octet-stream' ? 'application/pdf' : file.contentType;
	const binary = await this.helpers.prepareBinaryData(file.data, fileName, mimeType);
	return [{ json: { transaction_id: id, file_name: fileName, size: file.data.length }, binary: { [property]: binary } }];
}
