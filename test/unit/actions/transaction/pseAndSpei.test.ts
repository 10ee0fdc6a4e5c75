import type { IDataObject } from 'n8n-workflow';

import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { skipRetryWaits } from '../../helpers/retryWaits';
import { SUBJECT_ID } from '../../../fixtures/subjects';

const USD_CASH_IN = '0b5e7c2a-1f3d-4a8e-9c61-000000000105';
const MXN_CASH_IN = '0b5e7c2a-1f3d-4a8e-9c61-000000000102';

skipRetryWaits();

const sent = (request: { body?: unknown }) =>
	(request.body as { transaction: IDataObject }).transaction;

const pse = (overrides: IDataObject = {}) => ({
	resource: 'transaction',
	operation: 'createPsePayment',
	subjectId: SUBJECT_ID,
	value: '200000.00',
	exchangeCurrency: 'USD',
	toBankAccountId: USD_CASH_IN,
	financialInstitutionCode: { __rl: true, mode: 'list', value: '1007' },
	redirectUrl: 'https://shop.example.co/paid',
	paymentDescription: 'Order 77',
	...overrides,
});

const spei = (overrides: IDataObject = {}) => ({
	resource: 'transaction',
	operation: 'createSpeiPayment',
	subjectId: SUBJECT_ID,
	value: '1500.00',
	exchangeCurrency: 'MXN',
	toBankAccountId: MXN_CASH_IN,
	paymentDescription: '',
	...overrides,
});

describe('Transaction > Create PSE Payment (Colombia)', () => {
	it('sends from_pse and no source account; outputs the payment URL and until when it works', async () => {
		const { output, requests } = await runNode({
			parameters: pse(),
			replies: [
				{
					data: {
						id: 'tx-pse',
						status: 'pending',
						inserted_at: '2025-07-09T13:51:30.989491',
						from_pse: {
							payment_url: 'https://pse.example/pay/1',
							creation_date: '2025-07-09T13:51:30.989491',
						},
					},
				},
			],
		});
		expect(sent(requests[0])).toEqual({
			subject_id: SUBJECT_ID,
			to_bank_account_id: USD_CASH_IN,
			currency: 'COP',
			exchange_currency: 'USD',
			value: '200000.00',
			from_pse: {
				financial_institution_code: '1007',
				redirect_url: 'https://shop.example.co/paid',
				payment_description: 'Order 77',
			},
			// The payment's identity travels with it (docs/money.md).
			meta: { n8n_facilitapay_ref: expect.stringMatching(/^run:/) },
		});
		expect(output[0].json).toMatchObject({
			payment_url: 'https://pse.example/pay/1',
			payment_url_valid_until: '2025-07-09T14:12:30Z',
		});
	});

	it('takes the bank By ID when the list cannot be read, and leaves an empty description out', async () => {
		const { requests } = await runNode({
			parameters: pse({
				financialInstitutionCode: { __rl: true, mode: 'id', value: ' 1051 ' },
				paymentDescription: '',
			}),
			replies: [{ data: { id: 'tx-pse-2' } }],
		});
		expect(sent(requests[0]).from_pse).toEqual({
			financial_institution_code: '1051',
			redirect_url: 'https://shop.example.co/paid',
		});
	});

	it.each([
		['no bank', { financialInstitutionCode: { __rl: true, mode: 'list', value: '' } }, /PSE Bank/],
		['a redirect URL without http', { redirectUrl: 'shop.example.co' }, /Redirect URL/],
	])('refuses %s and sends nothing', async (_name, overrides, message) => {
		const { error, requests } = await runNodeExpectingError({
			parameters: pse(overrides as IDataObject),
			replies: [{ data: {} }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});
});

describe('Transaction > Create SPEI Dynamic CLABE (Mexico)', () => {
	it('sends from_spei {dynamic_clabe: true} and no source account; outputs the CLABE and its 30 days', async () => {
		const { output, requests } = await runNode({
			parameters: spei(),
			replies: [
				{
					data: {
						id: 'tx-spei',
						inserted_at: '2025-07-09T13:51:30.989491',
						payment_info: { dynamic_clabe: '646180110400000007' },
					},
				},
			],
		});
		expect(sent(requests[0])).toEqual({
			subject_id: SUBJECT_ID,
			to_bank_account_id: MXN_CASH_IN,
			currency: 'MXN',
			exchange_currency: 'MXN',
			value: '1500.00',
			from_spei: { dynamic_clabe: true },
			meta: { n8n_facilitapay_ref: expect.stringMatching(/^run:/) },
		});
		expect(output[0].json).toMatchObject({
			dynamic_clabe: '646180110400000007',
			dynamic_clabe_valid_until: '2025-08-08T13:51:30Z',
		});
	});

	it('reads the CLABE and its expiry from from_spei when the answer has them', async () => {
		const { output, requests } = await runNode({
			parameters: spei({ paymentDescription: 'Pedido 9' }),
			replies: [
				{
					data: {
						id: 'tx-spei-2',
						from_spei: {
							dynamic_clabe: true,
							clabe: '646180110400000023',
							expires_at: '2025-08-01T00:00:00Z',
						},
					},
				},
			],
		});
		expect(sent(requests[0]).payment_description).toBe('Pedido 9');
		expect(output[0].json).toMatchObject({
			dynamic_clabe: '646180110400000023',
			dynamic_clabe_valid_until: '2025-08-01T00:00:00Z',
		});
	});
});
