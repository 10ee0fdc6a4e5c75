import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	PIX_KEY_TYPES,
	REGISTER_BANK_ACCOUNT_LABELS,
	registerBankAccountSchema,
} from '../../schemas/bankAccount';
import { checkUuid } from '../../validation/uuid';
import { DOCUMENT_TYPES } from '../../validation/documents';
import {
	accountTypeOptions,
	currencyField,
	documentTypeOptions,
	ownerDocumentNumberField,
	ownerNameField,
	subjectIdField,
} from '../common/fields';
import { compact, requireValid, validateBody } from '../common/input';
import { locatorValue } from '../common/locator';
import { answerAsJson } from '../common/output';
import { sendOnce } from '../common/sendOnce';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { nowhere } from '../../money';

const PIX_TYPE_NAMES: Record<string, string> = {
	CNPJ: 'CNPJ',
	CPF: 'CPF',
	EMAIL: 'Email',
	EVP: 'Random Key (EVP)',
	PHONE: 'Phone',
};

const properties: INodeProperties[] = [
	{
		displayName:
			'This endpoint comes from FacilitaPay’s public documentation, not the interface spec. Its answer’s ID is the To Bank Account ID of a payout to this customer. The per-country rules were not readable: the Brazilian rules are checked here, other countries’ details are left to FacilitaPay.',
		name: 'bankAccountNotice',
		type: 'notice',
		default: '',
	},
	subjectIdField('The customer (person or company) who owns the account'),
	currencyField('currency', 'Currency', 'Currency of the account; a payout to it is paid in it'),
	ownerNameField,
	{
		displayName: 'Owner Document Type',
		name: 'ownerDocumentType',
		type: 'options',
		required: true,
		options: documentTypeOptions(DOCUMENT_TYPES),
		default: 'cpf',
	},
	ownerDocumentNumberField('Checked by its type; dots, dashes and spaces are removed'),
	{
		displayName: 'Branch Country',
		name: 'branchCountry',
		type: 'string',
		required: true,
		default: 'BRA',
		placeholder: 'e.g. BRA',
		description:
			'Country of the branch, two or three letters (the documentation’s example writes BRA). BR or BRA applies the Brazilian rules.',
	},
	{
		displayName: 'Bank Details',
		name: 'bankDetails',
		type: 'collection',
		placeholder: 'Add Detail',
		default: {},
		description:
			'For a transfer (TED in Brazil). Give these, a PIX key, or both: with both, TED is preferred.',
		options: [
			{
				displayName: 'Account Number',
				name: 'accountNumber',
				type: 'string',
				default: '',
				placeholder: 'e.g. 12345-6',
				description: 'In Brazil digits, optionally with a dash before the check digit',
			},
			{
				displayName: 'Account Type',
				name: 'accountType',
				type: 'options',
				options: accountTypeOptions,
				default: 'conta-corrente',
				description:
					'Required for a Brazilian account; for other countries the values are not published, so an expression is sent as typed',
			},
			{
				displayName: 'Bank Code',
				name: 'bankCode',
				type: 'string',
				default: '',
				placeholder: 'e.g. 031',
				description: 'In Brazil the 3-digit COMPE code (001 Banco do Brasil, 341 Itaú…)',
			},
			{
				displayName: 'Bank Name',
				name: 'bankName',
				type: 'string',
				default: '',
				placeholder: 'e.g. Banco Beg S.A.',
			},
			{
				displayName: 'Branch Number',
				name: 'branchNumber',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0001',
				description: 'Branch (agência); in Brazil 1 to 5 digits',
			},
		],
	},
	{
		displayName: 'PIX Key',
		name: 'pixKey',
		type: 'string',
		default: '',
		placeholder: 'e.g. 39053344705',
		description:
			'PIX key of a BRL account: a CPF, a CNPJ, an e-mail, a phone written +55… or a random key (UUID). With only a PIX key a payout is sent by PIX.',
	},
	{
		displayName: 'PIX Key Type',
		name: 'pixKeyType',
		type: 'options',
		options: [
			{ name: 'Detect From the Key', value: '' },
			...PIX_KEY_TYPES.map((type) => ({ name: PIX_TYPE_NAMES[type], value: type })),
		],
		default: '',
		description:
			'Sent as pix_info.type. CPF and EVP appear in FacilitaPay’s examples; CNPJ, EMAIL and PHONE follow the same naming but were not seen.',
		displayOptions: { hide: { pixKey: [''] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['registerBankAccount'] } },
	properties,
);

/**
 * `POST /subject/:id/bank_accounts` with `{"bank_account": {…}}` (public documentation). Sent once:
 * nothing shows whether registering the same account twice makes two.
 */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(locatorValue(this, 'subjectId', i)));
	const details = this.getNodeParameter('bankDetails', i, {}) as IDataObject;
	const pixKey = String(this.getNodeParameter('pixKey', i, '') ?? '').trim();
	const raw: IDataObject = compact({
		currency: this.getNodeParameter('currency', i),
		account_type: details.accountNumber ? details.accountType : undefined,
		account_number: details.accountNumber,
		branch_number: details.branchNumber,
		owner_name: this.getNodeParameter('ownerName', i),
		owner_document_type: this.getNodeParameter('ownerDocumentType', i),
		owner_document_number: this.getNodeParameter('ownerDocumentNumber', i),
		branch_country: this.getNodeParameter('branchCountry', i),
	});
	const bank = compact({ code: details.bankCode, name: details.bankName } as IDataObject);
	if (Object.keys(bank).length > 0) raw.bank = bank;
	if (pixKey !== '') {
		raw.pix_info = compact({
			type: this.getNodeParameter('pixKeyType', i, '') as string,
			key: pixKey,
		} as IDataObject);
	}
	const bankAccount = validateBody(
		this,
		i,
		registerBankAccountSchema,
		raw,
		REGISTER_BANK_ACCOUNT_LABELS,
	);
	return sendOnce(
		i,
		'POST',
		`/subject/${encodeURIComponent(id)}/bank_accounts`,
		{ bank_account: bankAccount as IDataObject },
		(data) => [{ json: answerAsJson(data, { subject_id: id }) }],
	);
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = {
	record: () =>
		nowhere(
			'FacilitaPay publishes no list of a customer’s bank accounts. Check the FacilitaPay dashboard before registering it again.',
		),
};
