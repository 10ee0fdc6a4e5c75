import { threedsChallengeSchema } from '../../../nodes/FacilitaPay/schemas/subscription';

describe('card expiry in the workflow’s time zone', () => {
	const card = {
		card_number: '4111111111111111',
		card_expiration_date: '03/2026',
		card_brand: 'visa',
		card_security_code: '123',
		fullname: 'Maria Souza',
	};
	// 23:30 on 31 March in São Paulo is already April in UTC.
	const lastEvening = new Date('2026-03-31T23:30:00-03:00');

	it('accepts a card of this month where the month has not ended yet', () => {
		const body = threedsChallengeSchema(lastEvening, { timeZone: 'America/Sao_Paulo' }).parse({
			credit_card: card,
		});
		expect(body.credit_card.card_expiration_date).toBe('03/2026');
	});

	it('reads the month in UTC when no time zone is given (the old form)', () => {
		expect(threedsChallengeSchema(lastEvening).safeParse({ credit_card: card }).success).toBe(
			false,
		);
	});
});
