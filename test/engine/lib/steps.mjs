// Workflow steps and sandbox routes the engine tests share: FacilitaPay nodes as the editor saves
// them (resource locators, expressions with a leading "=", untouched parameters left out).
import { ACCOUNT_IDS } from '../../../sandbox/accounts.mjs';
import { bankDetailsParameters } from '../../fixtures/bankAccounts.js';

export const PEOPLE = 'POST /api/v1/subject/people';
export const TRANSACTIONS = 'POST /api/v1/transactions';
/** A subject ID of the right form (Preview Only sends nothing, so it need not exist). */
export const SUBJECT = '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c';

/** Subject > Create or Update, as the editor saves it; `documentNumber` may be an expression. */
export const createCustomer = (documentNumber = '390.533.447-05', extra = {}) => ({
	name: 'Create customer',
	parameters: {
		resource: 'subject',
		operation: 'create',
		documentType: 'cpf',
		documentNumber,
		socialName: 'Maria da Silva',
		fiscalCountry: 'BR',
		additionalFields: {},
	},
	...extra,
});

/** Transaction > Create Dynamic PIX for the subject of the incoming item ({{ $json.id }}). */
export const chargeByPix = (overrides = {}) => ({
	name: 'Charge by PIX',
	parameters: {
		resource: 'transaction',
		operation: 'createDynamicPix',
		subjectId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		value: '25.00',
		fromBankAccountId: ACCOUNT_IDS.brlPixExclusive,
		toBankAccountId: ACCOUNT_IDS.brlCustomer,
		exchangeCurrency: 'BRL',
		...overrides,
	},
});

/** Subject > Register Bank Account for the customer the "Create customer" node registered. */
export const registerBankAccount = (overrides = {}) => ({
	name: 'Register bank account',
	parameters: {
		resource: 'subject',
		operation: 'registerBankAccount',
		subjectId: { __rl: true, mode: 'id', value: "={{ $('Create customer').item.json.id }}" },
		currency: 'BRL',
		ownerName: 'Maria da Silva',
		ownerDocumentType: 'cpf',
		ownerDocumentNumber: '39053344705',
		branchCountry: 'BRA',
		bankDetails: bankDetailsParameters,
		pixKey: '39053344705',
		...overrides,
	},
});
