// What the live docs and the connector add to the sandbox: companies as subjects of their own,
// customers' bank accounts that a payout then uses, the balance of the partner's accounts, and
// the status of a refund.
import { useSandbox, createPerson, dynamicPix, payout, ACCOUNT_IDS } from './helpers.mjs';
import { bankAccountBody as bankAccount } from '../fixtures/bankAccounts.js';
import { partnerBody } from '../fixtures/subjects.js';

const t = useSandbox();

const company = (overrides = {}) => ({
	document_type: 'cnpj',
	document_number: '16727230000197',
	social_name: 'Exemplo Comércio Ltda',
	company_name: 'Exemplo',
	fiscal_country: 'BR',
	net_monthly_average_income: '4000',
	net_value: '10000',
	partners: [partnerBody],
	...overrides,
});

describe('companies (POST /subject/companies)', () => {
	test('a company is registered as a subject of its own, with its partners', async () => {
		const r = await t.api('POST', '/subject/companies', { company: company() });
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			status: 'approved',
			document_type: 'cnpj',
			social_name: 'Exemplo Comércio Ltda',
			net_value: '10000',
			partners: [expect.objectContaining({ name: 'Maria da Silva', percentage_share: '50' })],
		});
		expect(r.json.data).not.toHaveProperty('_kind');
	});

	test('a company is not under /subject/people: not listed, not read, not updated there', async () => {
		const { json } = await t.api('POST', '/subject/companies', { company: company() });
		const id = json.data.id;
		expect((await t.api('GET', '/subject/people')).json.data).toEqual([]);
		expect((await t.api('GET', `/subject/people/${id}`)).status).toBe(404);
		expect(
			(await t.api('PUT', `/subject/people/${id}`, { person: { email: 'a@b.co' } })).status,
		).toBe(404);
		// …but it is a subject: its transactions and documents are there.
		expect((await t.api('GET', `/subject/${id}/transactions`)).json.data).toEqual([]);
	});

	test('the same CNPJ updates the company (same id); a person with another document is apart', async () => {
		const first = await t.api('POST', '/subject/companies', { company: company() });
		const second = await t.api('POST', '/subject/companies', {
			company: company({ company_name: 'Novo Nome' }),
		});
		expect(second.json.data.id).toBe(first.json.data.id);
		expect(second.json.data.company_name).toBe('Novo Nome');
	});

	test.each([
		[
			'a person document type',
			{ document_type: 'cpf', document_number: '39053344705' },
			'document_type',
		],
		['a wrong CNPJ', { document_number: '16727230000198' }, 'document_number'],
		['no legal name', { social_name: '' }, 'social_name'],
		['a Brazilian CEP with a dash', { address_postal_code: '01310-100' }, 'address_postal_code'],
		[
			'partners over 100%',
			{
				partners: [
					{
						document_type: 'cpf',
						document_number: '39053344705',
						name: 'A',
						percentage_share: '60',
					},
					{
						document_type: 'cpf',
						document_number: '70590071050',
						name: 'B',
						percentage_share: '41',
					},
				],
			},
			'partners',
		],
		[
			'a partner share as a number',
			{
				partners: [
					{ document_type: 'cpf', document_number: '39053344705', name: 'A', percentage_share: 50 },
				],
			},
			'partners[0].percentage_share',
		],
	])('refuses %s (422)', async (_name, overrides, field) => {
		const r = await t.api('POST', '/subject/companies', { company: company(overrides) });
		expect(r.status).toBe(422);
		expect(Object.keys(r.json.errors)).toContain(field);
	});

	test('a company pays and is approved like a person (subject events concern it)', async () => {
		const { json } = await t.api('POST', '/subject/companies', {
			company: company({
				email: 'contato@exemplo.com.br',
				phone_number: '1133334444',
				address_street: 'Avenida Paulista',
				address_number: '1000',
				address_neighborhood: 'Bela Vista',
				address_postal_code: '01310100',
				address_city: 'São Paulo',
				address_state: 'SP',
				address_country: 'BR',
			}),
		});
		const pix = await t.api('POST', '/transactions', dynamicPix(json.data.id));
		expect(pix.status).toBe(200);
		expect(pix.json.data.subject).toMatchObject({
			id: json.data.id,
			social_name: 'Exemplo Comércio Ltda',
		});
	});
});

describe('customers’ bank accounts (POST /subject/:id/bank_accounts)', () => {
	test('a registered account is the destination of a payout, paid by TED, then wired', async () => {
		const subject = await createPerson(t);
		const r = await t.api('POST', `/subject/${subject.id}/bank_accounts`, {
			bank_account: bankAccount(),
		});
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			currency: 'BRL',
			owner_name: 'Maria da Silva',
			owner_company: { id: subject.id, document_number: '39053344705' },
			pix_info: { type: 'CPF', key: '39053344705' },
			internal: false,
		});
		const sent = await t.api(
			'POST',
			'/transactions',
			payout(subject.id, { to_bank_account_id: r.json.data.id, value: '10.00' }),
		);
		expect(sent.status).toBe(200);
		expect(sent.json.data).toMatchObject({
			status: 'identified',
			payout_method: 'ted',
			to_bank_account: expect.objectContaining({ id: r.json.data.id }),
		});
		const settled = await t.control('POST', '/settlement/run', {});
		expect(settled.json.data.wires).toHaveLength(1);
		expect((await t.events()).map((event) => event.type)).toEqual(
			expect.arrayContaining(['identified', 'exchange_created', 'wire_created']),
		);
	});

	test('a PIX key alone is enough: the payout goes by PIX', async () => {
		const subject = await createPerson(t);
		const r = await t.api('POST', `/subject/${subject.id}/bank_accounts`, {
			bank_account: bankAccount({
				account_number: undefined,
				account_type: undefined,
				branch_number: undefined,
				bank: undefined,
			}),
		});
		expect(r.status).toBe(200);
		const sent = await t.api(
			'POST',
			'/transactions',
			payout(subject.id, { to_bank_account_id: r.json.data.id, value: '5.00' }),
		);
		expect(sent.json.data.payout_method).toBe('pix');
	});

	test.each([
		[
			'neither bank details nor a PIX key',
			{ account_number: undefined, pix_info: undefined },
			'account_number',
		],
		['a 2-digit bank code', { bank: { code: '31', name: 'X' } }, 'bank.code'],
		['an invalid owner CPF', { owner_document_number: '23100299900' }, 'owner_document_number'],
		['a PIX key on a USD account', { currency: 'USD' }, 'pix_info.key'],
		[
			'a PIX key of another type',
			{ pix_info: { type: 'EVP', key: '39053344705' } },
			'pix_info.type',
		],
		['a branch country that is a name', { branch_country: 'Brazil' }, 'branch_country'],
	])('refuses %s (422)', async (_name, overrides, field) => {
		const subject = await createPerson(t);
		const r = await t.api('POST', `/subject/${subject.id}/bank_accounts`, {
			bank_account: bankAccount(overrides),
		});
		expect(r.status).toBe(422);
		expect(Object.keys(r.json.errors)).toContain(field);
	});

	test('an unknown subject answers 404', async () => {
		const r = await t.api('POST', '/subject/00000000-0000-4000-8000-000000000000/bank_accounts', {
			bank_account: bankAccount(),
		});
		expect(r.status).toBe(404);
	});
});

describe('balance (GET /bank_accounts/:id/balance)', () => {
	test('the cash-out account: the opening credit less each payout, balance = credit − debit', async () => {
		const before = await t.api('GET', `/bank_accounts/${ACCOUNT_IDS.usdCashOut}/balance`);
		expect(before.json.data).toEqual({
			balance: '100000.00',
			credit_value: '100000.00',
			debit_value: '0.00',
			credit_transactions: 1,
			debit_transactions: 0,
			currency: 'USD',
		});
		const subject = await createPerson(t);
		await t.api('POST', '/transactions', payout(subject.id, { value: '250.50' }));
		const after = await t.api('GET', `/bank_accounts/${ACCOUNT_IDS.usdCashOut}/balance`);
		expect(after.json.data).toMatchObject({
			balance: '99749.50',
			debit_value: '250.50',
			debit_transactions: 1,
		});
	});

	test('a pay-in credits its destination once its funds are identified', async () => {
		const subject = await createPerson(t);
		const pix = await t.api(
			'POST',
			'/transactions',
			dynamicPix(subject.id, {
				to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
				exchange_currency: 'BRL',
			}),
		);
		expect(pix.status).toBe(200);
		await t.control('POST', `/transactions/${pix.json.data.id}/pay`, { success: true });
		const r = await t.api('GET', `/bank_accounts/${ACCOUNT_IDS.brlPixExclusive}/balance`);
		expect(r.json.data).toMatchObject({
			credit_value: pix.json.data.value,
			credit_transactions: 1,
			debit_transactions: 0,
			currency: 'BRL',
		});
	});

	test('a customer’s account or an unknown one answers 404', async () => {
		expect((await t.api('GET', `/bank_accounts/${ACCOUNT_IDS.brlCustomer}/balance`)).status).toBe(
			404,
		);
		expect(
			(await t.api('GET', '/bank_accounts/00000000-0000-4000-8000-000000000000/balance')).status,
		).toBe(404);
	});
});

describe('refund status (GET /transactions/:id/refund_received_transaction/:refund_id)', () => {
	test('the refund of a received payment reads back with its status; another id is 404', async () => {
		const subject = await createPerson(t);
		const pix = await t.api('POST', '/transactions', dynamicPix(subject.id));
		const id = pix.json.data.id;
		expect(
			(await t.api('GET', `/transactions/${id}/refund_received_transaction/${id}`)).status,
		).toBe(404);
		await t.control('POST', `/transactions/${id}/pay`, { success: true });
		const refund = await t.api('GET', `/transactions/${id}/refund_received_transaction`);
		expect(refund.status).toBe(200);
		const refundId = refund.json.data.id;
		const r = await t.api('GET', `/transactions/${id}/refund_received_transaction/${refundId}`);
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			id: refundId,
			status: 'canceled',
			transaction_id: id,
			value: pix.json.data.value,
		});
		expect(
			(
				await t.api(
					'GET',
					`/transactions/${id}/refund_received_transaction/00000000-0000-4000-8000-000000000000`,
				)
			).status,
		).toBe(404);
	});
});
