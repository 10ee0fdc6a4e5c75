import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BANK_ACCOUNT_LABELS, bankAccountSchema } from '../../schemas/wire';
import {
	accountTypeOptions,
	currencyField,
	ownerDocumentNumberField,
	ownerNameField,
} from '../common/fields';
import { idParameter, validateBody } from '../common/input';
import { answerAsJson } from '../common/output';
import { sendOnce } from '../common/sendOnce';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { nowhere } from '../../money';

const properties: INodeProperties[] = [
	{
		displayName:
			'Use this after a "wire_waiting_correction" event. Its error_code tells what to correct: AC03 → Branch Number or Account Number; AC14 → Account Type; CH11 → Owner Document Number; AG03 → the account rejected the payment, so enter another account. FacilitaPay then retries the wire and sends "wire_created" when it succeeds.',
		name: 'errorCodesNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Wire ID',
		name: 'wireId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 7c9e6679-7425-40de-944b-e07fc1f90ae7',
		description:
			'ID of the wire waiting for correction: the wire_id of the wire_waiting_correction event',
	},
	currencyField('currency', 'Currency', 'Currency of the destination account'),
	{
		displayName: 'Bank Code',
		name: 'bankCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 001',
		description:
			'Code of the bank; in Brazil the 3-digit COMPE code (001 Banco do Brasil, 341 Itaú…)',
	},
	{
		displayName: 'Bank Name',
		name: 'bankName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Banco do Brasil',
	},
	{
		displayName: 'Branch Number',
		name: 'branchNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0001',
		description: 'Branch (agência); in Brazil 1 to 5 digits, digits only. Asked for by error AC03.',
	},
	{
		displayName: 'Account Number',
		name: 'accountNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 12345-6',
		description:
			'Account number; in Brazil digits, optionally with a dash before the check digit. Asked for by error AC03.',
	},
	{
		displayName: 'Account Type',
		name: 'accountType',
		type: 'options',
		required: true,
		options: accountTypeOptions,
		default: 'conta-corrente',
		description: 'Type of the account. Asked for by error AC14.',
	},
	ownerDocumentNumberField(
		'Document of the account owner; for a Brazilian account a CPF (11 digits) or CNPJ (14 characters), punctuation is removed. Asked for by error CH11.',
	),
	ownerNameField,
	{
		displayName: 'Branch Country',
		name: 'branchCountry',
		type: 'string',
		required: true,
		default: 'BR',
		placeholder: 'e.g. BR',
		description:
			'Country of the branch, two or three letters (ISO 3166-1), e.g. BR or BRA. The spec writes two letters; FacilitaPay’s own examples write three.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['wire'], operation: ['updateBankAccount'] } },
	properties,
);

/** Sent once (`sendOnce`): the correction makes FacilitaPay retry the wire, which moves money. */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = idParameter(this, i, 'wireId', 'Wire ID');
	const bankAccount = validateBody(
		this,
		i,
		bankAccountSchema,
		{
			currency: this.getNodeParameter('currency', i),
			bank: {
				code: this.getNodeParameter('bankCode', i),
				name: this.getNodeParameter('bankName', i),
			},
			branch_number: this.getNodeParameter('branchNumber', i),
			account_number: this.getNodeParameter('accountNumber', i),
			owner_document_number: this.getNodeParameter('ownerDocumentNumber', i),
			owner_name: this.getNodeParameter('ownerName', i),
			branch_country: this.getNodeParameter('branchCountry', i),
			account_type: this.getNodeParameter('accountType', i),
		},
		BANK_ACCOUNT_LABELS,
	);
	return sendOnce(
		i,
		'PUT',
		`/wires/${encodeURIComponent(id)}/update_bank_account`,
		{ bank_account: bankAccount as IDataObject },
		(data) => [{ json: answerAsJson(data, { id }) }],
	);
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = {
	record: () =>
		nowhere(
			'FacilitaPay has no way to read a wire. Wait for the wire_created event, or check the FacilitaPay dashboard, before sending the correction again.',
		),
};
