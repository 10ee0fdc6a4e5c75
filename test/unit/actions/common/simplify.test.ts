import {
	simplifySubject,
	simplifyTransaction,
} from '../../../../nodes/FacilitaPay/actions/common/simplify';
import { describePixCode } from '../../../../nodes/FacilitaPay/actions/transaction/pix.output';
import { SUBJECT_REPRESENTATION } from '../../../../nodes/FacilitaPay/schemas/subjectRepresentation';

// Simplify on a subject keeps what people act on, in the order FacilitaPay documents it; the
// trigger's KYC payload is split by the same list (SUBJECT_REPRESENTATION).
const subject = {
	id: 's-1',
	status: 'approved',
	social_name: 'Maria da Silva',
	document_type: 'cpf',
	document_number: '39053344705',
	fiscal_country: 'BR',
	email: 'maria@example.com',
	phone_number: '987654321',
	birth_date: '1990-05-17',
	net_monthly_average_income: '5000.00',
	clearance_level: 2,
	required_clearance_level: 1,
	references: [{ name: 'Ana' }],
	documents: [{ label: 'id_front' }],
	inserted_at: '2026-01-01T00:00:00Z',
	updated_at: '2026-01-02T00:00:00Z',
	address_street: 'Av. Paulista',
};

it('keeps the fields people act on, in the documented order, with inserted_at before updated_at', () => {
	const expected =
		'id status social_name document_type document_number fiscal_country email phone_number ' +
		'clearance_level required_clearance_level inserted_at updated_at';
	expect(Object.keys(simplifySubject(subject))).toEqual(expected.split(' '));
});

it('leaves out personal details, attachments and the address', () => {
	const simple = simplifySubject(subject);
	for (const key of ['birth_date', 'net_monthly_average_income', 'references', 'documents'])
		expect(simple).not.toHaveProperty(key);
	expect(simple).not.toHaveProperty('address_street');
});

it('every field it keeps is one of the documented subject fields or inserted_at', () => {
	const documented: readonly string[] = SUBJECT_REPRESENTATION;
	for (const key of Object.keys(simplifySubject(subject)))
		expect(documented.includes(key) || key === 'inserted_at').toBe(true);
});

describe('FacilitaPay’s real timestamps (microseconds, no zone: UTC)', () => {
	it('Simplify writes a subject’s times in UTC with their zone, and leaves a date alone', () => {
		const simple = simplifySubject({
			...subject,
			inserted_at: '2025-07-09T13:51:30.989491',
			updated_at: '2025-07-10T08:00:00.000001',
		});
		expect(simple).toMatchObject({
			inserted_at: '2025-07-09T13:51:30Z',
			updated_at: '2025-07-10T08:00:00Z',
		});
	});

	it('Simplify writes a transaction’s times in UTC, the docs’ form unchanged', () => {
		const simple = simplifyTransaction({
			id: 'tx-1',
			inserted_at: '2025-07-09T13:51:30.989491',
			canceled_at: '2025-07-09T14:00:00Z',
			meta: { dynamic_pix_due_date: '2025-07-09T14:51:30.5' },
		});
		expect(simple).toMatchObject({
			inserted_at: '2025-07-09T13:51:30Z',
			canceled_at: '2025-07-09T14:00:00Z',
			dynamic_pix_due_date: '2025-07-09T14:51:30Z',
		});
	});

	it('a PIX code’s expiry (pix_expires_at) comes out in UTC with its zone', () => {
		const described = describePixCode({
			dynamic_pix_code: '000201',
			meta: { dynamic_pix_due_date: '2025-07-09T14:51:30.989491' },
		});
		expect(described.pix_expires_at).toBe('2025-07-09T14:51:30Z');
	});

	it('a text that is not a time is shown as FacilitaPay wrote it', () => {
		expect(simplifyTransaction({ id: 'tx-2', inserted_at: 'yesterday' }).inserted_at).toBe(
			'yesterday',
		);
	});
});
