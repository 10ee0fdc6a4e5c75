import { documentSchema } from '../../../nodes/FacilitaPay/schemas/subject';
import { enableWebhooksSchema } from '../../../nodes/FacilitaPay/schemas/webhook';

describe('URL fields send the normalised URL that was checked', () => {
	it.each([
		['HTTPS://Hooks.Example.com/fp', 'https://hooks.example.com/fp'],
		[
			'  https://n8n.example.com/webhook/a/../facilitapay  ',
			'https://n8n.example.com/webhook/facilitapay',
		],
	])('webhook URL %j is sent as %j', (url, sent) => {
		expect(enableWebhooksSchema.parse({ url })).toEqual({ url: sent });
	});

	it.each([
		'http:example.com',
		'https:/host/hook',
		'https://example.com/\nhook',
		'https://exa mple.com',
	])('webhook URL %j is refused', (url) => {
		expect(enableWebhooksSchema.safeParse({ url }).success).toBe(false);
	});

	it('document URL is sent normalised', () => {
		const document = documentSchema.parse({
			labels: ['rg-photo'],
			file_type: 'image/png',
			file_url: 'HTTPS://Files.Example.com/rg.png',
		});
		expect(document.file_url).toBe('https://files.example.com/rg.png');
	});

	it.each([
		'http:files.example.com/rg.png',
		'https:/files.example.com/rg.png',
		'https://files.example.com/r g.png',
	])('document URL %j is refused', (fileUrl) => {
		const result = documentSchema.safeParse({
			labels: ['rg-photo'],
			file_type: 'image/png',
			file_url: fileUrl,
		});
		expect(result.success).toBe(false);
		expect(result.error?.issues[0].path).toEqual(['file_url']);
	});
});
