import { byteCapacity, dataCodewordsFor } from '../../../nodes/FacilitaPay/qr/codewords';
import { encodeQr, encodeQrSymbol, qrToSvg } from '../../../nodes/FacilitaPay/qr';
import { alignmentPositions, formatBits, versionBits } from '../../../nodes/FacilitaPay/qr/matrix';
import { reedSolomonRemainder } from '../../../nodes/FacilitaPay/qr/reedSolomon';
import { crc16CcittFalse } from '../../../nodes/FacilitaPay/validation/pix';
import { decodeMatrix, svgToMatrix } from '../../fixtures/qrImage';
import { dynamicBrCode } from '../../fixtures/brCode';

/** A dynamic BR Code as FacilitaPay returns one: location URL, amount, merchant, txid, CRC. */
const DYNAMIC_BR_CODE = dynamicBrCode(crc16CcittFalse, {
	location: 'qrcodes-pix.facilitapay.com/v2/cobv/9d36b84fc70b478fb95c12729b90ca25',
	amount: '150.00',
	merchant: 'FACILITAPAY INTERMEDIACAO',
	txid: 'FP9D36B84FC70B478FB95C12729B',
});

// Example static code of the Banco Central "Manual de Padrões para Iniciação do Pix".
const STATIC_BR_CODE =
	'00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

/** Where the 15 format bits of the copy beside the top-left finder sit, bit 14 first. */
function readFormatBits(matrix: boolean[][]): number {
	const cells: Array<[number, number]> = [
		[0, 8],
		[1, 8],
		[2, 8],
		[3, 8],
		[4, 8],
		[5, 8],
		[7, 8],
		[8, 8],
		[8, 7],
		[8, 5],
		[8, 4],
		[8, 3],
		[8, 2],
		[8, 1],
		[8, 0],
	];
	return cells.reduce((bits, [x, y]) => (bits << 1) | (matrix[y][x] ? 1 : 0), 0);
}

/** The 18 version bits of the block above the bottom-left finder, bit 17 first. */
function readVersionBits(matrix: boolean[][]): number {
	const size = matrix.length;
	let bits = 0;
	for (let i = 17; i >= 0; i--)
		bits = (bits << 1) | (matrix[size - 11 + (i % 3)][Math.floor(i / 3)] ? 1 : 0);
	return bits;
}

describe('encodeQr: what a scanner reads back', () => {
	it.each([
		['a dynamic BR Code', DYNAMIC_BR_CODE],
		['a static BR Code', STATIC_BR_CODE],
		['a short text (version 1)', 'PIX'],
		['UTF-8 text', 'São Paulo — ação'],
	])('reads %s back byte for byte', (_name, text) => {
		const decoded = decodeMatrix(encodeQr(text));
		expect(decoded).not.toBeNull();
		expect(decoded!.bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
		expect(decoded!.text).toBe(text);
	});

	it('puts a 223-character dynamic BR Code in the smallest symbol that holds it: version 11, 61 × 61', () => {
		expect(DYNAMIC_BR_CODE).toHaveLength(223);
		const { matrix, version } = encodeQrSymbol(DYNAMIC_BR_CODE);
		expect(version).toBe(11);
		expect(byteCapacity(10)).toBeLessThan(223);
		expect(matrix).toHaveLength(61);
		expect(decodeMatrix(matrix)!.version).toBe(11);
	});

	it('uses version 1 (21 × 21) for up to 14 bytes and version 2 from 15', () => {
		expect(encodeQr('12345678901234')).toHaveLength(21);
		expect(decodeMatrix(encodeQr('12345678901234'))!.text).toBe('12345678901234');
		expect(encodeQr('123456789012345')).toHaveLength(25);
	});

	it.each([
		[300, 13],
		[1000, 26],
		[2331, 40],
	])(
		'reads a %i-byte text back from its version %i symbol (version information blocks)',
		(length, version) => {
			const text = Array.from({ length }, (_v, i) => String.fromCharCode(33 + ((i * 7) % 90))).join(
				'',
			);
			const { matrix, version: chosen } = encodeQrSymbol(text);
			expect(chosen).toBe(version);
			expect(readVersionBits(matrix)).toBe(versionBits(version));
			const decoded = decodeMatrix(matrix);
			expect(decoded!.version).toBe(version);
			expect(decoded!.bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
		},
	);

	it('still reads after a smudge of 3 × 3 modules (error correction)', () => {
		const matrix = encodeQr(DYNAMIC_BR_CODE).map((row) => [...row]);
		for (let y = 40; y < 43; y++) for (let x = 40; x < 43; x++) matrix[y][x] = !matrix[y][x];
		expect(decodeMatrix(matrix)!.text).toBe(DYNAMIC_BR_CODE);
	});

	it('refuses a text longer than version 40-M holds (2331 bytes), saying so', () => {
		expect(() => encodeQr('x'.repeat(2332))).toThrow(
			'The text has 2332 bytes; a QR code (level M) holds at most 2331',
		);
	});

	it('encodes the same text to the same matrix every time', () => {
		expect(encodeQr(DYNAMIC_BR_CODE)).toEqual(encodeQr(DYNAMIC_BR_CODE));
	});
});

describe('encodeQr: error correction level M, known vectors', () => {
	it('writes format information for level M and the chosen mask, matching the standard table', () => {
		// ISO/IEC 18004 Table C.1, level M, masks 0 to 7.
		const table = [0x5412, 0x5125, 0x5e7c, 0x5b4b, 0x45f9, 0x40ce, 0x4f97, 0x4aa0];
		table.forEach((bits, mask) => expect(formatBits(mask)).toBe(bits));
		for (const text of ['PIX', STATIC_BR_CODE, DYNAMIC_BR_CODE]) {
			const { matrix, mask } = encodeQrSymbol(text);
			const bits = readFormatBits(matrix);
			expect(bits).toBe(table[mask]);
			// The two level bits after unmasking: 00 is M.
			expect(((bits ^ 0x5412) >> 13) & 0b11).toBe(0b00);
		}
	});

	it('writes version information as in the standard table (7 → 07C94, 10 → 0A4D3, 40 → 28C69)', () => {
		expect(versionBits(7)).toBe(0x07c94);
		expect(versionBits(10)).toBe(0x0a4d3);
		expect(versionBits(40)).toBe(0x28c69);
	});

	it('computes the Reed-Solomon codewords of the standard "HELLO WORLD" 1-M example', () => {
		const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
		expect([...reedSolomonRemainder(data, 10)]).toEqual([
			196, 35, 39, 119, 235, 215, 231, 226, 93, 23,
		]);
	});

	it('holds 14, 213 and 2331 bytes in versions 1, 10 and 40 at level M', () => {
		expect(byteCapacity(1)).toBe(14);
		expect(byteCapacity(10)).toBe(213);
		expect(byteCapacity(40)).toBe(2331);
	});

	it('places alignment patterns at the standard centres', () => {
		expect(alignmentPositions(1)).toEqual([]);
		expect(alignmentPositions(2)).toEqual([6, 18]);
		expect(alignmentPositions(7)).toEqual([6, 22, 38]);
		expect(alignmentPositions(32)).toEqual([6, 34, 60, 86, 112, 138]);
		expect(alignmentPositions(40)).toEqual([6, 30, 58, 86, 114, 142, 170]);
	});

	it('fills the data codewords with byte mode, length, bytes, terminator and EC 11 padding', () => {
		// "PIX" in version 1: 0100 00000011 01010000 01001001 01011000 0000, then pad bytes.
		expect([...dataCodewordsFor(new Uint8Array(Buffer.from('PIX')), 1)]).toEqual([
			0x40, 0x35, 0x04, 0x95, 0x80, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11,
			0xec,
		]);
	});
});

describe('qrToSvg', () => {
	const matrix = encodeQr(DYNAMIC_BR_CODE);

	it('draws a white square with a 4-module quiet zone and 8-unit modules by default', () => {
		const svg = qrToSvg(matrix);
		const side = (matrix.length + 8) * 8;
		expect(svg).toContain(`viewBox="0 0 ${side} ${side}"`);
		expect(svg).toContain('shape-rendering="crispEdges"');
		expect(svg).toMatch(new RegExp(`<rect width="${side}" height="${side}" fill="#fff"/>`));
		expect(svg.match(/<path /g)).toHaveLength(1);
		const drawn = svgToMatrix(svg);
		expect(drawn.quietZone).toBe(4);
		expect(drawn.moduleSize).toBe(8);
	});

	it('draws exactly the modules of the matrix, so the picture scans to the same text', () => {
		const drawn = svgToMatrix(qrToSvg(matrix));
		expect(drawn.matrix).toEqual(matrix);
		expect(decodeMatrix(drawn.matrix)!.text).toBe(DYNAMIC_BR_CODE);
	});

	it('takes another quiet zone and module size', () => {
		const svg = qrToSvg(matrix, { quietZone: 6, moduleSize: 3 });
		const side = (matrix.length + 12) * 3;
		expect(svg).toContain(`viewBox="0 0 ${side} ${side}"`);
		expect(svgToMatrix(svg).quietZone).toBe(6);
		expect(svgToMatrix(svg).matrix).toEqual(matrix);
	});

	it('refuses a negative quiet zone or a module size of zero', () => {
		expect(() => qrToSvg(matrix, { quietZone: -1 })).toThrow(
			'quietZone must be a whole number of modules, got -1',
		);
		expect(() => qrToSvg(matrix, { moduleSize: 0 })).toThrow('moduleSize must be positive, got 0');
	});
});
