import type { IDataObject } from 'n8n-workflow';

import { checkPercentageShare } from '../../../../nodes/FacilitaPay/schemas/company';
import { description as companyDescription } from '../../../../nodes/FacilitaPay/actions/subject/createCompany.operation';
import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { httpError } from '../../helpers/serviceAnswers';
import { skipRetryWaits } from '../../helpers/retryWaits';
import {
	companyParameters as company,
	partnerBody,
	partnerParameters,
} from '../../../fixtures/subjects';

const COMPANY_ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const answer = { data: { id: COMPANY_ID, status: 'approved', social_name: 'Exemplo Ltda' } };
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

skipRetryWaits();

const sentCompany = (request: { body?: unknown }) =>
	(request.body as { company: IDataObject }).company;

describe('Subject > Create or Update Company', () => {
	it('sends POST /subject/companies with the company wrapped in "company", its partners included', async () => {
		const { output, requests } = await runNode({
			parameters: company({
				partners: {
					partner: [
						partnerParameters('50', { documentNumber: '390.533.447-05', addressCountry: 'BR' }),
						{
							name: 'João Souza',
							documentType: 'cpf',
							documentNumber: '70590071050',
							percentageShare: 50,
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
					addressNumber: 1000,
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
			replies: [answer],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/subject/companies');
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
		expect(output[0].json.id).toBe(COMPANY_ID);
	});

	it('requires only what is certain: a company with just its document and legal name is sent', async () => {
		const { requests } = await runNode({
			parameters: company({ companyName: '', fiscalCountry: '' }),
			replies: [answer],
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
		const { error, requests } = await runNodeExpectingError({
			parameters: company(overrides),
			replies: [answer],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('a foreign company with a tax ID is not held to the Brazilian address rules', async () => {
		const { requests } = await runNode({
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
			replies: [answer],
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
		const { requests } = await runNode({
			parameters: company({ documentType, documentNumber, fiscalCountry }),
			replies: [answer],
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
		const { error, requests } = await runNodeExpectingError({
			parameters: company({ documentType, documentNumber, fiscalCountry: 'CO' }),
			replies: [answer],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('offers CNPJ, NIT, RFC and Tax ID as the company’s Document Type', () => {
		const field = companyDescription.find((property) => property.name === 'documentType');
		expect(field?.options?.map((option) => ('value' in option ? option.value : ''))).toEqual([
			'cnpj',
			'nit',
			'rfc',
			'tax_id',
		]);
	});

	it('is retried as idempotent without documents, and sent once with documents', async () => {
		const retried = await runNode({
			parameters: company(),
			replies: [httpError(503, { error: 'service_unavailable' }), answer],
		});
		expect(retried.requests).toHaveLength(2);
		const once = await runNodeExpectingError({
			parameters: company({
				additionalFields: {
					documents: [
						{
							labels: ['social-contract'],
							file_type: 'application/pdf',
							file_name: 'contrato.pdf',
							file_data: PDF.toString('base64'),
						},
					],
				},
			}),
			replies: [httpError(503, { error: 'service_unavailable' }), answer],
		});
		expect(once.requests).toHaveLength(1);
		expect(once.error.message).toMatch(/Outcome unknown/);
	});
});

describe('checkPercentageShare', () => {
	it.each<[string | number, string]>([
		['50', '50'],
		[50, '50'],
		['33.33', '33.33'],
		['100', '100'],
		['25%', '25'],
		['050', '50'],
	])('%p is sent as %p', (raw, expected) => {
		expect(checkPercentageShare(raw)).toEqual({ ok: true, value: expected });
	});

	it.each<string | number>(['0', '100.01', '-5', '50,5', 'half', '', 33.333])(
		'%p is refused',
		(raw) => {
			expect(checkPercentageShare(raw).ok).toBe(false);
		},
	);
});
