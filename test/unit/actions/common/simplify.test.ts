import { simplifySubject } from '../../../../nodes/FacilitaPay/actions/common/simplify';
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
