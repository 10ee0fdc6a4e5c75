import { clock } from '../../../nodes/FacilitaPay/clock';
import { companySchemaIn } from '../../../nodes/FacilitaPay/schemas/company';
import {
	personCreateSchemaIn,
	personUpdateSchemaIn,
} from '../../../nodes/FacilitaPay/schemas/subject';

// The operations check items with a schema built once per time zone. A schema built earlier must
// still judge a date by the time of the check, and by its own time zone.
afterEach(() => jest.restoreAllMocks());

const person = (birth_date: string) => ({
	document_type: 'passport',
	document_number: 'FX123456',
	social_name: 'Maria Souza',
	fiscal_country: 'BR',
	birth_date,
});

it('is built once per time zone and reused', () => {
	expect(personCreateSchemaIn('America/Sao_Paulo')).toBe(personCreateSchemaIn('America/Sao_Paulo'));
	expect(personCreateSchemaIn('Pacific/Kiritimati')).not.toBe(
		personCreateSchemaIn('America/Sao_Paulo'),
	);
	expect(companySchemaIn('UTC')).toBe(companySchemaIn('UTC'));
});

it('reads the clock when an item is checked, not when the schema was built', () => {
	const now = jest.spyOn(clock, 'now').mockReturnValue(new Date('2026-03-14T12:00:00Z'));
	const schema = personUpdateSchemaIn('UTC');
	expect(schema.safeParse({ birth_date: '2026-03-15' }).success).toBe(false);
	now.mockReturnValue(new Date('2026-03-16T12:00:00Z'));
	expect(personUpdateSchemaIn('UTC').safeParse({ birth_date: '2026-03-15' }).success).toBe(true);
});

it('judges "today" in its own time zone (already the 16th in Kiritimati at 12:00 UTC on the 15th)', () => {
	jest.spyOn(clock, 'now').mockReturnValue(new Date('2026-03-15T12:00:00Z'));
	expect(personCreateSchemaIn('Pacific/Kiritimati').safeParse(person('2026-03-15')).success).toBe(
		true,
	);
	expect(personCreateSchemaIn('UTC').safeParse(person('2026-03-15')).success).toBe(false);
});
