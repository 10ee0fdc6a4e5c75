import {
	checkPathId,
	isPathId,
	PATH_ID_FIELD_REGEX,
} from '../../../nodes/FacilitaPay/validation/pathId';

describe('checkPathId (an ID placed into a URL path)', () => {
	it.each([
		[
			'a sandbox UUID',
			'3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b',
			'3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b',
		],
		['letters, digits, "_" and "-"', 'wire_123-ABC', 'wire_123-ABC'],
		['spaces around it (trimmed)', '  abc123 ', 'abc123'],
		['a number (as text)', 42 as unknown as string, '42'],
		['128 characters', 'a'.repeat(128), 'a'.repeat(128)],
	])('accepts %s', (_name, raw, value) => {
		expect(checkPathId(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['"."', '.', /"\.".*another address/],
		['".."', '..', /"\.\.".*another address/],
		['"%2e"', '%2e', /percent-encoded/],
		['"%2E%2E"', '%2E%2E', /percent-encoded/],
		['a slash', 'abc/../def', /"\/"/],
		['a backslash', 'abc\\def', /"\\"/],
		['a question mark', 'abc?x=1', /"\?"/],
		['a hash', 'abc#x', /"#"/],
		['a dot inside', 'abc.def', /"\."/],
		['a space inside', 'abc def', /space/],
		['a newline', 'abc\ndef', /line break/],
		['a non-ASCII letter', 'abcß', /"ß"/],
		['129 characters', 'a'.repeat(129), /129 characters; an ID has at most 128/],
	])('refuses %s with a reason that says why', (_name, raw, reason) => {
		const result = checkPathId(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.reason).toMatch(reason);
			expect(result.reason).toMatch(/letters, digits, "-" and "_"|at most 128/);
		}
	});

	it.each([undefined, null, '', '   '])('refuses an empty value (%j)', (raw) => {
		expect(checkPathId(raw as unknown as string)).toEqual({
			ok: false,
			reason: 'is empty; enter the ID',
		});
	});

	describe('with { uuid: true } (where the spec says the ID is a UUID)', () => {
		it('accepts a UUID and returns it in lower case', () => {
			expect(checkPathId(' 3F2B8C1E-9D4A-4F6B-8E2A-1C5D7E9F0A1B ', { uuid: true })).toEqual({
				ok: true,
				value: '3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b',
			});
		});

		it.each(['..', '%2e', 'abc123', '3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b/..'])(
			'refuses %j',
			(raw) => {
				expect(checkPathId(raw, { uuid: true }).ok).toBe(false);
			},
		);

		it('says a UUID is expected', () => {
			expect(checkPathId('abc123', { uuid: true })).toEqual({
				ok: false,
				reason: expect.stringContaining('groups 8-4-4-4-12'),
			});
		});
	});
});

describe('isPathId and the editor regex hold the same path-ID rule', () => {
	it.each([
		['wire_123-ABC', true],
		['a'.repeat(128), true],
		['a'.repeat(129), false],
		['..', false],
		['abc/def', false],
		['%2e', false],
		['', false],
	])('%j may go into a path: %j, in the editor and in the run', (text, expected) => {
		expect(isPathId(text)).toBe(expected);
		expect(new RegExp(PATH_ID_FIELD_REGEX).test(` ${text} `)).toBe(expected);
		expect(checkPathId(text).ok).toBe(expected);
	});
});
