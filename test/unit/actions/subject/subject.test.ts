import type { IDataObject } from 'n8n-workflow';

import { binaryItem, runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { httpError } from '../../helpers/serviceAnswers';
import {
	personParameters,
	personUpdateParameters as update,
	SUBJECT_ID,
	subjectTransactionsParameters,
} from '../../../fixtures/subjects';

const created = { data: { id: SUBJECT_ID, status: 'approved', social_name: 'Maria da Silva' } };

const createParams = (overrides: IDataObject = {}) => personParameters({}, overrides);

describe('Subject > Create or Update', () => {
	it('sends the person wrapped in "person" with snake_case fields', async () => {
		const { output, requests } = await runNode({
			parameters: createParams({
				additionalFields: {
					email: 'maria@example.com',
					phoneNumber: '987654321',
					addressState: 'SP',
					addressPostalCode: '01310-100',
					addressCountry: 'BR',
					netMonthlyAverageIncome: '5000.00',
					birthDate: '1990-05-17',
				},
			}),
			replies: [created],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/subject/people');
		expect(requests[0].body).toEqual({
			person: {
				document_type: 'cpf',
				document_number: '39053344705',
				social_name: 'Maria da Silva',
				fiscal_country: 'BR',
				email: 'maria@example.com',
				phone_number: '987654321',
				address_state: 'SP',
				address_postal_code: '01310100',
				address_country: 'BR',
				net_monthly_average_income: '5000.00',
				birth_date: '1990-05-17',
			},
		});
		expect(output[0].json.id).toBe(SUBJECT_ID);
	});

	it('strips dots and dashes from a CPF before sending', async () => {
		const { requests } = await runNode({
			parameters: createParams({ documentNumber: '390.533.447-05' }),
			replies: [created],
		});
		expect(
			(requests[0].body as { person: { document_number: string } }).person.document_number,
		).toBe('39053344705');
	});

	it('drops blank optional fields instead of sending empty strings', async () => {
		const { requests } = await runNode({
			parameters: createParams({ additionalFields: { email: '', website: '  ' } }),
			replies: [created],
		});
		expect(Object.keys((requests[0].body as { person: object }).person)).toEqual([
			'document_type',
			'document_number',
			'social_name',
			'fiscal_country',
		]);
	});

	it.each([
		[
			'an invalid CPF',
			{ documentNumber: '23100299900' },
			/Invalid Document Number \(item 0\): .*CPF/,
		],
		[
			'a CPF of equal digits',
			{ documentNumber: '11111111111' },
			/Invalid Document Number \(item 0\)/,
		],
		[
			'a short CPF',
			{ documentNumber: '3905334470' },
			/Invalid Document Number \(item 0\): .*11 digits/,
		],
		[
			'a CURP with a wrong check digit',
			{ documentType: 'curp', documentNumber: 'BOXW310820HNERXN08' },
			/Invalid Document Number/,
		],
		['an empty social name', { socialName: ' ' }, /Invalid Social Name \(item 0\): is required/],
		[
			'a state outside the 27',
			{ additionalFields: { addressState: 'XX', addressCountry: 'BR' } },
			/Invalid Address State \(item 0\)/,
		],
		[
			'money with three decimals',
			{ additionalFields: { netMonthlyAverageIncome: '10.555' } },
			/Invalid Net Monthly Average Income \(item 0\): .*3 decimals/,
		],
		[
			'an RFC whose first 10 differ from the CURP',
			{
				documentType: 'curp',
				documentNumber: 'BOXW310820HNERXN09',
				additionalFields: { rfcPf: 'BOXA310820AB1' },
			},
			/Invalid RFC \(item 0\)/,
		],
		[
			'documents that are not JSON',
			{ additionalFields: { documents: '[{' } },
			/Invalid Documents \(JSON\) \(item 0\): is not valid JSON/,
		],
	])('refuses %s and sends nothing', async (_name, overrides, message) => {
		const { error, requests } = await runNodeExpectingError({
			parameters: createParams(overrides),
			replies: [created],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent to FacilitaPay for this item.');
		expect(error.context.itemIndex).toBe(0);
	});

	it.each(['BR', 'BRA', 'Brasil', 'Colombia', 'Mexico'])(
		'sends Fiscal Country %s as typed, as FacilitaPay’s own examples write it',
		async (fiscalCountry) => {
			const { requests } = await runNode({
				parameters: createParams({ fiscalCountry }),
				replies: [created],
			});
			expect(requests[0].body).toMatchObject({ person: { fiscal_country: fiscalCountry } });
		},
	);

	it.each(['BRA', 'Brasil'])(
		'applies the Brazilian address rules with Fiscal Country %s',
		async (fiscalCountry) => {
			const { error, requests } = await runNodeExpectingError({
				parameters: createParams({
					documentType: 'passport',
					documentNumber: 'AB123456',
					fiscalCountry,
					additionalFields: { addressPostalCode: '0131010' },
				}),
				replies: [created],
			});
			expect(requests).toHaveLength(0);
			expect(error.message).toMatch(
				/Address Postal Code \(item 0\): has 7 digits; a CEP has 8 digits/,
			);
		},
	);

	it('accepts a CURP with a matching RFC', async () => {
		const { requests } = await runNode({
			parameters: createParams({
				documentType: 'curp',
				documentNumber: 'boxw310820hnerxn09',
				fiscalCountry: 'MX',
				additionalFields: { rfcPf: 'BOXW310820AB1' },
			}),
			replies: [created],
		});
		expect(requests[0].body).toMatchObject({
			person: { document_number: 'BOXW310820HNERXN09', rfc_pf: 'BOXW310820AB1' },
		});
	});

	it('lists every broken field at once', async () => {
		const { error } = await runNodeExpectingError({
			parameters: createParams({
				documentNumber: '123',
				additionalFields: { email: 'not-an-email' },
			}),
		});
		expect(error.message).toMatch(/^Invalid input \(item 0\): 2 fields need fixing: /);
		expect(error.message).toMatch(/Document Number: has 3 digits; a CPF has 11 digits/);
		expect(error.message).toMatch(/Email: is not an e-mail address/);
	});

	it('with Continue On Fail, an invalid item is reported with its index and valid ones are sent', async () => {
		const { output, requests } = await runNode({
			parameters: [
				createParams(),
				createParams({ documentNumber: '23100299900' }),
				createParams({ documentNumber: '70590071050' }),
			],
			continueOnFail: true,
			replies: [created, created],
		});
		expect(requests).toHaveLength(2);
		expect(output[1].json.error).toMatch(/Invalid Document Number \(item 1\)/);
		expect(output.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

describe('Subject > Update', () => {
	it('sends only the fields to change with PUT', async () => {
		const { requests } = await runNode({
			parameters: update({ email: 'new@example.com', addressCity: 'São Paulo' }),
			replies: [created],
		});
		expect(requests[0].method).toBe('PUT');
		expect(requests[0].url).toBe(`https://sandbox.test/api/v1/subject/people/${SUBJECT_ID}`);
		expect(requests[0].body).toEqual({
			person: { email: 'new@example.com', address_city: 'São Paulo' },
		});
	});

	it('refuses an update with no field to change', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: update({}),
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/no field to change/);
	});

	it('refuses a subject ID that is not a UUID', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: update({ email: 'a@b.co' }, '12'),
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Subject ID \(item 0\)/);
	});
});

describe('Subject > Get, Get Many, Transactions, Transaction Values', () => {
	const full = {
		id: SUBJECT_ID,
		status: 'approved',
		social_name: 'Maria',
		documents: [{ id: 'd' }],
		references: [],
		address_street: 'Rua A',
	};

	it('Get simplifies by default and returns everything when Simplify is off', async () => {
		const simple = await runNode({
			parameters: { resource: 'subject', operation: 'get', subjectId: SUBJECT_ID, simplify: true },
			replies: [{ data: full }],
		});
		expect(simple.requests[0].url).toBe(`https://sandbox.test/api/v1/subject/people/${SUBJECT_ID}`);
		expect(simple.output[0].json).toEqual({
			id: SUBJECT_ID,
			status: 'approved',
			social_name: 'Maria',
		});
		const raw = await runNode({
			parameters: { resource: 'subject', operation: 'get', subjectId: SUBJECT_ID, simplify: false },
			replies: [{ data: full }],
		});
		expect(raw.output[0].json).toEqual(full);
	});

	it('Get Many outputs one item per person', async () => {
		const { output, requests } = await runNode({
			parameters: {
				resource: 'subject',
				operation: 'getMany',
				returnAll: false,
				limit: 2,
				simplify: true,
			},
			replies: [{ data: [full, { ...full, id: 'other' }, { ...full, id: 'third' }] }],
		});
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/subject/people');
		expect(output.map((o) => o.json.id)).toEqual([SUBJECT_ID, 'other']);
	});

	it('Get Transactions reads the subject’s transactions', async () => {
		const { output, requests } = await runNode({
			parameters: subjectTransactionsParameters(),
			replies: [
				{
					data: [
						{
							id: 't1',
							value: '10.00',
							status: 'pending',
							subject: { social_name: 'Maria' },
							to_bank_account: {},
						},
					],
				},
				{ data: [] },
			],
		});
		expect(requests[0].url).toBe(`https://sandbox.test/api/v1/subject/${SUBJECT_ID}/transactions`);
		expect(output[0].json).toEqual({
			id: 't1',
			value: '10.00',
			status: 'pending',
			subject_name: 'Maria',
		});
	});

	it('Get Transactions sends one request, without last_id: the endpoint does not page', async () => {
		const many = Array.from({ length: 120 }, (_, k) => ({
			id: `t${k}`,
			value: '1.00',
			status: 'pending',
		}));
		const all = await runNode({
			parameters: subjectTransactionsParameters({ simplify: false }),
			replies: [{ data: many }, { data: [] }],
		});
		expect(all.requests).toHaveLength(1);
		expect(all.requests[0].qs).toBeUndefined();
		expect(all.output).toHaveLength(120);
		const limited = await runNode({
			parameters: subjectTransactionsParameters({ returnAll: false, limit: 5, simplify: false }),
			replies: [{ data: many }],
		});
		expect(limited.requests).toHaveLength(1);
		expect(limited.output.map((o) => o.json.id)).toEqual(['t0', 't1', 't2', 't3', 't4']);
	});

	it('Get Transaction Values returns the totals', async () => {
		const { output, requests } = await runNode({
			parameters: { resource: 'subject', operation: 'getTransactionValues', subjectId: SUBJECT_ID },
			replies: [{ data: { total_value: '150.00', transactions_count: 3 } }],
		});
		expect(requests[0].url).toBe(
			`https://sandbox.test/api/v1/subject/${SUBJECT_ID}/transaction_values`,
		);
		expect(output[0].json).toEqual({ total_value: '150.00', transactions_count: 3 });
	});
});

describe('Subject > Upload Document', () => {
	const pdf = Buffer.concat([
		Buffer.from('%PDF-1.4\n'),
		Buffer.alloc(100, 32),
		Buffer.from('%%EOF'),
	]);
	const png = Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		Buffer.alloc(50),
	]);
	const upload = (overrides: Record<string, unknown> = {}) => ({
		resource: 'subject',
		operation: 'uploadDocument',
		subjectId: SUBJECT_ID,
		labels: ['address-proof'],
		source: 'binary',
		binaryPropertyName: 'data',
		options: {},
		...overrides,
	});

	it('sends the binary file as Base64 with its detected type and name', async () => {
		const { requests } = await runNode({
			parameters: upload(),
			items: [binaryItem(pdf, 'proof.pdf', 'application/pdf')],
			replies: [{ data: { id: 'doc-1' } }],
		});
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe(`https://sandbox.test/api/v1/subject/${SUBJECT_ID}/documents`);
		expect(requests[0].body).toEqual({
			document: {
				labels: ['address-proof'],
				file_type: 'application/pdf',
				file_name: 'proof.pdf',
				file_data: pdf.toString('base64'),
			},
		});
	});

	it.each([
		[
			'a PDF tagged application/octet-stream',
			pdf,
			'proof.pdf',
			'application/octet-stream',
			'application/pdf',
		],
		['a PNG tagged application/pdf', png, 'photo.png', 'application/pdf', 'image/png'],
	])('sends %s with the type its content shows', async (_name, bytes, fileName, tag, fileType) => {
		const { requests } = await runNode({
			parameters: upload(),
			items: [binaryItem(bytes, fileName, tag)],
			replies: [{ data: { id: 'doc-1' } }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toEqual({
			document: {
				labels: ['address-proof'],
				file_type: fileType,
				file_name: fileName,
				file_data: bytes.toString('base64'),
			},
		});
	});

	it('sends a public URL with the chosen type', async () => {
		const { requests } = await runNode({
			parameters: upload({
				source: 'url',
				fileUrl: 'https://files.example.com/rg.png',
				fileType: 'image/png',
				labels: ['rg-photo'],
			}),
			replies: [{ data: { id: 'doc-2' } }],
		});
		expect(requests[0].body).toEqual({
			document: {
				labels: ['rg-photo'],
				file_type: 'image/png',
				file_url: 'https://files.example.com/rg.png',
			},
		});
	});

	it.each([
		[
			'a file larger than 15 MB',
			upload(),
			binaryItem(
				Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(16 * 1024 * 1024)]),
				'big.pdf',
				'application/pdf',
			),
			/15 MB/,
		],
		[
			'a file name without extension',
			upload(),
			binaryItem(pdf, 'proof', 'application/pdf'),
			/Invalid File Name \(item 0\)/,
		],
		[
			'no label',
			upload({ labels: [] }),
			binaryItem(pdf, 'proof.pdf', 'application/pdf'),
			/Invalid Labels \(item 0\)/,
		],
		[
			'an ftp URL',
			upload({ source: 'url', fileUrl: 'ftp://x/y.pdf', fileType: 'application/pdf' }),
			{ json: {} },
			/Invalid File URL \(item 0\)/,
		],
	])('refuses %s and sends nothing', async (_name, parameters, item, message) => {
		const { error, requests } = await runNodeExpectingError({
			parameters,
			items: [item],
			replies: [{ data: {} }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('is not retried after a server error (it is not idempotent)', async () => {
		const { requests } = await runNodeExpectingError({
			parameters: upload(),
			items: [binaryItem(pdf, 'proof.pdf', 'application/pdf')],
			replies: [httpError(503, 'Service Unavailable'), { data: {} }],
		});
		expect(requests).toHaveLength(1);
	});
});
