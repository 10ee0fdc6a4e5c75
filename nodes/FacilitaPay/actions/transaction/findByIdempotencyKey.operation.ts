import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RecordPlace } from '../../money';
import { IDENTITY_FIELD, isVoid, lookupsFor, subjectTransactions } from '../../money';
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
 * oldest first, once per n8n process and account, then only what came after (the money rule's
 * list memory), and the answer says how many transactions were looked at.
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
	const place = subjectTransactions(subject) as Extract<RecordPlace, { by: 'meta' }>;
	const node = this.getNode();
	return {
		request: {
			method: 'GET',
			path: place.list,
			retry: 'safe',
			itemIndex: i,
		},
		// The subject's list is read whole once per n8n process and account, then only what came
		// after its newest record (money/lookups.ts): a loop of calls pays one page each.
		send: 'reads',
		perform: async (read, account) => {
			const lookups = lookupsFor(read, account, node.credentials?.facilitaPayApi?.id ?? '');
			const result = await lookups.findEvery(place, ref);
			if ('problem' in result) throw new NodeOperationError(node, result.problem, { itemIndex: i });
			return { records: result.records, count: result.count, pages: lookups.pages };
		},
		output: (data) => {
			const { records, count, pages } = data as {
				records: IDataObject[];
				count?: number;
				pages: number;
			};
			const carrying = records;
			if (carrying.length === 0) {
				const read = count ?? 0;
				return [
					{
						json: {
							found: false,
							idempotencyKey: key,
							subjectId: subject,
							transactionsRead: read,
							pagesRead: pages,
							note: `No transaction of subject ${subject} carries the Idempotency Key "${key}" (meta.${IDENTITY_FIELD} = "${ref}"). All ${read} of its transactions were read, from the oldest (${pages} ${pages === 1 ? 'page' : 'pages'} now; this n8n process keeps what it read of the list): a payment sent with this key to this subject was not made (or FacilitaPay did not keep its meta).`,
						},
					},
				];
			}
			const live = carrying.filter((transaction) => !isVoid(transaction));
			return carrying.map((transaction) => ({
				json: {
					...(simplify ? simplifyTransaction(transaction) : transaction),
					found: true,
					idempotencyKey: key,
					...(live.length > 1
						? {
								note: `${live.length} transactions carry this key: runs overlapped. Keep one and cancel the others while pending (Transaction > Cancel); a canceled or failed one no longer counts.`,
							}
						: carrying.length > 1
							? {
									note: `${carrying.length} transactions carry this key; ${carrying.length - live.length} of them canceled or failed at FacilitaPay, which no longer count.`,
								}
							: {}),
				},
			}));
		},
	};
}
