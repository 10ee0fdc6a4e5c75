import {
	checkBase64,
	checkDocumentFile,
	checkHttpUrl,
	checkLabels,
	detectFileType,
	DOCUMENT_LABELS,
	MAX_DOCUMENT_BYTES,
} from '../../../nodes/FacilitaPay/validation/files';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100, 0x20)]);
const PNG = Buffer.concat([
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	Buffer.alloc(100),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100)]);
const TEXT = Buffer.from('hello, this is not a document');
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(100)]);
const WEBP = Buffer.concat([
	Buffer.from('RIFF'),
	Buffer.from([0x24, 0, 0, 0]),
	Buffer.from('WEBPVP8 '),
	Buffer.alloc(100),
]);
const TIFF_LE = Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.alloc(100)]);
const TIFF_BE = Buffer.concat([Buffer.from([0x4d, 0x4d, 0x00, 0x2a]), Buffer.alloc(100)]);
const BMP = Buffer.concat([
	Buffer.from('BM'),
	Buffer.from([0x7e, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0]),
	Buffer.alloc(100),
]);
const heif = (brand: string) =>
	Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}`), Buffer.alloc(100)]);

function withSize(header: Buffer, size: number): Buffer {
	const bytes = Buffer.alloc(size);
	header.copy(bytes);
	return bytes;
}

describe('detectFileType', () => {
	it.each<[string, Buffer, string | undefined]>([
		['a PDF', PDF, 'application/pdf'],
		['a PNG', PNG, 'image/png'],
		['a JPEG', JPEG, 'image/jpeg'],
		['text', TEXT, undefined],
		['an empty buffer', Buffer.alloc(0), undefined],
		['a GIF', GIF, 'image/gif'],
		['a WebP image', WEBP, 'image/webp'],
		['a TIFF (Intel byte order)', TIFF_LE, 'image/tiff'],
		['a TIFF (Motorola byte order)', TIFF_BE, 'image/tiff'],
		['a BMP', BMP, 'image/bmp'],
		['a HEIC photo (iPhone)', heif('heic'), 'image/heic'],
		['a HEIF image', heif('mif1'), 'image/heif'],
		['an MP4 video (ftyp, another brand)', heif('isom'), undefined],
		['a text starting with "BM"', Buffer.from('BMW is a car maker, not a bitmap'), undefined],
		['a RIFF that is not WebP (WAV)', Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '), undefined],
		['a truncated PNG signature', Buffer.from([0x89, 0x50, 0x4e, 0x47]), undefined],
	])('recognises %s', (_name, bytes, type) => {
		expect(detectFileType(bytes)).toBe(type);
	});
});

describe('checkDocumentFile', () => {
	it.each<[string, Buffer, string, string | undefined, string, string]>([
		['a PDF without declared type', PDF, 'proof.pdf', undefined, 'application/pdf', 'proof.pdf'],
		[
			'a PDF declared as such',
			PDF,
			' proof.pdf ',
			'application/pdf',
			'application/pdf',
			'proof.pdf',
		],
		['a PNG declared in capitals', PNG, 'rg.png', 'IMAGE/PNG', 'image/png', 'rg.png'],
		['a JPEG declared as image/jpg', JPEG, 'rg.jpeg', 'image/jpg', 'image/jpeg', 'rg.jpeg'],
		['an empty declared type', JPEG, 'rg.jpg', '', 'image/jpeg', 'rg.jpg'],
		[
			'a PDF tagged application/octet-stream (n8n’s tag for a file of unknown type)',
			PDF,
			'proof.pdf',
			'application/octet-stream',
			'application/pdf',
			'proof.pdf',
		],
		[
			'a JPEG tagged binary/octet-stream',
			JPEG,
			'rg.jpg',
			'binary/octet-stream',
			'image/jpeg',
			'rg.jpg',
		],
		[
			'a PNG tagged as a PDF: the content decides',
			PNG,
			'rg.png',
			'application/pdf',
			'image/png',
			'rg.png',
		],
		[
			'a PDF tagged image/jpeg: the content decides',
			PDF,
			'proof.pdf',
			'image/jpeg',
			'application/pdf',
			'proof.pdf',
		],
		[
			'a HEIC photo tagged application/octet-stream',
			heif('heic'),
			'IMG_0001.HEIC',
			'application/octet-stream',
			'image/heic',
			'IMG_0001.HEIC',
		],
		['a WebP image', WEBP, 'rg.webp', undefined, 'image/webp', 'rg.webp'],
		['a TIFF scan', TIFF_LE, 'scan.tif', 'image/tiff', 'image/tiff', 'scan.tif'],
		[
			'a format not sniffed, with its own tag (the service checks the content)',
			TEXT,
			'notes.txt',
			'text/plain; charset=utf-8',
			'text/plain',
			'notes.txt',
		],
		[
			'a file of exactly 15 MB',
			withSize(PDF, MAX_DOCUMENT_BYTES),
			'big.pdf',
			undefined,
			'application/pdf',
			'big.pdf',
		],
	])('accepts %s', (_name, bytes, fileName, declaredType, fileType, cleanName) => {
		expect(checkDocumentFile({ bytes, fileName, declaredType })).toEqual({
			ok: true,
			fileType,
			fileName: cleanName,
		});
	});

	it.each<[string, Buffer, string, string | undefined, string, string]>([
		[
			'a file over 15 MB',
			withSize(PDF, 16 * 1024 * 1024),
			'big.pdf',
			undefined,
			'file_data',
			'is 16.0 MB; the limit is 15 MB per file, so send a smaller or compressed file',
		],
		[
			'a file one byte over the limit',
			withSize(PDF, MAX_DOCUMENT_BYTES + 1),
			'big.pdf',
			undefined,
			'file_data',
			'is 15.1 MB; the limit is 15 MB per file, so send a smaller or compressed file',
		],
		[
			'an empty file',
			Buffer.alloc(0),
			'a.pdf',
			undefined,
			'file_data',
			'is empty; choose a file with content',
		],
		[
			'unknown content tagged application/octet-stream',
			TEXT,
			'notes.bin',
			'application/octet-stream',
			'file_data',
			'is a kind of file that cannot be told from its content, and its binary data has no file type (application/octet-stream); set the MIME type on the binary data (e.g. application/pdf) or send a PDF, PNG, JPEG, GIF, WebP, TIFF, BMP or HEIC/HEIF file',
		],
		[
			'unknown content without a tag',
			TEXT,
			'notes.bin',
			undefined,
			'file_data',
			'is a kind of file that cannot be told from its content, and its binary data has no file type; set the MIME type on the binary data (e.g. application/pdf) or send a PDF, PNG, JPEG, GIF, WebP, TIFF, BMP or HEIC/HEIF file',
		],
		[
			'a name without extension',
			PDF,
			'proof',
			undefined,
			'file_name',
			'has no extension; add one that matches the file, e.g. proof.pdf',
		],
		[
			'a name ending with a dot',
			PNG,
			'photo.',
			undefined,
			'file_name',
			'has no extension; add one that matches the file, e.g. photo.png',
		],
		[
			'a name that is only an extension',
			JPEG,
			'.jpg',
			undefined,
			'file_name',
			'has no extension; add one that matches the file, e.g. document.jpg',
		],
		[
			'an empty name',
			JPEG,
			'  ',
			undefined,
			'file_name',
			'is empty; enter a name with an extension, e.g. document.jpg',
		],
	])('rejects %s', (_name, bytes, fileName, declaredType, field, reason) => {
		expect(checkDocumentFile({ bytes, fileName, declaredType })).toEqual({
			ok: false,
			field,
			reason,
		});
	});
});

describe('checkBase64', () => {
	it.each([
		['aGVsbG8=', 'aGVsbG8='],
		['aGVs\nbG8h', 'aGVsbG8h'],
		['  aGVsbA== ', 'aGVsbA=='],
		['a+/b', 'a+/b'],
		['data:application/pdf;base64,JVBERi0=', 'JVBERi0='],
	])('accepts %j as %j', (raw, value) => {
		expect(checkBase64(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter the file content encoded in Base64'],
		['   ', 'is empty; enter the file content encoded in Base64'],
		[
			'aGVsbG8',
			'has a length that is not a multiple of 4, so it is not complete Base64; the text may have been cut off',
		],
		[
			'aGVs*G8=',
			'contains characters that are not Base64; Base64 uses only letters, digits, "+", "/" and "=" at the end',
		],
		[
			'aGV=bG8=',
			'contains characters that are not Base64; Base64 uses only letters, digits, "+", "/" and "=" at the end',
		],
		[
			'a-_b',
			'uses the URL-safe Base64 alphabet ("-" and "_"); the service needs standard Base64 with "+" and "/"',
		],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkBase64(raw)).toEqual({ ok: false, reason });
	});
});

describe('checkHttpUrl', () => {
	it.each([
		['https://example.com/file.pdf', 'https://example.com/file.pdf'],
		[' http://files.example.com.br/a%20b.png?x=1 ', 'http://files.example.com.br/a%20b.png?x=1'],
		['HTTPS://EXAMPLE.COM/x', 'https://example.com/x'],
		['https://example.com', 'https://example.com/'],
		['https://n8n.example.com:5678/webhook/fp', 'https://n8n.example.com:5678/webhook/fp'],
		['https://exämple.com/a', 'https://xn--exmple-cua.com/a'],
	])('accepts %j and returns the normalised URL %j', (raw, value) => {
		expect(checkHttpUrl(raw)).toEqual({ ok: true, value });
	});

	it.each([
		['', 'is empty; enter a web address such as https://example.com/file.pdf'],
		[
			'example.com/file.pdf',
			'is not a web address: it does not start with http:// or https://; enter the full address, e.g. https://example.com/file.pdf',
		],
		[
			'ftp://example.com/file.pdf',
			'starts with ftp:; the address must start with http:// or https://, e.g. https://example.com/file.pdf',
		],
		[
			'file:///etc/passwd',
			'starts with file:; the address must start with http:// or https://, e.g. https://example.com/file.pdf',
		],
		[
			'https://',
			'has no host name after https://; enter the full address, e.g. https://example.com/file.pdf',
		],
	])('rejects %j: %s', (raw, reason) => {
		expect(checkHttpUrl(raw)).toEqual({ ok: false, reason });
	});

	it.each([
		['a scheme without slashes', 'http:example.com', /does not start with http:\/\/ or https:\/\//],
		[
			'a scheme with one slash',
			'https:/host/file.pdf',
			/does not start with http:\/\/ or https:\/\//,
		],
		[
			'a backslash for the slashes',
			'https:\\\\host/file.pdf',
			/does not start with http:\/\/ or https:\/\//,
		],
		['a space in the host', 'https://exa mple.com/a', /contains a space/],
		['a space in the path', 'https://example.com/my file.pdf', /contains a space; .*%20/],
		['a newline inside', 'https://example.com/a\nb', /contains a line break/],
		['a trailing newline', 'https://example.com/a.pdf\n', /contains a line break/],
		['a tab inside', 'https://exam\tple.com/a', /contains a tab/],
		['a backslash in the path', 'https://example.com\\@evil.com/a', /contains "\\"/],
		['two addresses', 'https://a.com https://b.com', /contains a space/],
		['no host after the scheme', 'http:///file.pdf', /has no host name/],
	])('refuses %s (%j) with a readable reason', (_name, raw, reason) => {
		const result = checkHttpUrl(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});

	it('returns exactly the URL that was checked, always starting with http:// or https://', () => {
		for (const raw of [
			'HTTP://Example.com',
			'https://example.com/a/../b',
			'https://example.com:443/x',
		]) {
			const result = checkHttpUrl(raw);
			expect(result.ok).toBe(true);
			if (result.ok) {
				expect(result.value).toMatch(/^https?:\/\//);
				expect(new URL(result.value).href).toBe(result.value);
			}
		}
		expect(checkHttpUrl('https://example.com/a/../b')).toEqual({
			ok: true,
			value: 'https://example.com/b',
		});
		expect(checkHttpUrl('https://example.com:443/x')).toEqual({
			ok: true,
			value: 'https://example.com/x',
		});
	});

	it('uses the example it is given (the webhook URL)', () => {
		expect(checkHttpUrl('http:hooks', 'https://n8n.example.com/webhook/facilitapay')).toEqual({
			ok: false,
			reason:
				'is not a web address: it does not start with http:// or https://; enter the full address, e.g. https://n8n.example.com/webhook/facilitapay',
		});
	});
});

describe('checkLabels', () => {
	it('knows the six labels in use, sorted, each one a label it accepts as it is', () => {
		expect(DOCUMENT_LABELS).toHaveLength(6);
		expect([...DOCUMENT_LABELS].sort()).toEqual([...DOCUMENT_LABELS]);
		expect(DOCUMENT_LABELS).toEqual(
			expect.arrayContaining(['address-proof', 'revenue-tax-declaration', 'rg-photo']),
		);
		for (const label of DOCUMENT_LABELS) {
			expect(checkLabels(label)).toEqual({ ok: true, value: [label] });
		}
	});

	it.each<[string[] | string, string[]]>([
		[['rg-number'], ['rg-number']],
		[
			['rg-number', 'rg-photo'],
			['rg-number', 'rg-photo'],
		],
		['rg-number, rg-photo', ['rg-number', 'rg-photo']],
		[' RG-Number ,, cpf-number ,', ['rg-number', 'cpf-number']],
		[['rg-photo', 'rg-photo'], ['rg-photo']],
		['selfie-2026', ['selfie-2026']],
	])('accepts %j as %j', (raw, value) => {
		expect(checkLabels(raw)).toEqual({ ok: true, value });
	});

	it.each<[string[] | string, string]>([
		[[], 'is empty; enter at least one label'],
		['', 'is empty; enter at least one label'],
		[' , ', 'is empty; enter at least one label'],
		[
			['rg_number'],
			'contains "rg_number", which is not a label; labels use lower-case letters, digits and dashes, e.g. rg-number',
		],
		[
			'address proof',
			'contains "address proof", which is not a label; labels use lower-case letters, digits and dashes, e.g. address-proof',
		],
		[['-rg'], 'contains "-rg", which is not a label'],
	])('rejects %j', (raw, reason) => {
		const result = checkLabels(raw);
		expect(result.ok).toBe(false);
		expect(result.ok ? '' : result.reason).toContain(reason);
	});
});
