import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { binaryPropertyOutputField, transactionIdField } from '../common/fields';
import { idParameter } from '../common/input';
import { transactionOperation } from './transaction.requests';
import type { ItemWork } from '../node.type';
import type { BinaryResponse } from '../../transport';

const properties: INodeProperties[] = [
	{
		...transactionIdField,
		description: 'ID of the boleto transaction, as returned by Create Boleto',
	},
	binaryPropertyOutputField('data'),
];

export const description = transactionOperation('getBoletoPdf', properties);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = idParameter(this, i, 'transactionId', 'Transaction ID');
	const property = this.getNodeParameter('binaryPropertyName', i, 'data') as string;
	return {
		request: {
			method: 'GET',
			path: `/transactions/${encodeURIComponent(id)}/boleto_pdf`,
			retry: 'safe',
			itemIndex: i,
		},
		send: 'download',
		async output(answer) {
			const file = answer as BinaryResponse;
			const fileName = `boleto-${id}.pdf`;
			const mimeType =
				file.contentType === 'application/octet-stream' ? 'application/pdf' : file.contentType;
			const binary = await this.helpers.prepareBinaryData(file.data, fileName, mimeType);
			return [
				{
					json: { transaction_id: id, file_name: fileName, size: file.data.length },
					binary: { [property]: binary },
				},
			];
		},
	};
}
