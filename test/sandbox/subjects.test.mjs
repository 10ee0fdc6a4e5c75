import {
	useSandbox,
	person,
	createPerson,
	PDF_BASE64,
	PNG_BASE64,
	dynamicPix,
	ACCOUNT_IDS,
} from './helpers.mjs';

const t = useSandbox();

const post = (p) => t.api('POST', '/subject/people', { person: p });
/** A person with only the required fields (and `extra`), identified by the document given. */
const postDocument = (document_type, document_number, fiscal_country, extra = {}) =>
	post({ document_type, document_number, social_name: 'Test Person', fiscal_country, ...extra });

describe('registration', () => {
	test('a new person is approved at clearance level 1, with the sent fields', async () => {
		const r = await post(person());
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			status: 'approved',
			clearance_level: 1,
			required_clearance_level: 1,
			document_type: 'cpf',
			document_number: '39053344705',
			social_name: 'Maria da Silva',
			documents: [],
			references: [],
		});
	});

	test.each([
		['cpf', '70590071050'],
		['curp', 'BOXW310820HNERXN09'],
		['cc', '1234567890'],
		['ce', '123456'],
		['rut', '123456785'],
		['passport', 'X1234567'],
	])('a valid %s (%s) is accepted', async (type, number) => {
		const r = await postDocument(type, number, 'MX');
		expect(r.status).toBe(200);
	});

	test.each([
		['cpf', '23100299900', 'is not a valid CPF'],
		[
			'cpf',
			'390.533.447-05',
			'must contain only digits and letters, without dots, dashes, slashes or spaces',
		],
		['curp', 'BOXW310820HNERXN08', 'is not a valid CURP'],
		['cc', '12345', 'must have 6 to 10 digits (Colombian CC)'],
		['ce', '12345678901', 'must have 6 to 10 digits (Colombian CE)'],
		['rut', '123456784', 'is not a valid RUT'],
		['passport', '', "can't be blank"],
	])('an invalid %s (%s) answers 422 on document_number', async (type, number, message) => {
		const r = await postDocument(type, number, 'CL');
		expect(r.status).toBe(422);
		expect(r.json).toEqual({ errors: { document_number: [message] } });
	});

	test('an unknown document type and missing required fields are named', async () => {
		const r = await post({ document_type: 'dni', document_number: '1' });
		expect(r.status).toBe(422);
		expect(Object.keys(r.json.errors).sort()).toEqual([
			'document_type',
			'fiscal_country',
			'social_name',
		]);
	});

	test('a missing person object answers 422', async () => {
		const r = await t.api('POST', '/subject/people', {});
		expect(r.json).toEqual({ errors: { person: ["can't be blank"] } });
	});

	test('the RFC must start with the first 10 characters of the CURP', async () => {
		const withRfc = (rfc_pf) => postDocument('curp', 'BOXW310820HNERXN09', 'MX', { rfc_pf });
		expect((await withRfc('BOXW310820AB1')).status).toBe(200);
		const r = await withRfc('BOXA310820AB1');
		expect(r.status).toBe(422);
		expect(r.json.errors.rfc_pf).toEqual([
			'its first 10 characters must equal the first 10 characters of the CURP',
		]);
	});

	test('a Brazilian address takes one of the 27 states and an 8-digit CEP', async () => {
		expect((await post(person({ address_state: 'TO' }))).status).toBe(200);
		const r = await post(person({ address_state: 'XX', address_postal_code: '01304-000' }));
		expect(r.status).toBe(422);
		expect(r.json.errors.address_state[0]).toMatch(
			/^must be one of the 27 Brazilian states: AC, AL/,
		);
		expect(r.json.errors.address_postal_code).toEqual([
			'must be 8 digits (Brazilian CEP), without dash',
		]);
	});

	test('the phone country code has 2 digits, as the spec says', async () => {
		expect((await post(person({ phone_country_code: '52' }))).status).toBe(200);
		for (const code of ['1', '351']) {
			const r = await post(person({ phone_country_code: code }));
			expect(r.status).toBe(422);
			expect(r.json.errors.phone_country_code).toEqual(['must be 2 digits (spec), e.g. "55"']);
		}
	});

	test('other field formats: e-mail, birth date, income', async () => {
		const r = await post(
			person({
				email: 'not-an-email',
				birth_date: '1990-02-30',
				net_monthly_average_income: '5000,00',
			}),
		);
		expect(r.json.errors).toEqual({
			email: ['is not a valid e-mail address'],
			birth_date: ['must be a date in the form YYYY-MM-DD'],
			net_monthly_average_income: [
				'must be an amount as a string with at most two decimals, e.g. "5000" or "5000.00"',
			],
		});
	});

	test('an income without decimals is accepted, as the service’s own examples write it (live docs)', async () => {
		const r = await post(person({ net_monthly_average_income: '4000' }));
		expect(r.status).toBe(200);
		expect(r.json.data.net_monthly_average_income).toBe('4000');
	});

	test('registering an existing document number updates that person (same id)', async () => {
		const first = await createPerson(t);
		const again = await post(person({ social_name: 'Maria Souza' }));
		expect(again.json.data.id).toBe(first.id);
		expect(again.json.data.social_name).toBe('Maria Souza');
		expect((await t.api('GET', '/subject/people')).json.data).toHaveLength(1);
	});
});

describe('read and update', () => {
	test('GET by id; unknown id answers 404 not_found', async () => {
		const p = await createPerson(t);
		expect((await t.api('GET', `/subject/people/${p.id}`)).json.data.id).toBe(p.id);
		const r = await t.api('GET', '/subject/people/00000000-0000-4000-8000-000000000000');
		expect(r.status).toBe(404);
		expect(r.json).toEqual({ error: 'not_found' });
	});

	test('PUT changes fields but never document_number or document_type', async () => {
		const p = await createPerson(t);
		const ok = await t.api('PUT', `/subject/people/${p.id}`, {
			person: { email: 'new@example.com' },
		});
		expect(ok.json.data.email).toBe('new@example.com');
		const r = await t.api('PUT', `/subject/people/${p.id}`, {
			person: { document_number: '70590071050', document_type: 'passport' },
		});
		expect(r.status).toBe(422);
		expect(r.json).toEqual({
			errors: { document_number: ['cannot be updated'], document_type: ['cannot be updated'] },
		});
		const bad = await t.api('PUT', `/subject/people/${p.id}`, { person: { address_state: 'ZZ' } });
		expect(bad.status).toBe(422);
	});

	test('the list pages by 100 with last_id (keyset, insertion order)', async () => {
		for (let i = 0; i < 102; i++) {
			await post({
				document_type: 'passport',
				document_number: `P${String(i).padStart(4, '0')}`,
				social_name: `Person ${i}`,
				fiscal_country: 'US',
			});
		}
		const p1 = (await t.api('GET', '/subject/people')).json.data;
		expect(p1).toHaveLength(100);
		expect(p1[0].document_number).toBe('P0000');
		const p2 = (await t.api('GET', `/subject/people?last_id=${p1[99].id}`)).json.data;
		expect(p2.map((p) => p.document_number)).toEqual(['P0100', 'P0101']);
		const p3 = (await t.api('GET', `/subject/people?last_id=${p2[1].id}`)).json.data;
		expect(p3).toEqual([]);
	});

	test('malformed JSON answers 400 with an error text', async () => {
		const r = await t.api('POST', '/subject/people', '{"person": ');
		expect(r.status).toBe(400);
		expect(r.json.error).toMatch(/^Malformed JSON in request body/);
	});
});

describe('documents upload', () => {
	let subjectId;
	beforeEach(async () => (subjectId = (await createPerson(t)).id));
	const upload = (document) => t.api('POST', `/subject/${subjectId}/documents`, { document });

	test('a PDF in Base64 is stored on the subject', async () => {
		const r = await upload({
			labels: ['address-proof'],
			file_type: 'application/pdf',
			file_data: PDF_BASE64,
			file_name: 'proof.pdf',
		});
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			labels: ['address-proof'],
			file_type: 'application/pdf',
			file_name: 'proof.pdf',
		});
		expect((await t.api('GET', `/subject/people/${subjectId}`)).json.data.documents).toHaveLength(
			1,
		);
	});

	test('a PNG and a file_url are accepted', async () => {
		expect(
			(
				await upload({
					labels: ['rg-photo'],
					file_type: 'image/png',
					file_data: PNG_BASE64,
					file_name: 'rg.png',
				})
			).status,
		).toBe(200);
		expect(
			(
				await upload({
					labels: ['rg-photo'],
					file_type: 'image/jpeg',
					file_url: 'https://example.com/rg.jpg',
				})
			).status,
		).toBe(200);
	});

	test.each([
		[
			'a HEIC photo',
			'image/heic',
			Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(16)]),
			'IMG_0001.heic',
		],
		[
			'a WebP image',
			'image/webp',
			Buffer.concat([
				Buffer.from('RIFF'),
				Buffer.alloc(4),
				Buffer.from('WEBPVP8 '),
				Buffer.alloc(16),
			]),
			'rg.webp',
		],
		[
			'a format the sandbox does not sniff, with its MIME type',
			'text/plain',
			Buffer.from('declaration 2025'),
			'notes.txt',
		],
	])(
		'any MIME type that matches the content is accepted (the spec has no list): %s',
		async (_name, fileType, bytes, fileName) => {
			const r = await upload({
				labels: ['x'],
				file_type: fileType,
				file_data: bytes.toString('base64'),
				file_name: fileName,
			});
			expect(r.status).toBe(200);
			expect(r.json.data).toMatchObject({ file_type: fileType, file_name: fileName });
		},
	);

	test.each([
		[
			{
				labels: ['x'],
				file_type: 'application/octet-stream',
				file_data: PDF_BASE64,
				file_name: 'a.pdf',
			},
			{ file_type: ['does not match the file content (content looks like application/pdf)'] },
		],
		[
			{
				labels: ['x'],
				file_type: 'image/png',
				file_data: Buffer.from('plain text').toString('base64'),
				file_name: 'a.png',
			},
			{ file_type: ['does not match the file content (content looks like an unknown type)'] },
		],
		[
			{ labels: ['x'], file_type: 'pdf', file_data: PDF_BASE64, file_name: 'a.pdf' },
			{ file_type: ['must be a MIME type such as application/pdf'] },
		],
		[
			{ file_type: 'application/pdf', file_data: PDF_BASE64, file_name: 'a.pdf' },
			{ labels: ["can't be blank"] },
		],
		[
			{ labels: ['x'], file_data: PDF_BASE64, file_name: 'a.pdf' },
			{ file_type: ["can't be blank"] },
		],
		[
			{ labels: ['x'], file_type: 'application/pdf', file_data: PDF_BASE64, file_name: 'proof' },
			{ file_name: ['must include an extension, e.g. "proof.pdf"'] },
		],
		[
			{ labels: ['x'], file_type: 'application/pdf', file_data: 'not base64!', file_name: 'a.pdf' },
			{ file_data: ['is not valid Base64'] },
		],
		[
			{ labels: ['x'], file_type: 'image/png', file_data: PDF_BASE64, file_name: 'a.png' },
			{ file_type: ['does not match the file content (content looks like application/pdf)'] },
		],
		[
			{ labels: ['x'], file_type: 'application/pdf', file_url: 'ftp://example.com/a.pdf' },
			{ file_url: ['must start with http:// or https://'] },
		],
		[
			{ labels: ['x'], file_type: 'application/pdf' },
			{ file_data: ["can't be blank: give file_data (Base64) with file_name, or file_url"] },
		],
	])('an invalid upload answers 400 %#', async (doc, errors) => {
		const r = await upload(doc);
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ errors });
	});

	test('a file above 15 MB decoded is refused', async () => {
		const big = Buffer.alloc(15 * 1024 * 1024 + 3);
		big.write('%PDF-1.4');
		const r = await upload({
			labels: ['x'],
			file_type: 'application/pdf',
			file_data: big.toString('base64'),
			file_name: 'big.pdf',
		});
		expect(r.status).toBe(400);
		expect(r.json.errors.file_data[0]).toMatch(
			/^is too large \(15728643 bytes decoded; at most 15 MB\)$/,
		);
	});

	test('unknown subject answers 404', async () => {
		const r = await t.api('POST', '/subject/00000000-0000-4000-8000-000000000000/documents', {
			document: {},
		});
		expect(r.status).toBe(404);
	});
});

describe('approval state machine', () => {
	test('above 20k USD a year with a mandatory document missing, the next payment is held and events are sent; approval releases it', async () => {
		const p = await createPerson(t);
		// 100 000.00 BRL = 20 000.00 USD at the sandbox rate
		const first = await t.api('POST', '/transactions', dynamicPix(p.id, { value: '100000.00' }));
		expect(first.json.data.cleared).toBe(true);
		// an unpaid QR code is not "transacted": the limit is not reached yet
		expect(
			(await t.api('POST', '/transactions', dynamicPix(p.id, { value: '1.00' }))).json.data.cleared,
		).toBe(true);
		await t.control('POST', `/transactions/${first.json.data.id}/pay`, {});
		const second = await t.api('POST', '/transactions', dynamicPix(p.id, { value: '10.00' }));
		expect(second.json.data.cleared).toBe(false);
		expect((await t.api('GET', `/subject/people/${p.id}`)).json.data).toMatchObject({
			status: 'reproved',
			required_clearance_level: 2,
		});
		const ev = (await t.events()).filter((e) => e.type !== 'identified');
		expect(ev.map((e) => e.type)).toEqual(['subject_reproved', 'document_required']);
		expect(ev[0]).toMatchObject({
			subject_id: p.id,
			items: ['proof_of_address_missing', 'tax_declaration_insufficient'],
		});
		expect(ev[1]).toMatchObject({
			required_documents: ['proof_of_address', 'revenue_tax_declaration'],
		});
		// while reproved, further payments stay held
		expect(
			(await t.api('POST', '/transactions', dynamicPix(p.id, { value: '1.00' }))).json.data.cleared,
		).toBe(false);
		// uploading a document moves the subject to waiting_approval
		await t.api('POST', `/subject/${p.id}/documents`, {
			document: {
				labels: ['address-proof'],
				file_type: 'application/pdf',
				file_data: PDF_BASE64,
				file_name: 'a.pdf',
			},
		});
		expect((await t.api('GET', `/subject/people/${p.id}`)).json.data.status).toBe(
			'waiting_approval',
		);
		const approved = await t.control('POST', `/subjects/${p.id}/approve`);
		expect(approved.json.data).toMatchObject({ status: 'approved', clearance_level: 2 });
		expect(approved.json.data.released_transaction_ids).toHaveLength(2);
		expect((await t.api('GET', `/transactions/${second.json.data.id}`)).json.data.cleared).toBe(
			true,
		);
		expect((await t.events()).at(-1)).toMatchObject({ type: 'subject_approved', subject_id: p.id });
	});

	test('with the mandatory documents present, the limit does not hold payments', async () => {
		const p = await createPerson(t, {
			documents: [
				{
					labels: ['address-proof'],
					file_type: 'application/pdf',
					file_data: PDF_BASE64,
					file_name: 'a.pdf',
				},
				{
					labels: ['revenue-tax-declaration'],
					file_type: 'application/pdf',
					file_url: 'https://example.com/tax.pdf',
				},
			],
		});
		const big = (await t.api('POST', '/transactions', dynamicPix(p.id, { value: '200000.00' })))
			.json.data;
		await t.control('POST', `/transactions/${big.id}/pay`, {});
		expect(
			(await t.api('POST', '/transactions', dynamicPix(p.id, { value: '10.00' }))).json.data
				.cleared,
		).toBe(true);
	});

	test('the back office reproves with items and a reason', async () => {
		const p = await createPerson(t);
		const r = await t.control('POST', `/subjects/${p.id}/reprove`, {
			items: ['old_tax_declaration'],
			reason: 'Declaration from 2019',
		});
		expect(r.json.data.status).toBe('reproved');
		expect((await t.events()).at(-1)).toEqual(
			expect.objectContaining({
				type: 'subject_reproved',
				subject_id: p.id,
				items: ['old_tax_declaration'],
				reason: 'Declaration from 2019',
			}),
		);
		expect((await t.api('POST', '/transactions', dynamicPix(p.id))).json.data.cleared).toBe(false);
	});

	test('transactions and transaction_values of a subject', async () => {
		const p = await createPerson(t);
		const pix = (await t.api('POST', '/transactions', dynamicPix(p.id, { value: '100.00' }))).json
			.data;
		await t.control('POST', `/transactions/${pix.id}/pay`, {});
		await t.api('POST', '/transactions', dynamicPix(p.id, { value: '999.00' })); // unpaid: not counted
		await t.api('POST', '/transactions', {
			transaction: {
				subject_id: p.id,
				from_bank_account_id: ACCOUNT_IDS.usdCashOut,
				to_bank_account_id: ACCOUNT_IDS.brlCustomer,
				currency: 'USD',
				exchange_currency: 'BRL',
				value: '10.00',
			},
		});
		expect((await t.api('GET', `/subject/${p.id}/transactions`)).json.data).toHaveLength(3);
		expect((await t.api('GET', `/subject/${p.id}/transaction_values`)).json).toEqual({
			data: { total_value: '150.00', currency: 'BRL', transactions_count: 2 },
		});
	});
});
