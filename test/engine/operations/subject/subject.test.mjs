// Subject > Create or Update, Update, Get, Get Many, Get Transactions, Get Transaction Values and
// Upload Document on n8n's engine, against a FacilitaPay scripted by route.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { SUBJECT_ID, subjectTransactionsParameters } from '../../../fixtures/subjects.js';
import { binaryItem, byId, expectOneRequest, fromItem, person, update, upload } from './lib.mjs';

const PEOPLE = 'POST /subject/people';
const PERSON = 'PUT /subject/people/:id';
const GET_PERSON = 'GET /subject/people/:id';
const LIST_PEOPLE = 'GET /subject/people';
const TRANSACTIONS = 'GET /subject/:id/transactions';
const VALUES = 'GET /subject/:id/transaction_values';
const DOCUMENTS = 'POST /subject/:id/documents';

const created = { data: { id: SUBJECT_ID, status: 'approved', social_name: 'Maria da Silva' } };
const replies = { [PEOPLE]: created, [PERSON]: created };

const op = useOperations();
const waits = skipRetryWaits();

const createParams = (overrides = {}) => person({}, overrides);
const transactionsOf = (extra = {}) => ({
	...subjectTransactionsParameters(extra),
	subjectId: byId(SUBJECT_ID),
});

describe('Subject > Create or Update', () => {
	it('sends the person wrapped in "person" with snake_case fields', async () => {
		const { items, requests, error } = await op.run({
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
			replies,
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', route: PEOPLE, query: {} });
		expect(requests[0].headers.authorization).toBe('Bearer test-token');
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
		expect(items).toEqual([{ json: created.data, pairedItem: { item: 0 } }]);
	});

	it('strips dots and dashes from a CPF before sending', async () => {
		const { requests } = await op.run({
			parameters: createParams({ documentNumber: '390.533.447-05' }),
			replies,
		});
		expect(requests[0].body.person.document_number).toBe('39053344705');
	});

	it('drops blank optional fields instead of sending empty strings', async () => {
		const { requests } = await op.run({
			parameters: createParams({ additionalFields: { email: '', website: '  ' } }),
			replies,
		});
		expect(Object.keys(requests[0].body.person)).toEqual([
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
		const { error, requests, items } = await op.run({
			parameters: createParams(overrides),
			replies,
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent to FacilitaPay for this item.');
		expect(error.context.itemIndex).toBe(0);
	});

	it.each(['BR', 'BRA', 'Brasil', 'Colombia', 'Mexico'])(
		'sends Fiscal Country %s as typed, as FacilitaPay’s own examples write it',
		async (fiscalCountry) => {
			const { requests } = await op.run({
				parameters: createParams({ fiscalCountry }),
				replies,
			});
			expect(requests[0].body).toMatchObject({ person: { fiscal_country: fiscalCountry } });
		},
	);

	it.each(['BRA', 'Brasil'])(
		'applies the Brazilian address rules with Fiscal Country %s',
		async (fiscalCountry) => {
			const { error, requests } = await op.run({
				parameters: createParams({
					documentType: 'passport',
					documentNumber: 'AB123456',
					fiscalCountry,
					additionalFields: { addressPostalCode: '0131010' },
				}),
				replies,
			});
			expect(requests).toHaveLength(0);
			expect(error.message).toMatch(
				/Address Postal Code \(item 0\): has 7 digits; a CEP has 8 digits/,
			);
		},
	);

	it('accepts a CURP with a matching RFC', async () => {
		const { requests } = await op.run({
			parameters: createParams({
				documentType: 'curp',
				documentNumber: 'boxw310820hnerxn09',
				fiscalCountry: 'MX',
				additionalFields: { rfcPf: 'BOXW310820AB1' },
			}),
			replies,
		});
		expect(requests[0].body).toMatchObject({
			person: { document_number: 'BOXW310820HNERXN09', rfc_pf: 'BOXW310820AB1' },
		});
	});

	it('lists every broken field at once', async () => {
		const { error, requests } = await op.run({
			parameters: createParams({
				documentNumber: '123',
				additionalFields: { email: 'not-an-email' },
			}),
			replies,
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/^Invalid input \(item 0\): 2 fields need fixing: /);
		expect(error.message).toMatch(/Document Number: has 3 digits; a CPF has 11 digits/);
		expect(error.message).toMatch(/Email: is not an e-mail address/);
	});

	it('with Continue On Fail, an invalid item is reported with its index and valid ones are sent', async () => {
		const { items, requests, status } = await op.run({
			parameters: [
				createParams(),
				createParams({ documentNumber: '23100299900' }),
				createParams({ documentNumber: '70590071050' }),
			],
			continueOnFail: true,
			replies,
		});
		expect(status).toBe('success');
		expect(requests).toHaveLength(2);
		expect(requests.map((request) => request.body.person.document_number)).toEqual([
			'39053344705',
			'70590071050',
		]);
		expect(items[1].json.error).toMatch(/Invalid Document Number \(item 1\)/);
		expect(items.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

describe('Subject > Update', () => {
	it('sends only the fields to change with PUT', async () => {
		const { requests, items } = await op.run({
			parameters: update({ email: 'new@example.com', addressCity: 'São Paulo' }),
			replies,
		});
		expectOneRequest(
			requests,
			{
				method: 'PUT',
				route: PERSON,
				params: { id: SUBJECT_ID },
			},
			{
				person: { email: 'new@example.com', address_city: 'São Paulo' },
			},
		);
		expect(items[0].json.id).toBe(SUBJECT_ID);
	});

	it('refuses an update with no field to change', async () => {
		const { error, requests } = await op.run({ parameters: update({}), replies });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/no field to change/);
	});

	it('refuses a subject ID that is not a UUID', async () => {
		// Typed in the Subject field: n8n's locator check refuses it before the workflow starts.
		const typed = await op.run({ parameters: update({ email: 'a@b.co' }, '12'), replies });
		expect(typed.requests).toHaveLength(0);
		expect(typed.error.message).toMatch(/The 'FacilitaPay' node has issues/);
		expect(typed.error.message).toMatch(/Not a valid subject ID: it is a UUID/);
		// From an expression: the node's own check, naming the item.
		const fromExpression = await op.run({
			...fromItem(update({ email: 'a@b.co' }, '12'), ['subjectId']),
			replies,
		});
		expect(fromExpression.requests).toHaveLength(0);
		expect(fromExpression.error.message).toMatch(/Invalid Subject ID \(item 0\)/);
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
	const get = (simplify) => ({
		resource: 'subject',
		operation: 'get',
		subjectId: byId(SUBJECT_ID),
		simplify,
	});

	it('Get simplifies by default and returns everything when Simplify is off', async () => {
		const simple = await op.run({
			parameters: { resource: 'subject', operation: 'get', subjectId: byId(SUBJECT_ID) },
			replies: { [GET_PERSON]: { data: full } },
		});
		expect(simple.requests).toHaveLength(1);
		expect(simple.requests[0]).toMatchObject({
			method: 'GET',
			route: GET_PERSON,
			params: { id: SUBJECT_ID },
		});
		expect(simple.items[0].json).toEqual({
			id: SUBJECT_ID,
			status: 'approved',
			social_name: 'Maria',
		});
		const explicit = await op.run({
			parameters: get(true),
			replies: { [GET_PERSON]: { data: full } },
		});
		expect(explicit.items[0].json).toEqual(simple.items[0].json);
		const raw = await op.run({ parameters: get(false), replies: { [GET_PERSON]: { data: full } } });
		expect(raw.items[0].json).toEqual(full);
	});

	it('Get Many outputs one item per person', async () => {
		const { items, requests } = await op.run({
			parameters: {
				resource: 'subject',
				operation: 'getMany',
				returnAll: false,
				limit: 2,
				simplify: true,
			},
			replies: {
				[LIST_PEOPLE]: { data: [full, { ...full, id: 'other' }, { ...full, id: 'third' }] },
			},
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', route: LIST_PEOPLE });
		expect(items.map((o) => o.json.id)).toEqual([SUBJECT_ID, 'other']);
		expect(items.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('Get Transactions reads the subject’s transactions', async () => {
		const { items, requests } = await op.run({
			parameters: transactionsOf(),
			replies: {
				[TRANSACTIONS]: [
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
			},
		});
		expect(requests[0]).toMatchObject({
			method: 'GET',
			route: TRANSACTIONS,
			params: { id: SUBJECT_ID },
		});
		expect(items[0].json).toEqual({
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
		const all = await op.run({
			parameters: transactionsOf({ simplify: false }),
			replies: { [TRANSACTIONS]: [{ data: many }, { data: [] }] },
		});
		expect(all.requests).toHaveLength(1);
		expect(all.requests[0].query).toEqual({});
		expect(all.items).toHaveLength(120);
		const limited = await op.run({
			parameters: transactionsOf({ returnAll: false, limit: 5, simplify: false }),
			replies: { [TRANSACTIONS]: { data: many } },
		});
		expect(limited.requests).toHaveLength(1);
		expect(limited.items.map((o) => o.json.id)).toEqual(['t0', 't1', 't2', 't3', 't4']);
	});

	it('Get Transaction Values returns the totals', async () => {
		const { items, requests } = await op.run({
			parameters: {
				resource: 'subject',
				operation: 'getTransactionValues',
				subjectId: byId(SUBJECT_ID),
			},
			replies: { [VALUES]: { data: { total_value: '150.00', transactions_count: 3 } } },
		});
		expect(requests[0]).toMatchObject({ method: 'GET', route: VALUES, params: { id: SUBJECT_ID } });
		expect(items[0].json).toEqual({ total_value: '150.00', transactions_count: 3 });
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
	const uploaded = { [DOCUMENTS]: { data: { id: 'doc-1' } } };

	it('sends the binary file as Base64 with its detected type and name', async () => {
		const { requests, items } = await op.run({
			parameters: upload(),
			items: [binaryItem(pdf, 'proof.pdf', 'application/pdf')],
			replies: uploaded,
		});
		expectOneRequest(
			requests,
			{
				method: 'POST',
				route: DOCUMENTS,
				params: { id: SUBJECT_ID },
			},
			{
				document: {
					labels: ['address-proof'],
					file_type: 'application/pdf',
					file_name: 'proof.pdf',
					file_data: pdf.toString('base64'),
				},
			},
		);
		expect(items[0]).toMatchObject({ json: { id: 'doc-1' }, pairedItem: { item: 0 } });
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
		const { requests } = await op.run({
			parameters: upload(),
			items: [binaryItem(bytes, fileName, tag)],
			replies: uploaded,
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
		const { requests } = await op.run({
			parameters: upload({
				source: 'url',
				fileUrl: 'https://files.example.com/rg.png',
				fileType: 'image/png',
				labels: ['rg-photo'],
			}),
			replies: { [DOCUMENTS]: { data: { id: 'doc-2' } } },
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
			'no label (an expression giving none)',
			upload({ labels: '={{ [] }}' }),
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
		const { error, requests, items } = await op.run({
			parameters,
			items: [item],
			replies: { [DOCUMENTS]: { data: {} } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('no label typed in: n8n refuses the workflow before it starts', async () => {
		const { error, requests } = await op.run({
			parameters: upload({ labels: [] }),
			items: [binaryItem(pdf, 'proof.pdf', 'application/pdf')],
			replies: uploaded,
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
		expect(error.message).toMatch(/Parameter "Labels" is required/);
	});

	it('is not retried after a server error (it is not idempotent)', async () => {
		const { requests, error } = await op.run({
			parameters: upload(),
			items: [binaryItem(pdf, 'proof.pdf', 'application/pdf')],
			replies: { [DOCUMENTS]: [reply(503, 'Service Unavailable'), { data: {} }] },
		});
		expect(requests).toHaveLength(1);
		expect(waits).toHaveLength(0);
		expect(error.message).toMatch(/Outcome unknown \(item 0\)/);
	});
});
