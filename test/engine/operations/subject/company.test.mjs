// Subject > Create or Update Company on n8n's engine, against a FacilitaPay scripted by route.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import {
	companyParameters as company,
	partnerBody,
	partnerParameters,
} from '../../../fixtures/subjects.js';

const COMPANY_ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const COMPANIES = 'POST /subject/companies';
const answer = { data: { id: COMPANY_ID, status: 'approved', social_name: 'Exemplo Ltda' } };
const replies = { [COMPANIES]: answer };
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

const op = useOperations();
const waits = skipRetryWaits();

const sentCompany = (request) => request.body.company;

describe('Subject > Create or Update Company', () => {
	it('sends POST /subject/companies with the company wrapped in "company", its partners included', async () => {
		const { items, requests, error } = await op.run({
			parameters: company({
				partners: {
					partner: [
						partnerParameters('50', { documentNumber: '390.533.447-05', addressCountry: 'BR' }),
						{
							name: 'João Souza',
							documentType: 'cpf',
							documentNumber: '70590071050',
							// A number, as an expression gives it.
							percentageShare: '={{ 50 }}',
							kind: 'person',
							addressCountry: '',
						},
					],
				},
				additionalFields: {
					email: 'contato@exemplo.com.br',
					website: 'https://exemplo.com.br',
					creationDate: '2015-03-01',
					addressStreet: 'Avenida Paulista',
					addressNumber: '={{ 1000 }}',
					addressPostalCode: '01310-100',
					addressCity: 'São Paulo',
					addressState: 'sp',
					addressCountry: 'BR',
					netMonthlyAverageIncome: '4000',
					netValue: '10000',
					mainActivity: '6201-5/01',
					activityType: 'other',
					companyType: 'ltda',
				},
			}),
			replies,
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', route: COMPANIES, query: {} });
		expect(requests[0].headers.authorization).toBe('Bearer test-token');
		expect(requests[0].body).toEqual({
			company: {
				document_type: 'cnpj',
				document_number: '16727230000197',
				social_name: 'Exemplo Comércio Ltda',
				company_name: 'Exemplo',
				fiscal_country: 'BR',
				email: 'contato@exemplo.com.br',
				website: 'https://exemplo.com.br',
				creation_date: '2015-03-01',
				address_street: 'Avenida Paulista',
				address_number: '1000',
				address_postal_code: '01310100',
				address_city: 'São Paulo',
				address_state: 'SP',
				address_country: 'BR',
				net_monthly_average_income: '4000.00',
				net_value: '10000.00',
				main_activity: '6201-5/01',
				activity_type: 'other',
				company_type: 'ltda',
				partners: [
					{ ...partnerBody, address_country: 'BR' },
					{
						document_type: 'cpf',
						document_number: '70590071050',
						name: 'João Souza',
						percentage_share: '50',
						kind: 'person',
					},
				],
			},
		});
		expect(items).toHaveLength(1);
		expect(items[0].json.id).toBe(COMPANY_ID);
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('requires only what is certain: a company with just its document and legal name is sent', async () => {
		const { requests } = await op.run({
			parameters: company({ companyName: '', fiscalCountry: '' }),
			replies,
		});
		expect(sentCompany(requests[0])).toEqual({
			document_type: 'cnpj',
			document_number: '16727230000197',
			social_name: 'Exemplo Comércio Ltda',
		});
	});

	it.each([
		[
			'a CNPJ with a wrong check digit',
			{ documentNumber: '16727230000198' },
			/Document Number.*check digits/,
		],
		['no legal name', { socialName: ' ' }, /Invalid Social Name \(item 0\): is required/],
		[
			'a partner with an invalid CPF',
			{
				partners: {
					partner: [
						{
							name: 'X Y',
							documentType: 'cpf',
							documentNumber: '23100299900',
							percentageShare: '10',
							kind: 'person',
						},
					],
				},
			},
			/Document Number \(entry 1\)/,
		],
		[
			'partners holding more than 100%',
			{
				partners: {
					partner: [
						{
							name: 'A B',
							documentType: 'cpf',
							documentNumber: '39053344705',
							percentageShare: '60',
							kind: 'person',
						},
						{
							name: 'C D',
							documentType: 'cpf',
							documentNumber: '70590071050',
							percentageShare: '40.01',
							kind: 'person',
						},
					],
				},
			},
			/Partners.*100.01%/,
		],
		[
			'a Brazilian state outside the 27',
			{ additionalFields: { addressState: 'XX' } },
			/Address State/,
		],
		[
			'a creation date in the future',
			{ additionalFields: { creationDate: '2999-01-01' } },
			/Creation Date.*in the future/,
		],
	])('refuses %s and sends nothing', async (_name, overrides, message) => {
		const { error, requests, items } = await op.run({ parameters: company(overrides), replies });
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent to FacilitaPay');
	});

	it('a legal name left empty in the field is refused by n8n before the workflow starts', async () => {
		const { error, requests } = await op.run({ parameters: company({ socialName: '' }), replies });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
		expect(error.message).toMatch(/Parameter "Social Name" is required/);
	});

	it('a foreign company with a tax ID is not held to the Brazilian address rules', async () => {
		const { requests } = await op.run({
			parameters: company({
				documentType: 'tax_id',
				documentNumber: 'US-12-3456789',
				fiscalCountry: 'US',
				additionalFields: {
					addressCountry: 'US',
					addressState: 'Delaware',
					addressPostalCode: '19801',
				},
			}),
			replies,
		});
		expect(sentCompany(requests[0])).toMatchObject({
			document_type: 'tax_id',
			document_number: 'US123456789',
			address_state: 'Delaware',
			address_postal_code: '19801',
		});
	});

	it.each([
		[
			'a Colombian NIT written with its verification digit',
			'nit',
			'900.123.456-8',
			'9001234568',
			'Colombia',
		],
		['a Mexican company RFC', 'rfc', 'ABC-010203-XY1', 'ABC010203XY1', 'MEX'],
	])('registers %s', async (_name, documentType, documentNumber, sent, fiscalCountry) => {
		const { requests } = await op.run({
			parameters: company({ documentType, documentNumber, fiscalCountry }),
			replies,
		});
		expect(sentCompany(requests[0])).toMatchObject({
			document_type: documentType,
			document_number: sent,
			fiscal_country: fiscalCountry,
		});
	});

	it.each([
		['a NIT with letters', 'nit', '90012345A', /Document Number \(item 0\).*NIT/],
		[
			'an RFC of 11 characters',
			'rfc',
			'AB010203XY1',
			/Document Number \(item 0\).*RFC has 13 characters \(person\) or 12 \(company\)/,
		],
	])('refuses %s and sends nothing', async (_name, documentType, documentNumber, message) => {
		const { error, requests } = await op.run({
			parameters: company({ documentType, documentNumber, fiscalCountry: 'CO' }),
			replies,
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('is retried as idempotent without documents, and sent once with documents', async () => {
		const unavailableOnce = { [COMPANIES]: [reply(503, { error: 'service_unavailable' }), answer] };
		const retried = await op.run({ parameters: company(), replies: unavailableOnce });
		expect(retried.error).toBeUndefined();
		expect(retried.requests).toHaveLength(2);
		expect(waits).toHaveLength(1);
		expect(retried.items[0].json.id).toBe(COMPANY_ID);
		const once = await op.run({
			parameters: company({ additionalFields: { documents: '={{ $json.documents }}' } }),
			items: [
				{
					json: {
						documents: [
							{
								labels: ['social-contract'],
								file_type: 'application/pdf',
								file_name: 'contrato.pdf',
								file_data: PDF.toString('base64'),
							},
						],
					},
				},
			],
			replies: unavailableOnce,
		});
		expect(once.requests).toHaveLength(1);
		expect(once.requests[0].body.company.documents).toHaveLength(1);
		expect(once.error.message).toMatch(/Outcome unknown/);
	});
});
