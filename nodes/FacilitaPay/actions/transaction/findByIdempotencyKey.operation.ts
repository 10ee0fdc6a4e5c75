import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { IDENTITY_FIELD } from '../../money';
import { SERVICE_PAGE_SIZE } from '../../transport';
import { checkUuid } from '../../validation/uuid';
import { requiredText, simplifyField, subjectIdField } from '../common/fields';
import { requireValid } from '../common/input';
import { locatorValue } from '../common/locator';
import { simplifyTransaction } from '../common/simplify';
import { transactionOperation } from './transaction.requests';
import type { ItemWork } from '../node.type';

/**
 * Transaction > Find By Idempotency Key: the transactions of a subject that carry a given
 * Idempotency Key (the node writes it in `meta.n8n_facilitapay_ref` as `key:<key>`), for support's
 * "did order 9001 pay?". FacilitaPay has no search by `meta`: the subject's whole list is read,
 * oldest first, and the answer says how many transactions were looked at.
 */
const properties: INodeProperties[] = [
	subjectIdField('The subject (customer) the payment was made for or to'),
	requiredText(
		'lookupKey',
		'Idempotency Key',
		'The Idempotency Key the payment was sent with, such as an order ID',
		'e.g. ORDER-9001',
	),
	simplifyField,
];

export const description = transactionOperation('findByIdempotencyKey', properties);

function keyCheck(value: unknown): { ok: true; value: string } | { ok: false; reason: string } {
	const key = String(value ?? '').trim();
	return key === ''
		? { ok: false, reason: 'is empty; give the key the payment was sent with' }
		: { ok: true, value: key };
}

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const subject = requireValid(
		this,
		i,
		'Subject ID',
		checkUuid(locatorValue(this, 'subjectId', i)),
	);
	const key = requireValid(
		this,
		i,
		'Idempotency Key',
		keyCheck(this.getNodeParameter('lookupKey', i, '')),
	);
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const ref = `key:${key}`;
	return {
		request: {
			method: 'GET',
			path: `/subject/${encodeURIComponent(subject)}/transactions`,
			retry: 'safe',
			itemIndex: i,
		},
		send: 'allPages',
		page: { pageSize: SERVICE_PAGE_SIZE },
		output: (data) => {
			const transactions = (Array.isArray(data) ? data : []) as IDataObject[];
			const carrying = transactions.filter(
				(transaction) =>
					transaction.meta !== null &&
					typeof transaction.meta === 'object' &&
					(transaction.meta as IDataObject)[IDENTITY_FIELD] === ref,
			);
			if (carrying.length === 0)
				return [
					{
						json: {
							found: false,
							idempotencyKey: key,
							subjectId: subject,
							transactionsRead: transactions.length,
							note: `No transaction of subject ${subject} carries the Idempotency Key "${key}" (meta.${IDENTITY_FIELD} = "${ref}"). All ${transactions.length} of its transactions were read, from the oldest: a payment sent with this key to this subject was not made (or FacilitaPay did not keep its meta).`,
						},
					},
				];
			return carrying.map((transaction) => ({
				json: {
					...(simplify ? simplifyTransaction(transaction) : transaction),
					found: true,
					idempotencyKey: key,
					...(carrying.length > 1
						? {
								note: `${carrying.length} transactions carry this key: runs overlapped. Keep one and cancel the others while pending (Transaction > Cancel).`,
							}
						: {}),
				},
			}));
		},
	};
}
