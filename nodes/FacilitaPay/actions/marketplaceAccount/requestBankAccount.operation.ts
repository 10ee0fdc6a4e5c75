import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bankAccountRequestSchema, MARKETPLACE_LABELS } from '../../schemas/marketplaceAccount';
import { subjectIdField } from '../common/fields';
import { compact, validateBody } from '../common/input';
import { accountOwnerOptions } from './owner.fields';
import { answerAsJson } from '../common/output';
import { sendOnce } from '../common/sendOnce';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { locatorValue } from '../common/locator';
import { nowhere } from '../../money';

const properties: INodeProperties[] = [
	{
		displayName:
			'An approved account authorisation must exist first (Marketplace Account > Request Authorization, then the subject_account_authorization event with status approved); otherwise FacilitaPay rejects the request.',
		name: 'approvalNotice',
		type: 'notice',
		default: '',
	},
	subjectIdField('ID of the subject (a UUID) whose authorisation was approved'),
	accountOwnerOptions(
		'Whether the account is handled under the subject’s own document number; sent as the text "true" or "false", as FacilitaPay lists it',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['marketplaceAccount'], operation: ['requestBankAccount'] } },
	properties,
);

/** Sent once (`sendOnce`): each call opens a bank account request. */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const body = validateBody(
		this,
		i,
		bankAccountRequestSchema,
		{
			subject_id: locatorValue(this, 'subjectId', i),
			is_subject_account_owner: options.isSubjectAccountOwner,
		},
		MARKETPLACE_LABELS,
	);
	return sendOnce(i, 'POST', '/bank/accounts/request', compact(body as IDataObject), (data) => [
		{ json: answerAsJson(data, { subject_id: body.subject_id }) },
	]);
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = {
	record: () =>
		nowhere(
			'FacilitaPay has no list of bank account requests. Wait for the account_request_status event, or check the FacilitaPay dashboard, before requesting it again.',
		),
};
