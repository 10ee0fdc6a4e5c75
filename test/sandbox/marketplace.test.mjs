import { useSandbox, createPerson, PDF_BASE64 } from './helpers.mjs';

const t = useSandbox();

const doc = (label) => ({
	labels: [label],
	file_type: 'application/pdf',
	file_data: PDF_BASE64,
	file_name: `${label}.pdf`,
});
const readyPerson = (o = {}) =>
	createPerson(t, { documents: [doc('rg-photo'), doc('address-proof')], ...o });

describe('account authorisation', () => {
	test('a complete CPF subject gets a pending authorisation; the back office approves it', async () => {
		const p = await readyPerson();
		const r = await t.api('POST', `/subject/${p.id}/account_request`, {
			is_subject_account_owner: true,
		});
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			subject_id: p.id,
			status: 'pending',
			reason: null,
			is_subject_account_owner: true,
		});
		const d = await t.control('POST', `/authorizations/${r.json.data.id}/approve`);
		expect(d.json.data.status).toBe('approved');
		expect(await t.events()).toEqual([
			expect.objectContaining({
				type: 'subject_account_authorization',
				subject_id: p.id,
				status: 'approved',
				reason: null,
			}),
		]);
	});

	test('the body may be omitted (owner false); reproval carries a reason; the subject id works on control endpoints', async () => {
		const p = await readyPerson();
		const r = await t.call('POST', `/api/v1/subject/${p.id}/account_request`, undefined, {
			authorization: 'Bearer sandbox-token',
		});
		expect(r.json.data.is_subject_account_owner).toBe(false);
		await t.control('POST', `/authorizations/${p.id}/reprove`, { reason: 'website_unreachable' });
		expect((await t.events()).at(-1)).toMatchObject({
			status: 'reproved',
			reason: 'website_unreachable',
		});
		expect((await t.control('POST', `/authorizations/${p.id}/approve`)).status).toBe(422);
	});

	test('subjects of type curp, cc, ce or rut cannot request an account', async () => {
		const p = await createPerson(t, {
			document_type: 'curp',
			document_number: 'BOXW310820HNERXN09',
			fiscal_country: 'MX',
			address_country: 'MX',
			address_state: 'CDMX',
			address_postal_code: '06600',
		});
		const r = await t.api('POST', `/subject/${p.id}/account_request`, {});
		expect(r.status).toBe(422);
		expect(r.json.errors.document_type[0]).toMatch(/must be cpf, passport, cnpj or tax_id$/);
	});

	test('is_subject_account_owner true is only for CPF or CNPJ subjects', async () => {
		const p = await readyPerson({ document_type: 'passport', document_number: 'X1234567' });
		const r = await t.api('POST', `/subject/${p.id}/account_request`, {
			is_subject_account_owner: true,
		});
		expect(r.json.errors.is_subject_account_owner).toEqual([
			'can be true only for a CPF or CNPJ subject',
		]);
		expect(
			(await t.api('POST', `/subject/${p.id}/account_request`, { is_subject_account_owner: false }))
				.status,
		).toBe(200);
	});

	test('missing required content and too few documents are named', async () => {
		const p = await createPerson(t, { website: undefined, documents: [doc('rg-photo')] });
		const r = await t.api('POST', `/subject/${p.id}/account_request`, {});
		expect(r.json.errors).toEqual({
			website: ["can't be blank (required for an account request; update the subject first)"],
			documents: ['at least 2 documents are required (the subject has 1)'],
		});
	});

	test('a CNPJ company needs company_name and 4 documents without website (plus one per partner ≥ 25%)', async () => {
		const c = (
			await t.control('POST', '/subjects', {
				subject: {
					document_type: 'cnpj',
					document_number: '16727230000197',
					social_name: 'ACME',
					company_name: 'ACME Ltda',
					fiscal_country: 'BR',
					address_street: 'Av. Paulista',
					address_number: '1000',
					address_postal_code: '01310100',
					address_city: 'São Paulo',
					address_state: 'SP',
					address_country: 'BR',
					net_monthly_average_income: '100000.00',
					partners: [
						{
							document_type: 'cpf',
							document_number: '39053344705',
							name: 'Maria',
							percentage_share: '60',
						},
					],
					documents: [doc('a'), doc('b'), doc('c'), doc('d')],
				},
			})
		).json.data;
		const r = await t.api('POST', `/subject/${c.id}/account_request`, {
			is_subject_account_owner: true,
		});
		expect(r.json.errors).toEqual({
			documents: ['at least 5 documents are required (the subject has 4)'],
		});
		await t.api('POST', `/subject/${c.id}/documents`, { document: doc('e') });
		expect(
			(await t.api('POST', `/subject/${c.id}/account_request`, { is_subject_account_owner: true }))
				.status,
		).toBe(200);
	});
});

describe('bank account request', () => {
	test('refused without an approved authorisation', async () => {
		const p = await readyPerson();
		const r = await t.api('POST', '/bank/accounts/request', { subject_id: p.id });
		expect(r.status).toBe(422);
		expect(r.json.errors.subject_id[0]).toMatch(/^has no approved account authorisation/);
		await t.api('POST', `/subject/${p.id}/account_request`, {});
		expect((await t.api('POST', '/bank/accounts/request', { subject_id: p.id })).status).toBe(422);
	});

	test('processing → complete after 5 s of the sandbox clock, with a bank account and account_request_status', async () => {
		const p = await readyPerson();
		await t.api('POST', `/subject/${p.id}/account_request`, { is_subject_account_owner: true });
		await t.control('POST', `/authorizations/${p.id}/approve`);
		const r = await t.api('POST', '/bank/accounts/request', {
			subject_id: p.id,
			is_subject_account_owner: 'true',
		});
		expect(r.json.data).toMatchObject({
			subject_id: p.id,
			status: 'processing',
			errors: null,
			bank_account: null,
			is_subject_account_owner: true,
			user_id: expect.any(String),
		});
		const id = r.json.data.id;
		await t.advance(4);
		expect((await t.api('GET', `/bank/accounts/request/${id}`)).json.data.status).toBe(
			'processing',
		);
		await t.advance(1);
		const done = (await t.api('GET', `/bank/accounts/request/${id}`)).json.data;
		expect(done).toMatchObject({
			status: 'complete',
			bank_account: {
				currency: 'BRL',
				account_type: 'conta-corrente',
				owner_document_number: p.document_number,
				pix_info: { type: 'EVP' },
			},
		});
		expect(done.bank_account.bank).toMatchObject({ code: '218' });
		expect((await t.events()).at(-1)).toEqual(
			expect.objectContaining({
				type: 'account_request_status',
				request_id: id,
				status: 'complete',
			}),
		);
	});

	test('the control endpoint completes a request at once; unknown request ids answer 404', async () => {
		const p = await readyPerson();
		await t.api('POST', `/subject/${p.id}/account_request`, {});
		await t.control('POST', `/authorizations/${p.id}/approve`);
		const { id } = (await t.api('POST', '/bank/accounts/request', { subject_id: p.id })).json.data;
		const r = await t.control('POST', `/bank_account_requests/${id}/complete`);
		expect(r.json.data.status).toBe('complete');
		expect(r.json.data.bank_account.owner_document_number).toBe('16727230000197');
		expect(
			(await t.api('GET', '/bank/accounts/request/00000000-0000-4000-8000-000000000000')).status,
		).toBe(404);
	});
});
