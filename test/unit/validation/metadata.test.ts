import { checkMetadata, METADATA_MAX_BYTES } from '../../../nodes/FacilitaPay/validation/metadata';

describe('checkMetadata', () => {
	it.each([
		['{"order_id": "1001"}', { order_id: '1001' }],
		[
			{ order_id: 1001, tags: ['a'] },
			{ order_id: 1001, tags: ['a'] },
		],
		['', {}],
		['  ', {}],
		[undefined, {}],
		['{}', {}],
	])('accepts %j as %j', (raw, value) => {
		expect(checkMetadata(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['{order_id: 1}', 'is not valid JSON; write an object such as {"order_id": "1001"}'],
		['[1, 2]', 'is a list; write an object such as {"order_id": "1001"}'],
		['"1001"', 'is a string; write an object such as {"order_id": "1001"}'],
		[42, 'is a number; write an object such as {"order_id": "1001"}'],
	])('refuses %j: %s', (raw, reason) => {
		expect(checkMetadata(raw)).toEqual({ ok: false, reason });
	});

	it('refuses a key the node keeps there itself', () => {
		expect(checkMetadata({ n8n_facilitapay_ref: 'x', a: 1 }, ['n8n_facilitapay_ref'])).toEqual({
			ok: false,
			reason:
				"uses n8n_facilitapay_ref, which the node keeps there itself (the payment's identity); rename your key",
		});
	});

	it('refuses more than 8 kB as JSON, counted in bytes (UTF-8), and takes exactly the limit', () => {
		const fits = { note: 'x'.repeat(METADATA_MAX_BYTES - '{"note":""}'.length) };
		expect(checkMetadata(fits).ok).toBe(true);
		const accented = { note: 'é'.repeat(METADATA_MAX_BYTES / 2) };
		const result = checkMetadata(accented);
		expect(result.ok).toBe(false);
		expect(result.ok ? '' : result.reason).toMatch(
			/^is 8203 bytes as JSON; keep it to at most 8192/,
		);
	});
});
