// Transaction > Create PSE Payment and Create SPEI Dynamic CLABE on n8n's engine, against a
// FacilitaPay scripted by route.
import subjects from '../../../fixtures/subjects.js';
import { psePaymentParameters, pseBody, USD_CASH_IN } from '../../../fixtures/transactions.js';
import { skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { IDENTITY, sent } from './lib.mjs';

const { SUBJECT_ID } = subjects;
const CREATE = 'POST /transactions';
const MXN_CASH_IN = '0b5e7c2a-1f3d-4a8e-9c61-000000000102';

const op = useOperations();
skipRetryWaits();

const pse = (overrides) => psePaymentParameters(SUBJECT_ID, overrides);

const spei = (overrides = {}) => ({
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
		const { items, requests, error } = await op.run({
			parameters: pse(),
			replies: {
				[CREATE]: {
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
			},
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', route: CREATE });
		expect(requests[0].body).toEqual(
			// The payment's identity travels with it (docs/money.md).
			pseBody(SUBJECT_ID, USD_CASH_IN, {}, { meta: IDENTITY }),
		);
		expect(items[0].json).toMatchObject({
			payment_url: 'https://pse.example/pay/1',
			payment_url_valid_until: '2025-07-09T14:12:30Z',
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('takes the bank By ID when the list cannot be read, and leaves an empty description out', async () => {
		const { requests, error } = await op.run({
			parameters: pse({
				financialInstitutionCode: { __rl: true, mode: 'id', value: ' 1051 ' },
				paymentDescription: '',
			}),
			replies: { [CREATE]: { data: { id: 'tx-pse-2' } } },
		});
		expect(error).toBeUndefined();
		expect(sent(requests[0]).from_pse).toEqual({
			financial_institution_code: '1051',
			redirect_url: 'https://shop.example.co/paid',
		});
	});

	it('refuses a redirect URL without http and sends nothing', async () => {
		const { error, requests, items } = await op.run({
			parameters: pse({ redirectUrl: 'shop.example.co' }),
			replies: { [CREATE]: { data: {} } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Redirect URL \(item 0\): is not a web address/);
	});

	it('no bank chosen: n8n refuses to start the workflow (PSE Bank is required), nothing is sent', async () => {
		const { error, requests, items } = await op.run({
			parameters: pse({ financialInstitutionCode: { __rl: true, mode: 'list', value: '' } }),
			replies: { [CREATE]: { data: {} } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
		expect(error.message).toMatch(/Parameter "PSE Bank" is required/);
	});

	it('no bank from an expression: the node refuses the item and sends nothing', async () => {
		const { error, requests, items } = await op.run({
			parameters: pse({
				financialInstitutionCode: { __rl: true, mode: 'id', value: '={{ $json.bank }}' },
			}),
			items: [{ json: { bank: '' } }],
			replies: { [CREATE]: { data: {} } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/Invalid PSE Bank \(item 0\): is empty/);
	});
});

describe('Transaction > Create SPEI Dynamic CLABE (Mexico)', () => {
	it('sends from_spei {dynamic_clabe: true} and no source account; outputs the CLABE and its 30 days', async () => {
		const { items, requests, error } = await op.run({
			parameters: spei(),
			replies: {
				[CREATE]: {
					data: {
						id: 'tx-spei',
						inserted_at: '2025-07-09T13:51:30.989491',
						payment_info: { dynamic_clabe: '646180110400000007' },
					},
				},
			},
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', route: CREATE });
		expect(sent(requests[0])).toEqual({
			subject_id: SUBJECT_ID,
			to_bank_account_id: MXN_CASH_IN,
			currency: 'MXN',
			exchange_currency: 'MXN',
			value: '1500.00',
			from_spei: { dynamic_clabe: true },
			meta: { n8n_facilitapay_ref: expect.stringMatching(/^run:/) },
		});
		expect(items[0].json).toMatchObject({
			dynamic_clabe: '646180110400000007',
			dynamic_clabe_valid_until: '2025-08-08T13:51:30Z',
		});
	});

	it('reads the CLABE and its expiry from from_spei when the answer has them', async () => {
		const { items, requests } = await op.run({
			parameters: spei({ paymentDescription: 'Pedido 9' }),
			replies: {
				[CREATE]: {
					data: {
						id: 'tx-spei-2',
						from_spei: {
							dynamic_clabe: true,
							clabe: '646180110400000023',
							expires_at: '2025-08-01T00:00:00Z',
						},
					},
				},
			},
		});
		expect(sent(requests[0]).payment_description).toBe('Pedido 9');
		expect(items[0].json).toMatchObject({
			dynamic_clabe: '646180110400000023',
			dynamic_clabe_valid_until: '2025-08-01T00:00:00Z',
		});
	});
});
