import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkUuid } from '../../validation/uuid';
import { requireValid } from '../common/input';
import { locatorField, locatorValue } from '../common/locator';
import { answerAsJson } from '../common/output';
import type { ItemWork } from '../node.type';

const properties: INodeProperties[] = [
	locatorField({
		name: 'bankAccountId',
		displayName: 'Bank Account',
		description:
			'One of your own accounts at FacilitaPay, e.g. the cash-out account a payout is paid from. The API publishes no list of your accounts, so enter its ID (from the FacilitaPay dashboard).',
		placeholder: 'e.g. 0b5e7c2a-1f3d-4a8e-9c61-000000000003',
		uuid: true,
		kind: 'bank account',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['bankAccount'], operation: ['getBalance'] } },
	properties,
);

/**
 * `GET /bank_accounts/:id/balance` (public documentation). The answer: `balance`, `credit_value`,
 * `debit_value` (money as text), `credit_transactions`, `debit_transactions` (counts) and
 * `currency`; the item adds `bank_account_id`. A read: retried on temporary failures.
 */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = requireValid(
		this,
		i,
		'Bank Account ID',
		checkUuid(locatorValue(this, 'bankAccountId', i)),
	);
	return {
		request: {
			method: 'GET',
			path: `/bank_accounts/${encodeURIComponent(id)}/balance`,
			retry: 'safe',
			itemIndex: i,
		},
		output: (data) => [{ json: { bank_account_id: id, ...answerAsJson(data, {}, 'balance') } }],
	};
}
