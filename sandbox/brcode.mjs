/**
 * PIX "BR Code" (EMV QR) building and CRC-16/CCITT-FALSE, as described in service-facts.md.
 */

/** CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF. Returns 4 upper-case hex digits. */
export function crc16(text) {
	let crc = 0xffff;
	for (const byte of Buffer.from(text, 'utf8')) {
		crc ^= byte << 8;
		for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
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
 *   recurrence?: string }} o  location without scheme; recurrence = location of an automatic PIX recurrence
 */
export function buildDynamicBrCode(o) {
	let s = field('00', '01') + field('01', '12');
	s += field('26', field('00', 'br.gov.bcb.pix') + field('25', o.location));
	s += field('52', '0000') + field('53', '986');
	if (o.value) s += field('54', o.value);
	s += field('58', 'BR');
	s += field('59', ascii(o.name ?? 'FACILITAPAY SANDBOX', 25));
	s += field('60', ascii(o.city ?? 'SAO PAULO', 15));
	s += field('62', field('05', (o.reference ?? '***').replace(/[^A-Za-z0-9*]/g, '').slice(0, 25)));
	if (o.recurrence) s += field('80', field('00', 'br.gov.bcb.pix') + field('25', o.recurrence));
	s += '6304';
	return s + crc16(s);
}

/**
 * Parses a BR Code into `{id: value}` (top level) and checks its CRC.
 * @param {string} code
 */
export function parseBrCode(code) {
	/** @type {Record<string,string>} */
	const fields = {};
	let i = 0;
	while (i < code.length) {
		const id = code.slice(i, i + 2);
		const len = Number(code.slice(i + 2, i + 4));
		fields[id] = code.slice(i + 4, i + 4 + len);
		i += 4 + len;
	}
	const crcOk = fields['63'] === crc16(code.slice(0, -4));
	return { fields, crcOk };
}
