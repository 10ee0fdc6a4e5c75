import {
	personCreateSchema,
	personCreateSchemaFor,
	personUpdateSchema,
	personUpdateSchemaFor,
} from '../../../nodes/FacilitaPay/schemas/subject';

const passportHolder = (fields: Record<string, unknown> = {}) => ({
	document_type: 'passport',
	document_number: 'FX123456',
	social_name: 'Maria Souza',
	fiscal_country: 'BR',
	...fields,
});

function problems(result: {
	success: boolean;
	error?: { issues: Array<{ path: Array<string | number>; message: string }> };
}) {
	return (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]);
}

describe('personCreateSchema: Brazilian address rules', () => {
	it('refuses state XX for a passport holder whose fiscal country is BR (no address country given)', () => {
		const result = personCreateSchema.safeParse(passportHolder({ address_state: 'XX' }));
		expect(result.success).toBe(false);
		expect(problems(result)).toEqual([
			['address_state', expect.stringContaining('is not the code of a Brazilian state')],
		]);
	});

	it('refuses a 7-digit CEP when the fiscal country is written "Brasil"', () => {
		const result = personCreateSchema.safeParse(
			passportHolder({ fiscal_country: 'Brasil', address_postal_code: '0131010' }),
		);
		expect(problems(result)).toEqual([['address_postal_code', 'has 7 digits; a CEP has 8 digits']]);
	});

	it('normalises the state and CEP of a Brazilian address known from the fiscal country', () => {
		const person = personCreateSchema.parse(
			passportHolder({ address_state: 'sp', address_postal_code: '01310-100' }),
		);
		expect(person.address_state).toBe('SP');
		expect(person.address_postal_code).toBe('01310100');
	});

	it('applies the rules when the address country is Brazil, whatever the fiscal country', () => {
		const result = personCreateSchema.safeParse(
			passportHolder({ fiscal_country: 'US', address_country: 'BR', address_state: 'XX' }),
		);
		expect(problems(result)).toEqual([
			['address_state', expect.stringContaining('is not the code of a Brazilian state')],
		]);
	});

	it('lets the address country decide: a BR fiscal resident living in the US keeps state CA', () => {
		const person = personCreateSchema.parse(
			passportHolder({ address_country: 'US', address_state: 'CA', address_postal_code: '94105' }),
		);
		expect(person.address_state).toBe('CA');
	});

	it('does not apply Brazilian rules to a Mexican subject', () => {
		const person = personCreateSchema.parse({
			document_type: 'curp',
			document_number: 'BOXW310820HNERXN09',
			social_name: 'Juan Pérez',
			fiscal_country: 'MX',
			address_state: 'CDMX',
		});
		expect(person.address_state).toBe('CDMX');
	});

	it('still applies them to a CPF holder with no country given', () => {
		const result = personCreateSchema.safeParse({
			document_type: 'cpf',
			document_number: '39053344705',
			social_name: 'Maria Souza',
			fiscal_country: '',
			address_state: 'XX',
		});
		expect(problems(result)).toContainEqual([
			'address_state',
			expect.stringContaining('is not the code of a Brazilian state'),
		]);
	});

	it('refuses a state typed with letters Unicode would turn into ASCII ("ſp" is not SP)', () => {
		const result = personCreateSchema.safeParse(passportHolder({ address_state: 'ſp' }));
		expect(problems(result)).toEqual([
			['address_state', expect.stringContaining('is not the code of a Brazilian state')],
		]);
	});
});

describe('personCreateSchema: phone country code', () => {
	it.each(['55', '+55', '0055'])('accepts %j as 55', (code) => {
		expect(
			personCreateSchema.parse(passportHolder({ phone_country_code: code })).phone_country_code,
		).toBe('55');
	});

	it.each(['1', '+351'])('refuses %j: the spec says 2 digits', (code) => {
		const result = personCreateSchema.safeParse(passportHolder({ phone_country_code: code }));
		expect(problems(result)).toEqual([
			[
				'phone_country_code',
				expect.stringMatching(
					/^has [13] digits?; FacilitaPay takes a country calling code of 2 digits/,
				),
			],
		]);
	});
});

describe('personUpdateSchema: Brazilian address rules', () => {
	it('refuses state XX when the same update says the fiscal country is BR', () => {
		const result = personUpdateSchema.safeParse({ fiscal_country: 'BR', address_state: 'XX' });
		expect(problems(result)).toEqual([
			['address_state', expect.stringContaining('is not the code of a Brazilian state')],
		]);
	});

	it('refuses state XX when the address country is Brazil', () => {
		const result = personUpdateSchema.safeParse({ address_country: 'Brazil', address_state: 'XX' });
		expect(result.success).toBe(false);
	});
});

describe('birth date in the workflow’s time zone', () => {
	it('accepts yesterday’s local date where today has begun (Kiritimati, UTC+14)', () => {
		const now = new Date('2026-03-15T12:00:00Z'); // already 2026-03-16 in Kiritimati
		const options = { now, timeZone: 'Pacific/Kiritimati' };
		expect(
			personCreateSchemaFor(options).parse(passportHolder({ birth_date: '2026-03-15' })).birth_date,
		).toBe('2026-03-15');
		expect(personUpdateSchemaFor(options).parse({ birth_date: '2026-03-15' }).birth_date).toBe(
			'2026-03-15',
		);
		expect(
			personCreateSchemaFor({ now }).safeParse(passportHolder({ birth_date: '2026-03-15' }))
				.success,
		).toBe(false);
	});
});
