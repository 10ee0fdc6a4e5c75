import {
	checkEmail,
	checkIntegerInRange,
	checkNonEmpty,
	checkOneOf,
	checkUuid,
} from '../../../nodes/FacilitaPay/validation/misc';

describe('checkUuid', () => {
	it.each([
		['3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b', '3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b'],
		['  3F2B8C1E-9D4A-4F6B-8E2A-1C5D7E9F0A1B ', '3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b'],
		['00000000-0000-1000-0000-000000000000', '00000000-0000-1000-0000-000000000000'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkUuid(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter an id such as 3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b'],
		['3f2b8c1e9d4a4f6b8e2a1c5d7e9f0a1b', expect.stringContaining('groups 8-4-4-4-12')],
		['3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1', expect.stringContaining('groups 8-4-4-4-12')],
		['3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1g', expect.stringContaining('groups 8-4-4-4-12')],
		['{3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b}', expect.stringContaining('groups 8-4-4-4-12')],
	])('rejects %j', (raw, reason) => {
		expect(checkUuid(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkEmail', () => {
	it.each([
		['maria@example.com', 'maria@example.com'],
		['  Maria.Silva+pix@Example.com.br ', 'Maria.Silva+pix@Example.com.br'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkEmail(raw)).toEqual({ ok: true, value });
	});

	it.each([
		'',
		'maria',
		'maria@',
		'@example.com',
		'maria@example',
		'ma ria@example.com',
		'a@b@c.com',
		'maria@example..com',
		`${'a'.repeat(250)}@example.com`,
	])('rejects %j', (raw) => {
		expect(checkEmail(raw).ok).toBe(false);
	});
});

describe('checkNonEmpty', () => {
	it.each([
		[' hello ', 'hello'],
		['0', '0'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkNonEmpty(raw)).toEqual({ ok: true, value });
	});

	it.each(['', '   ', '\n\t'])('rejects %j', (raw) => {
		expect(checkNonEmpty(raw)).toEqual({ ok: false, reason: 'is empty; enter a value' });
	});
});

describe('checkIntegerInRange', () => {
	it.each([
		[0, 0, 3, '0'],
		[3, 0, 3, '3'],
		[2, 0, 3, '2'],
	])('accepts %j in [%j, %j]', (raw, min, max, value) => {
		expect(checkIntegerInRange(raw, min, max)).toEqual({ ok: true, value });
	});

	it.each([
		[4, 'is 4; enter a whole number from 0 to 3'],
		[-1, 'is -1; enter a whole number from 0 to 3'],
		[1.5, 'is 1.5; enter a whole number from 0 to 3'],
		[NaN, 'is not a number; enter a whole number from 0 to 3'],
		['2' as unknown as number, 'is not a number; enter a whole number from 0 to 3'],
	])('rejects %j', (raw, reason) => {
		expect(checkIntegerInRange(raw, 0, 3)).toEqual({ ok: false, reason });
	});
});

describe('checkOneOf', () => {
	const sizes = ['250x400', 'fullPage'];

	it.each([
		['fullPage', 'fullPage'],
		[' FULLPAGE ', 'fullPage'],
	])('accepts %j as %j', (raw, value) => {
		expect(checkOneOf(raw, sizes)).toEqual({ ok: true, value });
	});

	it('is case-sensitive on request', () => {
		expect(checkOneOf('FULLPAGE', sizes, { caseSensitive: true })).toEqual({
			ok: false,
			reason: 'is "FULLPAGE"; use one of 250x400, fullPage',
		});
	});

	it('lists the options when empty', () => {
		expect(checkOneOf('', sizes)).toEqual({
			ok: false,
			reason: 'is empty; use one of 250x400, fullPage',
		});
	});
});
