// Subject > Register Bank Account on n8n's engine, against a FacilitaPay scripted by route.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { SUBJECT_ID } from '../../../fixtures/subjects.js';
import { bankAccountBody, bankDetailsParameters } from '../../../fixtures/bankAccounts.js';
import { byId } from './lib.mjs';

const ACCOUNT_ID = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const ACCOUNTS = 'POST /subject/:id/bank_accounts';
const answer = { data: { id: ACCOUNT_ID, currency: 'BRL', owner_name: 'Maria da Silva' } };

const op = useOperations();
const waits = skipRetryWaits();

const register = (overrides = {}) => ({
	resource: 'subject',
	operation: 'registerBankAccount',
	subjectId: byId(SUBJECT_ID),
	currency: 'BRL',
	ownerName: 'Maria da Silva',
	ownerDocumentType: 'cpf',
	ownerDocumentNumber: '390.533.447-05',
	branchCountry: 'BRA',
	bankDetails: bankDetailsParameters,
	pixKey: '',
	...overrides,
});

const sentAccount = (request) => request.body.bank_account;

describe('Subject > Register Bank Account', () => {
	it('sends POST /subject/:id/bank_accounts with the documented Brazilian example’s fields', async () => {
		const { items, requests, error } = await op.run({
			parameters: register({ pixKey: '39053344705' }),
			replies: { [ACCOUNTS]: answer },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			route: ACCOUNTS,
			params: { id: SUBJECT_ID },
			query: {},
		});
		expect(requests[0].headers.authorization).toBe('Bearer test-token');
		expect(requests[0].body).toEqual({ bank_account: bankAccountBody() });
		// The answer's id is the To Bank Account ID of a payout.
		expect(items[0].json.id).toBe(ACCOUNT_ID);
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('a PIX key alone is enough (a payout then goes by PIX); its type is told from the key', async () => {
		const { requests } = await op.run({
			parameters: register({ bankDetails: {}, pixKey: 'Maria@Example.com' }),
			replies: { [ACCOUNTS]: answer },
		});
		expect(sentAccount(requests[0])).toEqual({
			currency: 'BRL',
			owner_name: 'Maria da Silva',
			owner_document_type: 'cpf',
			owner_document_number: '39053344705',
			branch_country: 'BRA',
			pix_info: { type: 'EMAIL', key: 'maria@example.com' },
		});
	});

	it.each([
		['neither bank details nor a PIX key', { bankDetails: {} }, /Account Number.*PIX key/],
		[
			'a 2-digit Brazilian bank code',
			{
				bankDetails: {
					bankCode: '31',
					branchNumber: '0001',
					accountNumber: '123',
					accountType: 'poupanca',
				},
			},
			/Bank Code/,
		],
		['an invalid owner CPF', { ownerDocumentNumber: '23100299900' }, /Owner Document Number/],
		[
			'a PIX key on a USD account',
			{ currency: 'USD', bankDetails: {}, pixKey: '39053344705', branchCountry: 'US' },
			/PIX Key.*only a BRL account/,
		],
		[
			'a PIX key of another type than chosen',
			{ pixKey: '39053344705', pixKeyType: 'EVP' },
			/PIX Key Type.*CPF key/,
		],
		[
			'a Brazilian account owned by a passport',
			{ ownerDocumentType: 'passport', ownerDocumentNumber: 'AB123456' },
			/Owner Document Type.*CPF or a CNPJ/,
		],
		['a branch country that is not a code', { branchCountry: 'Brazil' }, /Branch Country/],
	])('refuses %s and sends nothing', async (_name, overrides, message) => {
		const { error, requests, items } = await op.run({
			parameters: register(overrides),
			replies: { [ACCOUNTS]: answer },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.message).toMatch(/\(item 0\)/);
		expect(error.description).toContain('Nothing was sent to FacilitaPay');
	});

	it('another country’s account is left to FacilitaPay beyond “not empty”', async () => {
		const { requests } = await op.run({
			parameters: register({
				currency: 'MXN',
				ownerDocumentType: 'curp',
				ownerDocumentNumber: 'BOXW310820HNERXN09',
				branchCountry: 'MEX',
				bankDetails: { bankName: 'BBVA México', accountNumber: '012180001234567897' },
			}),
			replies: { [ACCOUNTS]: answer },
		});
		expect(sentAccount(requests[0])).toMatchObject({
			currency: 'MXN',
			branch_country: 'MEX',
			account_number: '012180001234567897',
			bank: { name: 'BBVA México' },
		});
	});

	it('is sent once: a 503 is an unknown outcome, never a second registration', async () => {
		const { error, requests, items } = await op.run({
			parameters: register(),
			replies: { [ACCOUNTS]: [reply(503, { error: 'service_unavailable' }), answer] },
		});
		expect(requests).toHaveLength(1);
		expect(waits).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/Outcome unknown/);
	});
});
