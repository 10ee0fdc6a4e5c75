/**
 * PIX "BR Code" (EMV QR) building and CRC-16/CCITT-FALSE, as FacilitaPay documents it (EMV QR, with the checksum last).
 */

/** CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF. Returns 4 upper-case hex digits. */
export function crc16(text) {
	let crc = 0xffff;
	for (const byte of Buffer.from(text, 'utf8')) {
		crc ^= byte << 8;
		for (let index = 0; index < 8; index++)
			crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
	}
	return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** @param {string} id @param {string} value */
export function field(id, value) {
	const len = Buffer.byteLength(value, 'utf8');
	if (len > 99) throw new Error(`BR Code field ${id} too long (${len})`);
	return `${id}${String(len).padStart(2, '0')}${value}`;
}

function ascii(text, max) {
	return text
		.normalize('NFD')
		.replace(/[^\x20-\x7e]/g, '')
		.toUpperCase()
		.slice(0, max);
}

/**
 * @param {{ location: string, value?: string, name?: string, city?: string, reference?: string,
 *   recurrence?: string }} options  location without scheme; recurrence = location of an automatic PIX recurrence
 */
export function buildDynamicBrCode(options) {
	let code = field('00', '01') + field('01', '12');
	code += field('26', field('00', 'br.gov.bcb.pix') + field('25', options.location));
	code += field('52', '0000') + field('53', '986');
	if (options.value) code += field('54', options.value);
	code += field('58', 'BR');
	code += field('59', ascii(options.name ?? 'FACILITAPAY SANDBOX', 25));
	code += field('60', ascii(options.city ?? 'SAO PAULO', 15));
	code += field(
		'62',
		field('05', (options.reference ?? '***').replace(/[^A-Za-z0-9*]/g, '').slice(0, 25)),
	);
	if (options.recurrence)
		code += field('80', field('00', 'br.gov.bcb.pix') + field('25', options.recurrence));
	code += '6304';
	return code + crc16(code);
}

/**
 * Parses a BR Code into `{id: value}` (top level) and checks its CRC.
 * @param {string} code
 */
export function parseBrCode(code) {
	/** @type {Record<string,string>} */
	const fields = {};
	let index = 0;
	while (index < code.length) {
		const id = code.slice(index, index + 2);
		const len = Number(code.slice(index + 2, index + 4));
		fields[id] = code.slice(index + 4, index + 4 + len);
		index += 4 + len;
	}
	const crcOk = fields['63'] === crc16(code.slice(0, -4));
	return { fields, crcOk };
}
