import {
	checkBirthDate,
	checkBoletoExpireAt,
	checkCardExpiration,
	checkDynamicPixExpiry,
	readServiceTime,
} from '../../../nodes/FacilitaPay/validation/dates';

const NOW = new Date('2026-03-15T12:00:00.000Z');

describe('checkDynamicPixExpiry', () => {
	it.each([
		['2026-11-22T10:00:00Z', '2026-11-22T10:00:00Z'],
		['2026-11-22T10:00:00', '2026-11-22T10:00:00Z'],
		['2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00Z'],
		['2026-11-22T10:00:00.999Z', '2026-11-22T10:00:00Z'],
		['2026-11-22T10:00:00.000+01:00', '2026-11-22T09:00:00Z'],
		['2026-11-22T10:00:00-03:00', '2026-11-22T13:00:00Z'],
		['2026-11-22T22:30:00-0300', '2026-11-23T01:30:00Z'],
		['2026-11-22T10:00', '2026-11-22T10:00:00Z'],
		['2026-11-22 10:00:00', '2026-11-22T10:00:00Z'],
		[' 2026-11-22t10:00:00z ', '2026-11-22T10:00:00Z'],
		['2028-02-29T00:00:00Z', '2028-02-29T00:00:00Z'],
		['2026-03-15T12:01:01Z', '2026-03-15T12:01:01Z'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkDynamicPixExpiry(raw, NOW)).toEqual({ ok: true, value });
	});

	it('refuses exactly 60 seconds ahead and accepts 61', () => {
		expect(checkDynamicPixExpiry('2026-03-15T12:01:00Z', NOW)).toEqual({
			ok: false,
			reason:
				'is only 60 seconds from now (2026-03-15T12:01:00Z); the PIX code must expire more than 1 minute from now',
		});
		expect(checkDynamicPixExpiry('2026-03-15T12:01:01Z', NOW).ok).toBe(true);
	});

	it('drops fractions of a second before comparing, as the service only sees whole seconds', () => {
		expect(checkDynamicPixExpiry('2026-03-15T12:01:00.900Z', NOW).ok).toBe(false);
	});

	it('compares against the exact current time, milliseconds included', () => {
		const now = new Date('2026-03-15T12:00:00.500Z');
		expect(checkDynamicPixExpiry('2026-03-15T12:01:01Z', now).ok).toBe(true);
		expect(checkDynamicPixExpiry('2026-03-15T12:01:00Z', now).ok).toBe(false);
	});

	it.each([
		[
			'2026-03-15T11:00:00Z',
			'is in the past (2026-03-15T11:00:00Z, 60 minutes ago); choose a time more than 1 minute from now',
		],
		['2026-03-15T12:00:00Z', expect.stringContaining('is in the past')],
		['2026-03-15T12:00:30Z', expect.stringContaining('is only 30 seconds from now')],
		['2026-03-15T14:00:00+02:00', expect.stringContaining('is in the past')],
	])('rejects %j', (raw, reason) => {
		expect(checkDynamicPixExpiry(raw, NOW)).toEqual({ ok: false, reason });
	});

	it.each([
		'tomorrow',
		'2026-11-22',
		'22/11/2026 10:00',
		'2026-02-29T10:00:00Z',
		'2026-13-01T10:00:00Z',
		'2026-11-31T10:00:00Z',
		'2026-11-22T24:00:00Z',
		'2026-11-22T10:60:00Z',
		'2026-11-22T10:00:60Z',
		'2026-11-22T10:00:00+25:00',
		'1764000000',
	])('shows the expected format for %j', (raw) => {
		expect(checkDynamicPixExpiry(raw, NOW)).toEqual({
			ok: false,
			reason:
				'is not a valid date and time; use the form YYYY-MM-DDThh:mm:ss (read in the workflow’s time zone) or add an offset, e.g. 2026-11-22T10:00:00Z',
		});
	});

	it.each([undefined, null, '', '   '])(
		'accepts "not given" (%j): the expiry is optional in the spec, and nothing is sent',
		(raw) => {
			expect(checkDynamicPixExpiry(raw as unknown as string, NOW)).toEqual({ ok: true, value: '' });
			expect(
				checkDynamicPixExpiry(raw as unknown as string, NOW, { timeZone: 'America/Sao_Paulo' }),
			).toEqual({ ok: true, value: '' });
		},
	);

	describe('in the workflow’s time zone', () => {
		const SAO_PAULO = { timeZone: 'America/Sao_Paulo' };

		it('reads a date-time without offset (what the date picker gives) in that zone', () => {
			expect(checkDynamicPixExpiry('2026-11-22T10:00:00', NOW, SAO_PAULO)).toEqual({
				ok: true,
				value: '2026-11-22T13:00:00Z',
			});
			expect(
				checkDynamicPixExpiry('2026-11-22T10:00:00', NOW, { timeZone: 'Europe/Berlin' }),
			).toEqual({ ok: true, value: '2026-11-22T09:00:00Z' });
		});

		it('accepts a time less than 3 hours ahead in São Paulo (it was refused as past when read as UTC)', () => {
			// NOW is 09:00 in São Paulo; the user picks 10:00 local, one hour ahead.
			expect(checkDynamicPixExpiry('2026-03-15T10:00:00', NOW, SAO_PAULO)).toEqual({
				ok: true,
				value: '2026-03-15T13:00:00Z',
			});
		});

		it('says the time was read in the zone when it is in the past', () => {
			expect(checkDynamicPixExpiry('2026-03-15T08:00:00', NOW, SAO_PAULO)).toEqual({
				ok: false,
				reason:
					'is in the past (2026-03-15T08:00:00 in America/Sao_Paulo is 2026-03-15T11:00:00Z, 60 minutes ago); choose a time more than 1 minute from now',
			});
		});

		it.each([
			['2026-11-22T10:00:00Z', '2026-11-22T10:00:00Z'],
			['2026-11-22T10:00:00.000+01:00', '2026-11-22T09:00:00Z'],
			['2026-11-22T10:00:00-03:00', '2026-11-22T13:00:00Z'],
		])('keeps the explicit offset of %j', (raw, value) => {
			expect(checkDynamicPixExpiry(raw, NOW, { timeZone: 'Asia/Tokyo' })).toEqual({
				ok: true,
				value,
			});
		});

		it('follows daylight saving time of the zone', () => {
			// New York: EST (-05:00) in January, EDT (-04:00) in July.
			const ny = { timeZone: 'America/New_York' };
			expect(checkDynamicPixExpiry('2027-01-10T10:00:00', NOW, ny)).toEqual({
				ok: true,
				value: '2027-01-10T15:00:00Z',
			});
			expect(checkDynamicPixExpiry('2026-07-10T10:00:00', NOW, ny)).toEqual({
				ok: true,
				value: '2026-07-10T14:00:00Z',
			});
		});

		it('reads "UTC" and no zone alike (the old behaviour)', () => {
			expect(checkDynamicPixExpiry('2026-11-22T10:00:00', NOW, { timeZone: 'UTC' })).toEqual(
				checkDynamicPixExpiry('2026-11-22T10:00:00', NOW),
			);
		});

		it('refuses an unknown time zone with a reason that says where to fix it', () => {
			expect(
				checkDynamicPixExpiry('2026-11-22T10:00:00', NOW, { timeZone: 'Mars/Olympus' }),
			).toEqual({
				ok: false,
				reason:
					'cannot be read because the time zone "Mars/Olympus" is not known; set a valid time zone (e.g. America/Sao_Paulo) in the workflow settings',
			});
		});
	});
});

describe('checkBoletoExpireAt', () => {
	it.each([
		['2026-03-15', '2026-03-15'],
		['2026-03-16', '2026-03-16'],
		[' 2026-12-31 ', '2026-12-31'],
		['2026-11-22T10:00:00.000+01:00', '2026-11-22'],
		['2028-02-29', '2028-02-29'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkBoletoExpireAt(raw, NOW)).toEqual({ ok: true, value });
	});

	it('uses the UTC date for today when no time zone is given', () => {
		const lateEvening = new Date('2026-03-15T23:30:00-03:00');
		expect(checkBoletoExpireAt('2026-03-15', lateEvening).ok).toBe(false);
		expect(checkBoletoExpireAt('2026-03-16', lateEvening).ok).toBe(true);
	});

	it('uses the local date in the workflow’s time zone for today', () => {
		// 23:30 on the 15th in São Paulo is already the 16th in UTC.
		const lateEvening = new Date('2026-03-15T23:30:00-03:00');
		const saoPaulo = { timeZone: 'America/Sao_Paulo' };
		expect(checkBoletoExpireAt('2026-03-15', lateEvening, saoPaulo)).toEqual({
			ok: true,
			value: '2026-03-15',
		});
		expect(checkBoletoExpireAt('2026-03-14', lateEvening, saoPaulo)).toEqual({
			ok: false,
			reason: 'is in the past (2026-03-14); the boleto must expire today (2026-03-15) or later',
		});
		// 01:00 on the 16th in Tokyo is still the 15th in UTC.
		const earlyTokyo = new Date('2026-03-16T01:00:00+09:00');
		expect(checkBoletoExpireAt('2026-03-15', earlyTokyo, { timeZone: 'Asia/Tokyo' }).ok).toBe(
			false,
		);
	});

	it.each([
		[
			'2026-03-14',
			'is in the past (2026-03-14); the boleto must expire today (2026-03-15) or later',
		],
		['', 'is empty; enter a date in the form YYYY-MM-DD, e.g. 2026-11-22'],
		['2027-02-29', 'is not a valid date; use the form YYYY-MM-DD, e.g. 2026-11-22'],
		['15/03/2026', 'is not a valid date; use the form YYYY-MM-DD, e.g. 2026-11-22'],
		['2026-3-20', 'is not a valid date; use the form YYYY-MM-DD, e.g. 2026-11-22'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkBoletoExpireAt(raw, NOW)).toEqual({ ok: false, reason });
	});
});

describe('checkBirthDate', () => {
	it.each([
		['1990-05-17', '1990-05-17'],
		['2000-02-29', '2000-02-29'],
		['2026-03-14', '2026-03-14'],
		['1990-05-17T00:00:00.000Z', '1990-05-17'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkBirthDate(raw, NOW)).toEqual({ ok: true, value });
	});

	it.each([
		['2026-03-15', 'is 2026-03-15, not in the past; a birth date must be before today'],
		['2030-01-01', 'is 2030-01-01, not in the past; a birth date must be before today'],
		['1900-02-29', 'is not a valid date; use the form YYYY-MM-DD, e.g. 1990-05-17'],
		['1899-12-31', 'is 1899-12-31, before 1900; check the year'],
		['17/05/1990', 'is not a valid date; use the form YYYY-MM-DD, e.g. 1990-05-17'],
		['', 'is empty; enter a date in the form YYYY-MM-DD, e.g. 1990-05-17'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkBirthDate(raw, NOW)).toEqual({ ok: false, reason });
	});

	it('uses today in the workflow’s time zone', () => {
		// NOW is already 2026-03-16 in Kiritimati (UTC+14).
		expect(checkBirthDate('2026-03-15', NOW).ok).toBe(false);
		expect(checkBirthDate('2026-03-15', NOW, { timeZone: 'Pacific/Kiritimati' })).toEqual({
			ok: true,
			value: '2026-03-15',
		});
	});
});

describe('checkCardExpiration', () => {
	it.each([
		['08/2029', '08/2029'],
		['08/29', '08/2029'],
		['8/2029', '08/2029'],
		[' 12 / 2026 ', '12/2026'],
		['03/2026', '03/2026'],
		['03/26', '03/2026'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkCardExpiration(raw, NOW)).toEqual({ ok: true, value });
	});

	it.each([
		['02/2026', 'is 02/2026: the card has expired'],
		['12/25', 'is 12/2025: the card has expired'],
		['13/2029', 'has month 13; the month goes from 01 to 12, e.g. 08/2029'],
		['00/2029', 'has month 00; the month goes from 01 to 12, e.g. 08/2029'],
		['2029-08', 'is not in the form MM/YYYY, e.g. 08/2029'],
		['08/229', 'is not in the form MM/YYYY, e.g. 08/2029'],
		['0829', 'is not in the form MM/YYYY, e.g. 08/2029'],
		['', 'is empty; enter the expiry as MM/YYYY, e.g. 08/2029'],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkCardExpiration(raw, NOW)).toEqual({ ok: false, reason });
	});

	it('uses the current month in the workflow’s time zone', () => {
		// 23:30 on 31 March in São Paulo is already April in UTC.
		const lastEvening = new Date('2026-03-31T23:30:00-03:00');
		expect(checkCardExpiration('03/2026', lastEvening).ok).toBe(false);
		expect(checkCardExpiration('03/2026', lastEvening, { timeZone: 'America/Sao_Paulo' })).toEqual({
			ok: true,
			value: '03/2026',
		});
	});
});

describe('readServiceTime: a time as FacilitaPay writes it', () => {
	it.each([
		['2025-07-09T13:51:30.989491', '2025-07-09T13:51:30.989Z'],
		['2025-07-09T13:51:30Z', '2025-07-09T13:51:30.000Z'],
		['2025-07-09T13:51:30.5-03:00', '2025-07-09T16:51:30.500Z'],
		['2025-07-09 13:51', '2025-07-09T13:51:00.000Z'],
		['2025-07-09', '2025-07-09T00:00:00.000Z'],
	])('reads %j as %s (no zone: UTC)', (raw, iso) => {
		expect(new Date(readServiceTime(raw) as number).toISOString()).toBe(iso);
	});

	it.each([undefined, 42, '', 'yesterday', '2025-13-45T99:00:00'])('cannot read %j', (raw) => {
		expect(readServiceTime(raw)).toBeUndefined();
	});
});
