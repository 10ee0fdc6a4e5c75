import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accountRequestSchema, MARKETPLACE_LABELS } from '../../schemas/marketplaceAccount';
import { checkUuid } from '../../validation/uuid';
import { subjectIdField } from '../common/fields';
import { requireValid, validateBody } from '../common/input';
import { accountOwnerOptions } from './owner.fields';
import { answerAsJson } from '../common/output';
import { sendOnce } from '../common/sendOnce';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { locatorValue } from '../common/locator';
import { nowhere } from '../../money';

const properties: INodeProperties[] = [
	{
		...subjectIdField(
			'ID of the subject (a UUID) to open a collection account for; its document must be a CPF, passport, CNPJ or tax ID',
		),
		hint: 'The subject needs its address, income, website (people) and at least 2 documents (CNPJ: 3, or 4 without a website, plus one per partner with 25% or more) before FacilitaPay approves',
	},
	accountOwnerOptions(
		'Whether the account is handled under the subject’s own document number. When off, the account is registered under FacilitaPay’s name.',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['marketplaceAccount'], operation: ['requestAuthorization'] } },
	properties,
);

/** Sent once (`sendOnce`): each call creates an authorisation request. */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(locatorValue(this, 'subjectId', i)));
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const body =
		options.isSubjectAccountOwner === undefined
			? undefined
			: (validateBody(
					this,
					i,
					accountRequestSchema,
					{ is_subject_account_owner: options.isSubjectAccountOwner },
					MARKETPLACE_LABELS,
				) as IDataObject);
	return sendOnce(i, 'POST', `/subject/${encodeURIComponent(id)}/account_request`, body, (data) => [
		{ json: answerAsJson(data, { subject_id: id }) },
	]);
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = {
	record: () =>
		nowhere(
			'FacilitaPay has no list of account authorisation requests. Wait for the subject_account_authorization event, or check the FacilitaPay dashboard, before requesting it again.',
		),
};
