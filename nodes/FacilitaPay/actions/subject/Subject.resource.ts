import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as createCompany from './createCompany.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getTransactions from './getTransactions.operation';
import * as getTransactionValues from './getTransactionValues.operation';
import * as registerBankAccount from './registerBankAccount.operation';
import * as update from './update.operation';
import * as uploadDocument from './uploadDocument.operation';

export {
	create,
	createCompany,
	get,
	getMany,
	getTransactions,
	getTransactionValues,
	registerBankAccount,
	update,
	uploadDocument,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['subject'] } },
		options: [
			{
				name: 'Create or Update',
				value: 'create',
				description: 'Register a person; an existing document number updates that person',
				action: 'Create or update a customer subject by document number',
			},
			{
				name: 'Create or Update Company',
				value: 'createCompany',
				description:
					'Register a company (KYB) with its partners; an existing document number updates that company',
				action: 'Create or update a company subject (CNPJ, NIT, RFC or tax ID) by document number',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a person by ID',
				action: 'Get a customer subject by subject ID',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the registered people',
				action: 'Get many customer subjects',
			},
			{
				name: 'Get Transaction Values',
				value: 'getTransactionValues',
				description: 'Total transacted value and number of transactions of a subject',
				action: 'Get the total transacted value of a subject by subject ID',
			},
			{
				name: 'Get Transactions',
				value: 'getTransactions',
				description: 'List a subject’s transactions in local currency',
				action: 'Get the transactions of a subject by subject ID',
			},
			{
				name: 'Register Bank Account',
				value: 'registerBankAccount',
				description: 'Register a customer’s bank account or PIX key, where payouts go',
				action: 'Register a bank account of a customer for payouts',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change a person’s details (not the document)',
				action: 'Update the details of a subject by subject ID',
			},
			{
				name: 'Upload Document',
				value: 'uploadDocument',
				description: 'Send a KYC document (PDF, PNG or JPEG up to 15 MB)',
				action: 'Upload a KYC document file for a subject',
			},
		],
		default: 'create',
	},
	...create.description,
	...createCompany.description,
	...get.description,
	...getMany.description,
	...update.description,
	...getTransactions.description,
	...getTransactionValues.description,
	...uploadDocument.description,
	...registerBankAccount.description,
];
