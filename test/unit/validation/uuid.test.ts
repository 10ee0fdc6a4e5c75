import { checkUuid, isUuid, UUID_FIELD_REGEX } from '../../../nodes/FacilitaPay/validation/uuid';

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

describe('isUuid and the editor regex hold the same UUID rule', () => {
	it.each([
		['3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b', true],
		['3F2B8C1E-9D4A-4F6B-8E2A-1C5D7E9F0A1B', true],
		['3f2b8c1e9d4a4f6b8e2a1c5d7e9f0a1b', false],
		['3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1g', false],
		['', false],
	])('%j is a UUID: %j, in the editor and in the run', (text, expected) => {
		expect(isUuid(text)).toBe(expected);
		expect(new RegExp(UUID_FIELD_REGEX).test(` ${text} `)).toBe(expected);
		expect(checkUuid(text).ok).toBe(expected);
	});
});
