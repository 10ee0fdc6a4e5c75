// Registration rules of people and companies, documents and the subject record, called on their
// own (no HTTP, no clock).
import { Errors } from '../../../sandbox/validation.mjs';
import { validatePersonFields } from '../../../sandbox/domain/subjects/personFields.mjs';
import {
	validateCompanyFields,
	validatePartners,
} from '../../../sandbox/domain/subjects/companyFields.mjs';
import {
	validateDocument,
	sniff,
	storedDocument,
} from '../../../sandbox/domain/subjects/documents.mjs';
import {
	applyFields,
	companyOwnFields,
	findByDocument,
	newSubject,
	personOwnFields,
} from '../../../sandbox/domain/subjects/records.mjs';

const NOW = Date.parse('2026-05-20T10:00:00Z');
const CPF = '39053344705';
const CNPJ = '16727230000197';
const PDF_BASE64 = Buffer.from('%PDF-1.4 sandbox').toString('base64');
const PNG_BASE64 = Buffer.from([
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0,
]).toString('base64');

/** The error map of a validator writing into an Errors collector. */
const collect = (validate) => {
	const errors = new Errors();
	validate(errors);
	return errors.map;
};

describe('person fields', () => {
	const person = {
		document_type: 'cpf',
		document_number: CPF,
		social_name: 'Maria da Silva',
		fiscal_country: 'BR',
	};
	const personErrors = (fields, options = {}) =>
		collect((errors) =>
			validatePersonFields(errors, { ...person, ...fields }, fields, { now: NOW, ...options }),
		);

	test('a person with document, name and fiscal country is valid', () => {
		expect(personErrors({})).toEqual({});
	});

	test.each([
		[{ birth_date: '2026-05-21' }, 'birth_date', 'cannot be in the future'],
		[{ birth_date: '2026-05-20' }, 'birth_date', null],
		[{ birth_date: '20/05/1990' }, 'birth_date', 'must be a date in the form YYYY-MM-DD'],
		[{ document_number: '39053344706' }, 'document_number', 'is not a valid CPF'],
		[
			{ document_type: 'cnpj', document_number: CNPJ },
			'document_type',
			'must be one of: cpf, curp, cc, ce, rut, passport',
		],
		[
			{ address_postal_code: '01310-100' },
			'address_postal_code',
			'must be 8 digits (Brazilian CEP), without dash',
		],
		[{ address_postal_code: '01310-100', address_country: 'MX' }, 'address_postal_code', null],
		[
			{ address_state: 'XX' },
			'address_state',
			expect.stringMatching(/^must be one of the 27 Brazilian states/),
		],
		[{ phone_country_code: '+55' }, 'phone_country_code', 'must be 2 digits (spec), e.g. "55"'],
		[
			{ net_monthly_average_income: '5000.123' },
			'net_monthly_average_income',
			expect.stringMatching(/^must be an amount/),
		],
		[{ email: 'maria@' }, 'email', 'is not a valid e-mail address'],
		[{ documents: {} }, 'documents', 'must be a list'],
	])('%p → %s: %p', (fields, field, message) => {
		expect(personErrors(fields)[field] ?? null).toEqual(message === null ? null : [message]);
	});

	test('an update may keep any document type (allTypes)', () => {
		expect(
			personErrors({ document_type: 'cnpj', document_number: CNPJ }, { allTypes: true }),
		).toEqual({});
	});
});

describe('company fields and partners', () => {
	const company = {
		document_type: 'cnpj',
		document_number: CNPJ,
		social_name: 'Loja Exemplo Ltda',
	};
	const partner = (share, fields = {}) => ({
		name: 'Ana',
		document_type: 'cpf',
		document_number: CPF,
		percentage_share: share,
		...fields,
	});

	test('a company needs only its document and legal name; a CNPJ counts as Brazilian', () => {
		expect(collect((errors) => validateCompanyFields(errors, company, NOW))).toEqual({});
		expect(
			collect((errors) =>
				validateCompanyFields(errors, { ...company, address_postal_code: '1' }, NOW),
			),
		).toEqual({
			address_postal_code: ['must be 8 digits (Brazilian CEP), without dash'],
		});
	});

	test.each([
		[
			{ document_type: 'cpf', document_number: CPF },
			'document_type',
			'must be one of: cnpj, nit, rfc, tax_id',
		],
		[
			{ document_type: 'rfc', document_number: 'AB010203XY1' },
			'document_number',
			'is not a valid RFC',
		],
		[{ social_name: '' }, 'social_name', "can't be blank"],
		[{ website: 42 }, 'website', 'must be a string'],
		[{ creation_date: '2027-01-01' }, 'creation_date', 'cannot be in the future'],
	])('%p → %s: %s', (fields, field, message) => {
		expect(
			collect((errors) => validateCompanyFields(errors, { ...company, ...fields }, NOW))[field],
		).toEqual([message]);
	});

	test.each([
		[
			'a Colombian company (NIT)',
			{ document_type: 'nit', document_number: '9001234567', fiscal_country: 'Colombia' },
		],
		[
			'a Mexican company (RFC of 12)',
			{ document_type: 'rfc', document_number: 'ABC010203XY1', fiscal_country: 'MEX' },
		],
		[
			'a Mexican sole trader (RFC of 13)',
			{ document_type: 'rfc', document_number: 'BOXW310820AB1', fiscal_country: 'Mexico' },
		],
	])('%s is registered', (_name, fields) => {
		expect(
			collect((errors) => validateCompanyFields(errors, { ...company, ...fields }, NOW)),
		).toEqual({});
	});

	test.each([
		[[partner('50'), partner('50')], null],
		[[partner('60.01'), partner('40')], 'percentage shares add up to more than 100'],
		[[partner('33.33'), partner('33.33'), partner('33.34')], null],
	])('partners %j → %p', (partners, message) => {
		expect(collect((errors) => validatePartners(errors, partners)).partners ?? null).toEqual(
			message === null ? null : [message],
		);
	});

	test('a partner is checked field by field', () => {
		expect(
			collect((errors) =>
				validatePartners(errors, [partner('10', { name: '', document_type: 'ssn' })]),
			),
		).toEqual({
			'partners[0].name': ["can't be blank"],
			'partners[0].document_type': [
				'must be one of: cc, ce, cnpj, cpf, curp, nit, passport, rfc, rut, tax_id',
			],
		});
	});
});

describe('documents', () => {
	const upload = (fields) => ({
		labels: ['address-proof'],
		file_type: 'application/pdf',
		file_name: 'proof.pdf',
		file_data: PDF_BASE64,
		...fields,
	});

	test('a valid upload returns its decoded size', () => {
		const errors = new Errors();
		expect(validateDocument(errors, upload({}))).toBe(Buffer.from(PDF_BASE64, 'base64').length);
		expect(errors.map).toEqual({});
	});

	test.each([
		[
			{ file_type: 'image/png' },
			'file_type',
			'does not match the file content (content looks like application/pdf)',
		],
		[
			{ file_type: 'image/jpeg', file_data: PNG_BASE64 },
			'file_type',
			'does not match the file content (content looks like image/png)',
		],
		[{ file_data: 'not base64!' }, 'file_data', 'is not valid Base64'],
		[{ file_name: 'proof' }, 'file_name', 'must include an extension, e.g. "proof.pdf"'],
		[
			{ file_url: 'https://example.com/p.pdf' },
			'file_url',
			'give either file_data or file_url, not both',
		],
		[{ labels: [] }, 'labels', "can't be blank"],
	])('%p → %s: %s', (fields, field, message) => {
		expect(collect((errors) => validateDocument(errors, upload(fields)))[field]).toEqual([message]);
	});

	test.each([
		['%PDF', 'application/pdf'],
		['GIF89a', 'image/gif'],
		['plain text', null],
	])('content starting %p is sniffed as %p', (start, type) => {
		expect(sniff(Buffer.from(start, 'latin1'))).toBe(type);
	});

	test('a stored document waits for analysis', () => {
		expect(
			storedDocument(upload({}), 12, { id: 'doc-1', now: '2026-05-20T10:00:00Z' }),
		).toMatchObject({
			id: 'doc-1',
			status: 'pending_analysis',
			file_url: null,
			size: 12,
		});
	});
});

describe('the subject record', () => {
	const made = { id: 'subject-1', now: '2026-05-20T10:00:00Z' };

	test('a new subject is approved at clearance level 1, with the fields sent and never a changed document', () => {
		const subject = newSubject(
			{ document_type: 'cpf', document_number: CPF, social_name: 'Maria', email: 'm@example.com' },
			personOwnFields(),
			made,
		);
		expect(subject).toMatchObject({
			id: 'subject-1',
			status: 'approved',
			clearance_level: 1,
			required_clearance_level: 1,
			social_name: 'Maria',
			email: 'm@example.com',
			birth_date: null,
			documents: [],
		});
		applyFields(
			subject,
			{ document_number: '00000000000', social_name: 'Maria S.' },
			'2026-05-21T00:00:00Z',
		);
		expect(subject).toMatchObject({
			document_number: CPF,
			social_name: 'Maria S.',
			updated_at: '2026-05-21T00:00:00Z',
		});
	});

	test('each company has a partner list of its own', () => {
		const first = newSubject(
			{ document_type: 'cnpj', document_number: CNPJ },
			companyOwnFields(),
			made,
		);
		const second = newSubject(
			{ document_type: 'cnpj', document_number: '11222333000181' },
			companyOwnFields(),
			made,
		);
		first.partners.push({ name: 'Ana' });
		expect(second.partners).toEqual([]);
	});

	test('a subject is found by document number within its kind, or of either kind', () => {
		const person = { id: 'p', document_number: '123' };
		const company = { id: 'c', document_number: '123', _kind: 'company' };
		expect(findByDocument([company, person], '123', 'person')).toBe(person);
		expect(findByDocument([person, company], '123', 'company')).toBe(company);
		expect(findByDocument([company, person], '123')).toBe(company);
		expect(findByDocument([person], '456')).toBeNull();
	});
});
