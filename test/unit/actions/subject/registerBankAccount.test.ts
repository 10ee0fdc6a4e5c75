import type { IDataObject } from 'n8n-workflow';

import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { httpError } from '../../helpers/serviceAnswers';
import { skipRetryWaits } from '../../helpers/retryWaits';
import { SUBJECT_ID } from '../../../fixtures/subjects';
import { bankAccountBody, bankDetailsParameters } from '../../../fixtures/bankAccounts';

const ACCOUNT_ID = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const answer = { data: { id: ACCOUNT_ID, currency: 'BRL', owner_name: 'Maria da Silva' } };

skipRetryWaits();

const register = (overrides: IDataObject = {}) => ({
	resource: 'subject',
	operation: 'registerBankAccount',
	subjectId: SUBJECT_ID,
	currency: 'BRL',
	ownerName: 'Maria da Silva',
	ownerDocumentType: 'cpf',
	ownerDocumentNumber: '390.533.447-05',
	branchCountry: 'BRA',
	bankDetails: bankDetailsParameters,
	pixKey: '',
	...overrides,
});

const sentAccount = (request: { body?: unknown }) =>
	(request.body as { bank_account: IDataObject }).bank_account;

describe('Subject > Register Bank Account', () => {
	it('sends POST /subject/:id/bank_accounts with the documented Brazilian example’s fields', async () => {
		const { output, requests } = await runNode({
			parameters: register({ pixKey: '39053344705' }),
			replies: [answer],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe(`https://sandbox.test/api/v1/subject/${SUBJECT_ID}/bank_accounts`);
		expect(requests[0].body).toEqual({ bank_account: bankAccountBody() });
		// The answer's id is the To Bank Account ID of a payout.
		expect(output[0].json.id).toBe(ACCOUNT_ID);
	});

	it('a PIX key alone is enough (a payout then goes by PIX); its type is told from the key', async () => {
		const { requests } = await runNode({
			parameters: register({ bankDetails: {}, pixKey: 'Maria@Example.com' }),
			replies: [answer],
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
		const { error, requests } = await runNodeExpectingError({
			parameters: register(overrides),
			replies: [answer],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('another country’s account is left to FacilitaPay beyond “not empty”', async () => {
		const { requests } = await runNode({
			parameters: register({
				currency: 'MXN',
				ownerDocumentType: 'curp',
				ownerDocumentNumber: 'BOXW310820HNERXN09',
				branchCountry: 'MEX',
				bankDetails: { bankName: 'BBVA México', accountNumber: '012180001234567897' },
			}),
			replies: [answer],
		});
		expect(sentAccount(requests[0])).toMatchObject({
			currency: 'MXN',
			branch_country: 'MEX',
			account_number: '012180001234567897',
			bank: { name: 'BBVA México' },
		});
	});

	it('is sent once: a 503 is an unknown outcome, never a second registration', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: register(),
			replies: [httpError(503, { error: 'service_unavailable' }), answer],
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toMatch(/Outcome unknown/);
	});
});
