// Issue 19 against the sandbox over real HTTP, the compiled node on one side: the node and the
// sandbox hold the same rules (phone, boleto currencies, CLP, incomes), and the operations from the
// public documentation work end to end (company, customer bank account, payout to it, balance,
// refund status).
import axios from 'axios';

import { createSandbox } from '../../sandbox/server.mjs';
import { ACCOUNTS, useSandbox } from './lib/harness.mjs';
import { dynamicPixParameters, fullAddress, transactionParameters } from './lib/parameters.mjs';
import { companyParameters, partnerParameters, personParameters } from '../fixtures/subjects.js';

const env = useSandbox(createSandbox);

/** Straight to the sandbox's API (what the service itself would say), bypassing the node. */
async function direct(method, path, body) {
	const response = await axios.request({
		method,
		url: `${env.url}/api/v1${path}`,
		data: body,
		headers: { authorization: 'Bearer sandbox-token' },
		validateStatus: () => true,
	});
	return { status: response.status, data: response.data };
}

const address = fullAddress('sp');

/** A dynamic PIX of 10.00 BRL into the account without a PIX key, due at the sandbox's default hour. */
const pixToNoKeyAccount = (subjectId) =>
	dynamicPixParameters(subjectId, '10.00', {
		toBankAccountId: ACCOUNTS.brlNoPixKey,
		dynamicPixExpiresAt: '',
	});

const createSubject = async () => await env.createSubject(address);

describe('the node and the sandbox hold the same rules', () => {
	test.each([
		['987654321', true],
		['(11) 98765-4321', true],
		[987654321, true],
		['123', false],
		['1234567890123456', false],
	])(
		'phone %p: the node %s it and the sandbox agrees with what the node sends',
		async (phone, accepted) => {
			if (!accepted) {
				const error = await env.runExpectingError(personParameters({ phoneNumber: phone }));
				expect(error.message).toMatch(/Invalid Phone Number/);
				const raw = await direct('POST', '/subject/people', {
					person: {
						document_type: 'cpf',
						document_number: '39053344705',
						social_name: 'M S',
						fiscal_country: 'BR',
						phone_number: String(phone),
					},
				});
				expect(raw.status).toBe(422);
				expect(Object.keys(raw.data.errors)).toEqual(['phone_number']);
				return;
			}
			const { output } = await env.run(personParameters({ phoneNumber: phone }));
			expect(output[0].json.phone_number).toMatch(/^\d{4,15}$/);
		},
	);

	test('an income written without decimals (the docs’ "4000") is sent and stored', async () => {
		const { output } = await env.run(personParameters({ netMonthlyAverageIncome: '4000' }));
		expect(output[0].json.net_monthly_average_income).toBe('4000.00');
		const raw = await direct('POST', '/subject/people', {
			person: {
				document_type: 'cpf',
				document_number: '70590071050',
				social_name: 'J S',
				fiscal_country: 'BR',
				net_monthly_average_income: '4000',
			},
		});
		expect(raw.status).toBe(200);
	});

	test('boleto currencies: BRL settled in EUR passes both; a USD boleto is refused by both', async () => {
		const subject = await createSubject();
		const expireAt = new Date(
			Date.parse((await env.control.get('/clock')).data.now) + 3 * 86_400_000,
		)
			.toISOString()
			.slice(0, 10);
		const boleto = (currency, exchangeCurrency, to) => ({
			resource: 'transaction',
			operation: 'createBoleto',
			subjectId: subject.id,
			value: '80.00',
			currency,
			exchangeCurrency,
			expireAt,
			toBankAccountId: to,
		});
		const { output } = await env.run(boleto('BRL', 'EUR', ACCOUNTS.eurDestination));
		expect(output[0].json.bar_code).toMatch(/^\d{44}$/);
		const error = await env.runExpectingError(boleto('USD', 'USD', ACCOUNTS.usdDestination));
		expect(error.message).toMatch(/Invalid Currency \(item 0\): is USD; only BRL is accepted here/);
		const raw = await direct('POST', '/transactions', {
			transaction: {
				subject_id: subject.id,
				to_bank_account_id: ACCOUNTS.usdDestination,
				currency: 'USD',
				exchange_currency: 'USD',
				value: '80.00',
				from_boleto: { expire_at: expireAt },
			},
		});
		expect(raw.status).toBe(422);
		expect(raw.data.errors.currency).toBeDefined();
	});

	test('a CLP card checkout is sent without decimals and the sandbox takes it', async () => {
		const subject = await createSubject();
		const { output } = await env.run({
			resource: 'transaction',
			operation: 'createCheckout',
			subjectId: subject.id,
			value: 15000,
			currency: 'CLP',
			exchangeCurrency: 'USD',
			toBankAccountId: ACCOUNTS.usdDestination,
		});
		expect(output[0].json).toMatchObject({ value: '15000', currency: 'CLP' });
	});
});

describe('the operations from the public documentation, end to end', () => {
	test('a company, then its bank account, a payout to it, the balance, and the wire', async () => {
		const { output: companyOut } = await env.run(
			companyParameters({
				partners: { partner: [partnerParameters('100')] },
				additionalFields: { netValue: '10000' },
			}),
		);
		const company = companyOut[0].json;
		expect(company).toMatchObject({ document_number: '16727230000197', net_value: '10000.00' });
		const { output: accountOut } = await env.run({
			resource: 'subject',
			operation: 'registerBankAccount',
			subjectId: company.id,
			currency: 'BRL',
			ownerName: 'Exemplo Comércio Ltda',
			ownerDocumentType: 'cnpj',
			ownerDocumentNumber: '16727230000197',
			branchCountry: 'BRA',
			bankDetails: {
				bankCode: '341',
				branchNumber: '0001',
				accountNumber: '55555-5',
				accountType: 'conta-corrente',
			},
			pixKey: '16.727.230/0001-97',
		});
		const account = accountOut[0].json;
		expect(account).toMatchObject({
			currency: 'BRL',
			pix_info: { type: 'CNPJ', key: '16727230000197' },
		});
		const balance = async () =>
			(
				await env.run({
					resource: 'bankAccount',
					operation: 'getBalance',
					bankAccountId: ACCOUNTS.usdCashOut,
				})
			).output[0].json;
		const before = await balance();
		const { output: payoutOut } = await env.run({
			resource: 'transaction',
			operation: 'createPayout',
			subjectId: company.id,
			value: '100.00',
			currency: 'USD',
			exchangeCurrency: 'BRL',
			fromBankAccountId: ACCOUNTS.usdCashOut,
			toBankAccountId: account.id,
		});
		expect(payoutOut[0].json).toMatchObject({ status: 'identified', payout_method: 'ted' });
		const after = await balance();
		expect(after).toMatchObject({
			debit_value: '100.00',
			debit_transactions: before.debit_transactions + 1,
		});
		expect(after.balance).toBe('99900.00');
		const settled = await env.control.post('/settlement/run', {});
		expect(
			settled.data.wires.some((wire) => wire.transaction_ids.includes(payoutOut[0].json.id)),
		).toBe(true);
	});

	test('Refund, then Get Refund reads it back', async () => {
		const subject = await createSubject();
		const { output: pixOut } = await env.run(pixToNoKeyAccount(subject.id));
		const pix = pixOut[0].json;
		await env.control.pay(pix.id);
		const { output: refundOut } = await env.run(transactionParameters('refund', pix.id));
		const refund = refundOut[0].json;
		expect(refund.transaction_id).toBe(pix.id);
		const { output } = await env.run(
			transactionParameters('getRefund', pix.id, { refundId: refund.id }),
		);
		expect(output[0].json).toMatchObject({
			id: refund.id,
			status: 'canceled',
			transaction_id: pix.id,
		});
	});

	test('Cancel outputs the sandbox’s void record with the transaction ID', async () => {
		const subject = await createSubject();
		const { output: pixOut } = await env.run(pixToNoKeyAccount(subject.id));
		const { output } = await env.run(transactionParameters('cancel', pixOut[0].json.id));
		expect(output[0].json).toMatchObject({
			transaction_id: pixOut[0].json.id,
			status: 'canceled',
			transaction_kind: 'payment',
			bank_transaction: expect.objectContaining({ value: '10.00' }),
		});
	});
});
