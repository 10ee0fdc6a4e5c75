import { invalid, valid, type Check } from './result';
import { asciiLowerCase, describeCharacter } from './text';

/** The service accepts document files of at most 15 MB each. */
export const MAX_DOCUMENT_BYTES = 15 * 1024 * 1024;

/**
 * File types recognised from their content (magic bytes), with the name a person knows them by
 * and the extension suggested for a file name.
 *
 * The spec gives no closed list of formats for `POST /subject/:id/documents`: `file_type` is "a
 * MIME type; must match the file content". So the content decides the type for these formats,
 * and a format not in this list is sent with the type its binary data carries.
 */
export const DOCUMENT_FILE_TYPES = {
	'application/pdf': { name: 'PDF document', extension: '.pdf' },
	'image/bmp': { name: 'BMP image', extension: '.bmp' },
	'image/gif': { name: 'GIF image', extension: '.gif' },
	'image/heic': { name: 'HEIC image', extension: '.heic' },
	'image/heif': { name: 'HEIF image', extension: '.heif' },
	'image/jpeg': { name: 'JPEG image', extension: '.jpg' },
	'image/png': { name: 'PNG image', extension: '.png' },
	'image/tiff': { name: 'TIFF image', extension: '.tif' },
	'image/webp': { name: 'WebP image', extension: '.webp' },
} as const;

export type DocumentFileType = keyof typeof DOCUMENT_FILE_TYPES;

const RECOGNISED_TEXT = 'PDF, PNG, JPEG, GIF, WebP, TIFF, BMP or HEIC/HEIF';

/** Tags that say nothing about the content (n8n gives application/octet-stream to unknown files). */
const GENERIC_TYPES = new Set([
	'',
	'application/octet-stream',
	'binary/octet-stream',
	'application/binary',
	'application/x-binary',
	'application/unknown',
	'application/x-unknown',
	'application/download',
	'application/force-download',
]);

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'heif']);

/** Recognises a document or image file by its first bytes (magic numbers). */
export function detectFileType(bytes: Buffer): DocumentFileType | undefined {
	if (!bytes || bytes.length < 3) return undefined;
	const ascii = (from: number, to: number) => bytes.subarray(from, to).toString('latin1');
	if (bytes.length >= 5 && ascii(0, 5) === '%PDF-') return 'application/pdf';
	if (
		bytes.length >= 8 &&
		bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
	) {
		return 'image/png';
	}
	if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
	if (bytes.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a'))
		return 'image/gif';
	if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
	if (
		bytes.length >= 4 &&
		((bytes[0] === 0x49 && bytes[1] === 0x49 && bytes[2] === 0x2a && bytes[3] === 0x00) ||
			(bytes[0] === 0x4d && bytes[1] === 0x4d && bytes[2] === 0x00 && bytes[3] === 0x2a))
	) {
		return 'image/tiff';
	}
	// BMP: "BM", the file size, 4 reserved zero bytes, then the offset of the pixels.
	if (
		bytes.length >= 14 &&
		ascii(0, 2) === 'BM' &&
		bytes.readUInt32LE(6) === 0 &&
		bytes.readUInt32LE(10) >= 26
	) {
		return 'image/bmp';
	}
	// HEIF family (ISO base media file): a box "ftyp" at offset 4, then the major brand.
	if (bytes.length >= 12 && ascii(4, 8) === 'ftyp') {
		const brand = ascii(8, 12);
		if (HEIC_BRANDS.has(brand)) return 'image/heic';
		if (HEIF_BRANDS.has(brand)) return 'image/heif';
	}
	return undefined;
}

/** Reads a declared MIME type leniently: trimmed, lower-cased, parameters dropped, image/jpg → image/jpeg. */
function normaliseDeclaredType(declared: string): string {
	const type = declared.split(';')[0].trim().toLowerCase();
	if (type === 'image/jpg' || type === 'image/pjpeg') return 'image/jpeg';
	if (type === 'image/x-png') return 'image/png';
	return type;
}

/** Size in MB with one decimal, rounded up so that a file over the limit never reads "15.0 MB". */
function megabytes(bytes: number): string {
	return `${(Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1)} MB`;
}

export type DocumentFileCheck =
	| { ok: true; fileType: string; fileName: string }
	| { ok: false; field: 'file_data' | 'file_name' | 'file_type'; reason: string };

/**
 * Checks a document before upload (`POST /subject/:id/documents`): the file is not empty and at
 * most 15 MB (the size of the file itself, not of its Base64 text), and the file name has an
 * extension. The file type is decided by the content, not by the tag the binary data carries
 * (`declaredType`, often `application/octet-stream`): a format recognised by detectFileType is
 * sent with its own MIME type whatever the tag says; another format is sent with its tag when the
 * tag names a type, and refused when the tag says nothing (empty or octet-stream), since the
 * service needs a MIME type that matches the content.
 * On success `fileType` is the MIME type to send and `fileName` the trimmed name.
 */
export function checkDocumentFile(input: {
	bytes: Buffer;
	fileName: string;
	declaredType?: string;
}): DocumentFileCheck {
	const { bytes } = input;
	if (!bytes || bytes.length === 0) {
		return { ok: false, field: 'file_data', reason: 'is empty; choose a file with content' };
	}
	if (bytes.length > MAX_DOCUMENT_BYTES) {
		return {
			ok: false,
			field: 'file_data',
			reason: `is ${megabytes(bytes.length)}; the limit is 15 MB per file, so send a smaller or compressed file`,
		};
	}
	const declaredText = String(input.declaredType ?? '').trim();
	const declared = normaliseDeclaredType(declaredText);
	let fileType: string | undefined = detectFileType(bytes);
	if (fileType === undefined) {
		if (GENERIC_TYPES.has(declared) || !/^[a-z]+\/[a-z0-9][a-z0-9.+-]*$/.test(declared)) {
			const tag = declaredText === '' ? 'has no file type' : `has no file type (${declaredText})`;
			return {
				ok: false,
				field: 'file_data',
				reason: `is a kind of file that cannot be told from its content, and its binary data ${tag}; set the MIME type on the binary data (e.g. application/pdf) or send a ${RECOGNISED_TEXT} file`,
			};
		}
		fileType = declared;
	}
	const extension =
		fileType in DOCUMENT_FILE_TYPES
			? DOCUMENT_FILE_TYPES[fileType as DocumentFileType].extension
			: `.${fileType.split('/')[1].split(/[.+-]/)[0]}`;
	const fileName = String(input.fileName ?? '').trim();
	if (fileName === '') {
		return {
			ok: false,
			field: 'file_name',
			reason: `is empty; enter a name with an extension, e.g. document${extension}`,
		};
	}
	if (!/[^./\\]\.[A-Za-z0-9]{1,10}$/.test(fileName)) {
		const base = /^\.[A-Za-z0-9]*$/.test(fileName) ? 'document' : fileName.replace(/\.+$/, '');
		return {
			ok: false,
			field: 'file_name',
			reason: `has no extension; add one that matches the file, e.g. ${base}${extension}`,
		};
	}
	return { ok: true, fileType, fileName };
}

/**
 * Base64 text (standard alphabet, padded). Whitespace and line breaks are ignored and removed; a
 * `data:…;base64,` prefix (as copied from a browser) is removed too. `value` is the clean text.
 */
export function checkBase64(raw: string): Check {
	let text = String(raw ?? '').replace(/\s+/g, '');
	const dataUrl = /^data:[^,]*;base64,/i.exec(text);
	if (dataUrl) text = text.slice(dataUrl[0].length);
	if (text === '') return invalid('is empty; enter the file content encoded in Base64');
	if (/[-_]/.test(text) && /^[A-Za-z0-9\-_]+=*$/.test(text)) {
		return invalid(
			'uses the URL-safe Base64 alphabet ("-" and "_"); the service needs standard Base64 with "+" and "/"',
		);
	}
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
		return invalid(
			'contains characters that are not Base64; Base64 uses only letters, digits, "+", "/" and "=" at the end',
		);
	}
	if (text.length % 4 !== 0) {
		return invalid(
			'has a length that is not a multiple of 4, so it is not complete Base64; the text may have been cut off',
		);
	}
	return valid(text);
}

/**
 * A public web address (document URL, webhook URL). `example` is the address shown in the reasons
 * (a file by default; a webhook URL where one is asked for).
 *
 * The text must itself start with `http://` or `https://` followed by a host: browsers and HTTP
 * clients repair `http:example.com`, `https:/host` or `https:\\host` into some address, and drop
 * line breaks and tabs inside a URL, so what was checked would not be what is sent. Spaces at the
 * ends are removed; any other space, tab, line break or backslash is refused. `value` is the URL
 * in its normalised form (lower-case scheme and host, default port and `.`/`..` segments removed,
 * international host names in punycode), which is what must be sent.
 */
export function checkHttpUrl(raw: string, example = 'https://example.com/file.pdf'): Check {
	const text = String(raw ?? '').replace(/^ +| +$/g, '');
	if (text === '') return invalid(`is empty; enter a web address such as ${example}`);
	const otherScheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
	if (otherScheme && !/^https?$/i.test(otherScheme[1])) {
		return invalid(
			`starts with ${otherScheme[1].toLowerCase()}:; the address must start with http:// or https://, e.g. ${example}`,
		);
	}
	const scheme = /^(https?):\/\//i.exec(text);
	if (!scheme) {
		return invalid(
			`is not a web address: it does not start with http:// or https://; enter the full address, e.g. ${example}`,
		);
	}
	const blank = [...text].find(
		(character) =>
			/\s/.test(character) || character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f,
	);
	if (blank !== undefined) {
		const what = describeCharacter(blank);
		const advice =
			blank === ' '
				? 'a web address has none (write a space inside a file name as %20) and holds one address only'
				: 'enter one address on a single line';
		return invalid(`contains ${what}; ${advice}, e.g. ${example}`);
	}
	const rest = text.slice(scheme[0].length);
	if (rest === '' || /^[/?#@:]/.test(rest)) {
		return invalid(
			`has no host name after ${scheme[1].toLowerCase()}://; enter the full address, e.g. ${example}`,
		);
	}
	if (text.includes('\\')) {
		return invalid(`contains "\\"; a web address uses "/" only, e.g. ${example}`);
	}
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return invalid(
			`is not a valid web address (check the host name and port); enter the full address, e.g. ${example}`,
		);
	}
	if (url.hostname === '') {
		return invalid(`has no host name; enter the full address, e.g. ${example}`);
	}
	return valid(url.href);
}

/** Document labels the spec lists as "in use", sorted. */
export const DOCUMENT_LABELS = [
	'address-proof',
	'cpf-number',
	'person-cpf',
	'revenue-tax-declaration',
	'rg-number',
	'rg-photo',
] as const;

const LABEL_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Labels of a document: a list, or one text with labels separated by commas. At least one label.
 * The spec only names the labels "in use" (DOCUMENT_LABELS), not a closed list, so any kebab-case
 * label (lower-case letters and digits joined by "-") is accepted. Labels are trimmed, lower-cased
 * and de-duplicated, keeping their order.
 */
export function checkLabels(
	labels: string[] | string,
): { ok: true; value: string[] } | { ok: false; reason: string } {
	const parts = Array.isArray(labels) ? labels : String(labels ?? '').split(',');
	const cleaned = parts
		.map((label) => asciiLowerCase(String(label ?? '').trim()))
		.filter((label) => label !== '');
	if (cleaned.length === 0) {
		return {
			ok: false,
			reason: `is empty; enter at least one label, e.g. ${DOCUMENT_LABELS.join(', ')}`,
		};
	}
	for (const label of cleaned) {
		if (!LABEL_PATTERN.test(label)) {
			const suggestion = label.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
			return {
				ok: false,
				reason: `contains "${label}", which is not a label; labels use lower-case letters, digits and dashes${
					suggestion && suggestion !== label ? `, e.g. ${suggestion}` : ''
				} (labels in use: ${DOCUMENT_LABELS.join(', ')})`,
			};
		}
	}
	return { ok: true, value: [...new Set(cleaned)] };
}
