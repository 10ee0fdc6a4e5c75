// The audit of issue 19 (spec against node), subject side, on n8n's engine: each defect as the
// behaviour that now holds, asserted on the request that left (or did not) and the error a user
// reads. Lists and numbers reach the node as n8n users give them: through expressions.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { SUBJECT_ID } from '../../../fixtures/subjects.js';
import { person as create, update } from './lib.mjs';

const PEOPLE = 'POST /subject/people';
const PERSON = 'PUT /subject/people/:id';
const created = { data: { id: SUBJECT_ID, status: 'approved' } };
const replies = { [PEOPLE]: created, [PERSON]: created };

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

const op = useOperations();
const waits = skipRetryWaits();

const sentPerson = (request) => request.body.person;

/** Documents given as a list by an expression (`={{ $json.documents }}`) reading the item. */
const withDocuments = (parameters, documents, collection = 'additionalFields') => ({
	parameters: {
		...parameters,
		[collection]: { ...parameters[collection], documents: '={{ $json.documents }}' },
	},
	items: [{ json: { documents } }],
});

describe('Subject Update: the Brazilian address rules', () => {
	it('Subject Update sends a CEP written 01310-100 as its 8 digits even when the update names no country', async () => {
		const { requests, error } = await op.run({
			parameters: update({ addressPostalCode: '01310-100', addressState: 'sp' }),
			replies,
		});
		expect(error).toBeUndefined();
		expect(requests[0]).toMatchObject({ method: 'PUT', route: PERSON, params: { id: SUBJECT_ID } });
		expect(sentPerson(requests[0])).toEqual({
			address_postal_code: '01310100',
			address_state: 'SP',
		});
	});

	it('Subject Update applies the Brazilian rules in full when the update names Brazil', async () => {
		const refused = await op.run({
			parameters: update({
				addressCountry: 'BR',
				addressPostalCode: '0131-100',
				addressState: 'XX',
			}),
			replies,
		});
		expect(refused.requests).toHaveLength(0);
		expect(refused.error.message).toMatch(/Address Postal Code: .*CEP has 8 digits/);
		expect(refused.error.message).toMatch(/Address State: is not the code of a Brazilian state/);
	});

	it('Subject Update applies the Brazilian rules when the update names a Brazilian fiscal country', async () => {
		const { requests } = await op.run({
			parameters: update({ fiscalCountry: 'Brasil', addressPostalCode: '01.310-100' }),
			replies,
		});
		expect(sentPerson(requests[0]).address_postal_code).toBe('01310100');
	});

	it('Subject Update leaves a foreign postal code as typed when the update names another country', async () => {
		const { requests } = await op.run({
			parameters: update({
				addressCountry: 'MX',
				addressPostalCode: '06600',
				addressState: 'CDMX',
			}),
			replies,
		});
		expect(sentPerson(requests[0])).toMatchObject({
			address_postal_code: '06600',
			address_state: 'CDMX',
		});
	});
});

describe('Subject Create and Update: documents given inline', () => {
	const pdfDocument = (overrides = {}) => ({
		file_type: 'application/octet-stream',
		file_name: 'proof.pdf',
		file_data: PDF.toString('base64'),
		...overrides,
	});

	it('inline documents are sent without labels: labels are required only by Upload Document', async () => {
		const { requests } = await op.run({
			parameters: create({ documents: JSON.stringify([pdfDocument()]) }),
			replies,
		});
		expect(requests[0].route).toBe(PEOPLE);
		expect(sentPerson(requests[0]).documents).toEqual([
			{ file_type: 'application/pdf', file_name: 'proof.pdf', file_data: PDF.toString('base64') },
		]);
	});

	it('an inline document takes its type from its content, as Upload Document does', async () => {
		const { requests } = await op.run({
			...withDocuments(
				update({}),
				[pdfDocument({ file_type: 'image/png', labels: ['Address-Proof'] })],
				'updateFields',
			),
			replies,
		});
		expect(sentPerson(requests[0]).documents).toEqual([
			{
				labels: ['address-proof'],
				file_type: 'application/pdf',
				file_name: 'proof.pdf',
				file_data: PDF.toString('base64'),
			},
		]);
	});

	it('an inline document over 15 MB is refused before sending, as Upload Document refuses it', async () => {
		const big = Buffer.concat([PNG, Buffer.alloc(15 * 1024 * 1024)]);
		const { error, requests } = await op.run({
			...withDocuments(create(), [
				{ file_type: 'image/png', file_name: 'photo.png', file_data: big.toString('base64') },
			]),
			replies,
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/File Data \(entry 1\)/);
		expect(error.message).toMatch(/the limit is 15 MB per file/);
	});

	it('an inline document whose content cannot be recognised needs a real MIME type', async () => {
		const { error, requests } = await op.run({
			...withDocuments(create(), [
				{
					file_type: 'application/octet-stream',
					file_name: 'notes.bin',
					file_data: Buffer.from('just text').toString('base64'),
				},
			]),
			replies,
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/cannot be told from its content/);
	});

	it('an inline document by URL needs its file type; one with labels still follows the label rules', async () => {
		const noType = await op.run({
			...withDocuments(create(), [{ file_url: 'https://example.com/proof.pdf' }]),
			replies,
		});
		expect(noType.requests).toHaveLength(0);
		expect(noType.error.message).toMatch(/File Type \(entry 1\)/);
		const badLabel = await op.run({
			...withDocuments(create(), [
				{ file_url: 'https://example.com/p.pdf', file_type: 'application/pdf', labels: ['a b!'] },
			]),
			replies,
		});
		expect(badLabel.requests).toHaveLength(0);
		expect(badLabel.error.message).toMatch(/Labels \(entry 1\)/);
	});

	it('Create with documents is sent once: a 503 is not retried (documents would be appended twice)', async () => {
		const { error, requests } = await op.run({
			...withDocuments(create(), [pdfDocument()]),
			replies: { [PEOPLE]: [reply(503, { error: 'service_unavailable' }), created] },
		});
		expect(requests).toHaveLength(1);
		expect(waits).toHaveLength(0);
		expect(error.message).toMatch(/Outcome unknown/);
	});

	it('Update with documents is sent once; Update without documents is still retried as idempotent', async () => {
		const unavailableOnce = { [PERSON]: [reply(503, { error: 'service_unavailable' }), created] };
		const once = await op.run({
			...withDocuments(update({}), [pdfDocument()], 'updateFields'),
			replies: unavailableOnce,
		});
		expect(once.requests).toHaveLength(1);
		expect(once.error.message).toMatch(/Outcome unknown/);
		const retried = await op.run({
			parameters: update({ email: 'maria@example.com' }),
			replies: unavailableOnce,
		});
		expect(retried.error).toBeUndefined();
		expect(retried.requests).toHaveLength(2);
		expect(retried.items[0].json.id).toBe(SUBJECT_ID);
	});
});

describe('Subject: input the service accepts', () => {
	it('numbers from expressions are accepted for address number and phone', async () => {
		const { requests } = await op.run({
			parameters: create({
				addressNumber: '={{ $json.number }}',
				phoneNumber: '={{ $json.phone }}',
				phoneAreaCode: '={{ $json.area }}',
				phoneCountryCode: '={{ $json.country }}',
			}),
			items: [{ json: { number: 1000, phone: 987654321, area: 11, country: 55 } }],
			replies,
		});
		expect(sentPerson(requests[0])).toMatchObject({
			address_number: '1000',
			phone_number: '987654321',
			phone_area_code: '11',
			phone_country_code: '55',
		});
	});

	it('a fraction given as address number or phone is refused rather than rounded', async () => {
		const { error, requests } = await op.run({
			parameters: create({
				addressNumber: '={{ $json.number }}',
				phoneNumber: '={{ $json.phone }}',
			}),
			items: [{ json: { number: 12.5, phone: 9876.5 } }],
			replies,
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Address Number: is 12.5, not a whole number/);
		expect(error.message).toMatch(/Phone Number: is not a whole number/);
	});

	it('the phone rule is the sandbox rule: 4 to 15 digits once spaces, dashes and brackets are removed', async () => {
		const { requests } = await op.run({
			parameters: create({ phoneNumber: ' (98765) 4321 ' }),
			replies,
		});
		expect(sentPerson(requests[0]).phone_number).toBe('987654321');
		for (const phone of ['123', '1234567890123456', '98765-43a1', '+5511987654321']) {
			const refused = await op.run({ parameters: create({ phoneNumber: phone }), replies });
			expect(refused.requests).toHaveLength(0);
			expect(refused.error.message).toMatch(/Invalid Phone Number/);
		}
	});

	it.each([
		['4000', '4000.00'],
		['4000.5', '4000.50'],
		['4000.50', '4000.50'],
		['0', '0.00'],
	])(
		'an income written %s (the service’s own examples have no decimals) is sent as %s',
		async (income, sent) => {
			const { requests } = await op.run({
				parameters: create({ netMonthlyAverageIncome: income }),
				replies,
			});
			expect(sentPerson(requests[0]).net_monthly_average_income).toBe(sent);
		},
	);

	it('an empty Address State is not sent (no silent SP), a Mexican state is sent as typed', async () => {
		const empty = await op.run({ parameters: create({ addressState: '' }), replies });
		expect(sentPerson(empty.requests[0])).not.toHaveProperty('address_state');
		const mexican = await op.run({
			parameters: create(
				{ addressState: 'Ciudad de México', addressCountry: 'MX' },
				{ documentType: 'curp', documentNumber: 'BOXW310820HNERXN09', fiscalCountry: 'MX' },
			),
			replies,
		});
		expect(sentPerson(mexican.requests[0]).address_state).toBe('Ciudad de México');
	});
});
