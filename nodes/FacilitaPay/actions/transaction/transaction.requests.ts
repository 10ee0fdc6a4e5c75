import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { transactionIdField } from '../common/fields';
import { idParameter } from '../common/input';
import { locatorValue } from '../common/locator';
import { answerAsJson } from '../common/output';
import { sendOnce } from '../common/sendOnce';
import type { ItemWork } from '../node.type';
import { checkReviewedText, reviewFields } from './review.fields';

/** An operation's parameters, shown only for the Transaction resource and that operation. */
export function transactionOperation(
	operation: string,
	properties: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions(
		{ show: { resource: ['transaction'], operation: [operation] } },
		properties,
	);
}

/**
 * The parts every new transaction has, under the API's names, read from one item: the customer,
 * the destination account, the currencies and the value; the source account when the operation
 * has one. `currency` fixes the source currency where the operation offers no choice.
 */
export function transactionInput(
	ctx: IExecuteFunctions,
	i: number,
	{ fromAccount, currency }: { fromAccount: boolean; currency?: string },
): IDataObject {
	return {
		subject_id: locatorValue(ctx, 'subjectId', i),
		...(fromAccount ? { from_bank_account_id: ctx.getNodeParameter('fromBankAccountId', i) } : {}),
		to_bank_account_id: ctx.getNodeParameter('toBankAccountId', i),
		currency: currency ?? ctx.getNodeParameter('currency', i),
		exchange_currency: ctx.getNodeParameter('exchangeCurrency', i),
		value: ctx.getNodeParameter('value', i),
	};
}

/** A checked new transaction as one item's work: sent once, its answer as the item. */
export function createTransaction(
	ctx: IExecuteFunctions,
	i: number,
	path: '/transactions' | '/transactions/checkout',
	body: IDataObject,
	output: ItemWork['output'] = (data): INodeExecutionData[] => [{ json: answerAsJson(data) }],
): ItemWork {
	return sendOnce(i, 'POST', path, body, output);
}

/**
 * The answer of Cancel or Refund with the ID of the transaction it is about. Cancel answers a void
 * record and Refund a refund record (the payment-orchestrator connector), each with an `id` of its
 * own, so `transaction_id` says which transaction they concern (an answer that has one keeps it).
 */
export function withTransactionId(data: unknown, transactionId: string): IDataObject {
	const json = answerAsJson(data, { transaction_id: transactionId });
	return json.transaction_id === undefined ? { ...json, transaction_id: transactionId } : json;
}

/**
 * Cancel and Refund: one transaction ID and one request that moves money (a GET, as the service
 * has it), sent once; the answer carries the transaction ID.
 */
export function transactionAction(
	operation: 'cancel' | 'refund',
	field: { description: string; hint: string },
	pathSuffix: 'refund' | 'refund_received_transaction',
): {
	description: INodeProperties[];
	prepare: (this: IExecuteFunctions, i: number) => Promise<ItemWork>;
} {
	return {
		description: transactionOperation(operation, [
			{ ...transactionIdField, ...field },
			...reviewFields(operation),
		]),
		async prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
			const id = idParameter(this, i, 'transactionId', 'Transaction ID');
			const work = sendOnce(
				i,
				'GET',
				`/transactions/${encodeURIComponent(id)}/${pathSuffix}`,
				undefined,
				(data) => [{ json: withTransactionId(data, id) }],
			);
			await checkReviewedText(this, i, operation, work, id);
			return work;
		},
	};
}
