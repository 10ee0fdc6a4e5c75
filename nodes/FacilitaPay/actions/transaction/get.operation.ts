import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { simplifyField, transactionIdField } from '../common/fields';
import { idParameter } from '../common/input';
import { simplifyTransaction } from '../common/simplify';
import { pixOutputItem, qrCodeImageFields, qrCodeTarget } from './pix.output';
import { transactionOperation } from './transaction.requests';
import type { ItemWork } from '../node.type';
import { answerAsJson } from '../common/output';

const properties: INodeProperties[] = [transactionIdField, simplifyField, ...qrCodeImageFields];

export const description = transactionOperation('get', properties);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = idParameter(this, i, 'transactionId', 'Transaction ID');
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const qrProperty = qrCodeTarget(this, i);
	return {
		request: {
			method: 'GET',
			path: `/transactions/${encodeURIComponent(id)}`,
			retry: 'safe',
			itemIndex: i,
		},
		async output(data) {
			const transaction = answerAsJson(data);
			return [
				await pixOutputItem(
					this,
					simplify ? simplifyTransaction(transaction) : transaction,
					transaction,
					qrProperty,
				),
			];
		},
	};
}
