import { checkCnpj, checkCpf, stripDocumentPunctuation } from './documents';
import { isEmailAddress } from './email';
import { asciiLowerCase } from './text';
import { isUuid } from './uuid';

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) over the UTF-8 bytes
 * of `text`, as 4 upper-case hex digits. "123456789" → "29B1".
 */
export function crc16CcittFalse(text: string): string {
	let crc = 0xffff;
	for (const byte of Buffer.from(text, 'utf8')) {
		crc ^= byte << 8;
		for (let bit = 0; bit < 8; bit++) {
			crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
		}
	}
	return crc.toString(16).toUpperCase().padStart(4, '0');
}

export type BrCodeParse =
	| {
			ok: true;
			/** Top-level fields by their 2-digit id, e.g. `{ '00': '01', '01': '12', '26': '…', '63': 'ABCD' }`. */
			fields: Record<string, string>;
			/** Sub-fields of the PIX merchant account template (`00` = br.gov.bcb.pix, `25` location…). */
			merchantAccount: Record<string, string>;
			/** Field 01 = 12: a single-use (dynamic) code. */
			isDynamic: boolean;
			/** Location URL (without scheme) of a dynamic code, sub-field 26/25. */
			location?: string;
			/** Field 54. */
			amount?: string;
			/** Field 59. */
			merchantName?: string;
			/** Field 60. */
			merchantCity?: string;
			/** Reference label, sub-field 62/05. */
			txid?: string;
	  }
	| { ok: false; reason: string };

type TlvResult = { ok: true; fields: Record<string, string> } | { ok: false; reason: string };

/** Reads `ID(2) LEN(2, decimal) VALUE` fields; lengths count characters. */
function parseTlv(text: string, where: string): TlvResult {
	const fields: Record<string, string> = {};
	let position = 0;
	while (position < text.length) {
		const header = text.slice(position, position + 4);
		if (!/^\d{4}$/.test(header)) {
			return {
				ok: false,
				reason: `is damaged: ${where} at character ${position + 1} does not start with a 2-digit id and a 2-digit length; copy the whole code again`,
			};
		}
		const id = header.slice(0, 2);
		const length = Number(header.slice(2));
		const value = text.slice(position + 4, position + 4 + length);
		if (value.length < length) {
			return {
				ok: false,
				reason: `is cut off: field ${id} announces ${length} characters but only ${value.length} follow; copy the whole code again`,
			};
		}
		if (!(id in fields)) fields[id] = value;
		position += 4 + length;
	}
	return { ok: true, fields };
}

const PIX_GUI = 'br.gov.bcb.pix';

/**
 * Parses a PIX "copy and paste" code (BR Code, EMV QR): checks that it starts with `000201`, that
 * every field is complete, that it ends with the CRC field `6304XXXX` and that the CRC matches,
 * and that it carries a PIX merchant account (`br.gov.bcb.pix`, normally in field 26). Surrounding
 * whitespace is ignored; the CRC is compared without regard to case.
 */
export function parseBrCode(code: string): BrCodeParse {
	const text = String(code ?? '').trim();
	if (text === '') return { ok: false, reason: 'is empty; paste the PIX copy-and-paste code' };
	if (!text.startsWith('000201')) {
		return {
			ok: false,
			reason:
				'is not a PIX code: a PIX copy-and-paste code starts with 000201; copy the whole code again',
		};
	}
	const tlv = parseTlv(text, 'a field');
	if (!tlv.ok) return tlv;
	const { fields } = tlv;
	const crcAt = text.length - 8;
	if (!('63' in fields) || text.slice(crcAt, crcAt + 4) !== '6304') {
		return {
			ok: false,
			reason:
				'does not end with its checksum (field 63, e.g. 6304A1B2); the code is incomplete, copy it again',
		};
	}
	const expected = crc16CcittFalse(text.slice(0, crcAt + 4));
	if (expected !== text.slice(crcAt + 4).toUpperCase()) {
		return {
			ok: false,
			reason:
				'checksum (the last 4 characters) does not match: the code was changed or copied incompletely',
		};
	}
	let merchantAccount: Record<string, string> | undefined;
	for (let id = 26; id <= 51 && merchantAccount === undefined; id++) {
		const template = fields[String(id)];
		if (template === undefined) continue;
		const sub = parseTlv(template, `field ${id}`);
		if (sub.ok && (sub.fields['00'] ?? '').toLowerCase() === PIX_GUI) merchantAccount = sub.fields;
	}
	if (merchantAccount === undefined) {
		return {
			ok: false,
			reason: `is an EMV payment code but not a PIX code: it has no ${PIX_GUI} account`,
		};
	}
	let txid: string | undefined;
	if (fields['62'] !== undefined) {
		const additional = parseTlv(fields['62'], 'field 62');
		if (additional.ok) txid = additional.fields['05'];
	}
	const result: BrCodeParse = {
		ok: true,
		fields,
		merchantAccount,
		isDynamic: fields['01'] === '12',
	};
	if (merchantAccount['25'] !== undefined) result.location = merchantAccount['25'];
	if (fields['54'] !== undefined) result.amount = fields['54'];
	if (fields['59'] !== undefined) result.merchantName = fields['59'];
	if (fields['60'] !== undefined) result.merchantCity = fields['60'];
	if (txid !== undefined) result.txid = txid;
	return result;
}

export type PixKeyKind = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';

export type PixKeyCheck =
	| { ok: true; value: string; kind: PixKeyKind }
	| { ok: false; reason: string };

const KINDS_TEXT =
	'a CPF (11 digits), a CNPJ (14 characters), an e-mail, a phone number written +55 with area code (e.g. +5511987654321) or a random key (UUID)';

/**
 * A PIX key, recognised by its shape and normalised as the service stores it:
 * - e-mail (contains "@"): lower-cased, at most 77 characters;
 * - phone (starts with "+"): `+55` then 10 or 11 digits, spaces, dashes and brackets removed;
 * - random key (EVP): a UUID, lower-cased;
 * - CPF (11 digits) or CNPJ (14 characters), punctuation removed, check digits verified.
 * An 11-digit number that is not a valid CPF but looks like a mobile number gets a hint to add +55.
 */
export function checkPixKey(raw: string): PixKeyCheck {
	const text = String(raw ?? '').trim();
	if (text === '') return { ok: false, reason: `is empty; enter ${KINDS_TEXT}` };

	if (text.includes('@')) {
		const email = asciiLowerCase(text);
		if (!isEmailAddress(email)) {
			return { ok: false, reason: 'is not a valid e-mail key; use the form name@example.com' };
		}
		if (email.length > 77) {
			return {
				ok: false,
				reason: `has ${email.length} characters; an e-mail PIX key has at most 77`,
			};
		}
		return { ok: true, value: email, kind: 'email' };
	}

	if (text.startsWith('+')) {
		const phone = text.replace(/[\s().-]/g, '');
		if (/^\+55\d{10,11}$/.test(phone)) return { ok: true, value: phone, kind: 'phone' };
		return {
			ok: false,
			reason:
				'is not a Brazilian phone key; write +55, the 2-digit area code and the number, e.g. +5511987654321',
		};
	}

	if (isUuid(text)) return { ok: true, value: asciiLowerCase(text), kind: 'evp' };

	const { value } = stripDocumentPunctuation(text);
	if (/^\d{11}$/.test(value)) {
		const cpf = checkCpf(value);
		if (cpf.ok) return { ok: true, value: cpf.value, kind: 'cpf' };
		if (/^[1-9]{2}9\d{8}$/.test(value)) {
			return {
				ok: false,
				reason: `is not a valid CPF; if it is a phone number, write it with +55 in front, e.g. +55${value}`,
			};
		}
		return { ok: false, reason: cpf.reason };
	}
	if (/^[0-9A-Z]{12}\d{2}$/.test(value)) {
		const cnpj = checkCnpj(value);
		if (cnpj.ok) return { ok: true, value: cnpj.value, kind: 'cnpj' };
		return { ok: false, reason: cnpj.reason };
	}
	return { ok: false, reason: `is not a PIX key; enter ${KINDS_TEXT}` };
}
