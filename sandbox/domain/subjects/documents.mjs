/**
 * A subject's documents: the upload's rules (labels, MIME type matching the content, Base64 data
 * or URL, 15 MB), the stored document, and the documents mandatory above the annual limit.
 */
import { isBlank } from '../../validation.mjs';

export const MAX_FILE_BYTES = 15 * 1024 * 1024;

/** Mandatory documents (by label) for subjects above the annual limit. */
export const MANDATORY_DOCUMENTS = [
	{ label: 'address-proof', item: 'proof_of_address_missing', required: 'proof_of_address' },
	{
		label: 'revenue-tax-declaration',
		item: 'tax_declaration_insufficient',
		required: 'revenue_tax_declaration',
	},
];

/**
 * Validates a document object (upload body or an item of `person.documents`).
 * @param {import('../../validation.mjs').Errors} errors @param {any} doc @param {string} prefix
 * @returns {number|null} the decoded size of `file_data`, when given and valid
 */
export function validateDocument(errors, doc, prefix = '') {
	if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
		errors.add(prefix.replace(/\.$/, '') || 'document', "can't be blank");
		return null;
	}
	if (!Array.isArray(doc.labels) || doc.labels.length === 0)
		errors.add(`${prefix}labels`, "can't be blank");
	else if (doc.labels.some((label) => typeof label !== 'string' || !label.trim()))
		errors.add(`${prefix}labels`, 'must be a list of non-empty strings');
	// The spec names no closed list of formats: file_type is a MIME type that must match the content.
	let fileType =
		typeof doc.file_type === 'string'
			? doc.file_type === 'image/jpg'
				? 'image/jpeg'
				: doc.file_type
			: '';
	if (isBlank(doc.file_type)) errors.add(`${prefix}file_type`, "can't be blank");
	else if (!/^[a-z]+\/[a-z0-9][a-z0-9.+-]*$/.test(fileType)) {
		errors.add(`${prefix}file_type`, 'must be a MIME type such as application/pdf');
		fileType = '';
	}
	const hasData = !isBlank(doc.file_data);
	const hasUrl = !isBlank(doc.file_url);
	let size = null;
	if (!hasData && !hasUrl)
		errors.add(
			`${prefix}file_data`,
			"can't be blank: give file_data (Base64) with file_name, or file_url",
		);
	if (hasData && hasUrl)
		errors.add(`${prefix}file_url`, 'give either file_data or file_url, not both');
	if (hasData) {
		const data = String(doc.file_data).replace(/\s/g, '');
		if (
			typeof doc.file_data !== 'string' ||
			data.length % 4 !== 0 ||
			!/^[A-Za-z0-9+/]*={0,2}$/.test(data)
		) {
			errors.add(`${prefix}file_data`, 'is not valid Base64');
		} else {
			size =
				Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
			if (size > MAX_FILE_BYTES)
				errors.add(`${prefix}file_data`, `is too large (${size} bytes decoded; at most 15 MB)`);
			else if (fileType) {
				const detected = sniff(Buffer.from(data.slice(0, 24), 'base64'));
				const mismatch = detected ? detected !== fileType : SNIFFED_TYPES.includes(fileType);
				if (mismatch)
					errors.add(
						`${prefix}file_type`,
						`does not match the file content (content looks like ${detected ?? 'an unknown type'})`,
					);
			}
		}
		if (isBlank(doc.file_name))
			errors.add(`${prefix}file_name`, "can't be blank when file_data is given");
		else if (!/\.[A-Za-z0-9]{1,5}$/.test(doc.file_name))
			errors.add(`${prefix}file_name`, 'must include an extension, e.g. "proof.pdf"');
	}
	if (hasUrl && !/^https?:\/\/\S+$/.test(String(doc.file_url)))
		errors.add(`${prefix}file_url`, 'must start with http:// or https://');
	return size;
}

/** Types the sandbox recognises by content; other MIME types are taken as declared. */
const SNIFFED_TYPES = [
	'application/pdf',
	'image/bmp',
	'image/gif',
	'image/heic',
	'image/heif',
	'image/jpeg',
	'image/png',
	'image/tiff',
	'image/webp',
];

/** The MIME type shown by a file's first bytes, or null. @param {Buffer} head */
export function sniff(head) {
	const ascii = (from, to) => head.subarray(from, to).toString('latin1');
	if (ascii(0, 4) === '%PDF') return 'application/pdf';
	if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
		return 'image/png';
	if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
	if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
	if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
	if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return 'image/tiff';
	if (head.length >= 14 && ascii(0, 2) === 'BM' && head.readUInt32LE(6) === 0) return 'image/bmp';
	if (ascii(4, 8) === 'ftyp') {
		const brand = ascii(8, 12);
		if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis'].includes(brand)) return 'image/heic';
		if (['mif1', 'msf1', 'heif'].includes(brand)) return 'image/heif';
	}
	return null;
}

/**
 * A document as stored on the subject, pending the back office's analysis.
 * @param {any} doc a valid upload @param {number|null} size
 * @param {{id: string, now: string}} made id and ISO time of the upload
 */
export function storedDocument(doc, size, { id, now }) {
	return {
		id,
		labels: doc.labels,
		file_type: doc.file_type,
		file_name: doc.file_name ?? null,
		file_url: doc.file_url ?? null,
		size,
		status: 'pending_analysis',
		inserted_at: now,
	};
}

/** The mandatory documents the subject lacks (a rejected document does not count). */
export function missingMandatory(subject) {
	const labels = new Set(
		subject.documents
			.filter((document) => document.status !== 'rejected')
			.flatMap((document) => document.labels),
	);
	return MANDATORY_DOCUMENTS.filter((mandatory) => !labels.has(mandatory.label));
}
