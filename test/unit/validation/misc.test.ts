import { checkEmail, checkUuid } from '../../../nodes/FacilitaPay/validation/misc';

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
