import { checkEmail } from '../../../nodes/FacilitaPay/validation/email';

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
