import { encodeCodewords } from './codewords';
import { QrMatrix } from './matrix';
import { maskPenalty } from './penalty';

export { qrToSvg } from './svg';
export type { QrSvgOptions } from './svg';

/**
 * A QR Code (ISO/IEC 18004) of `text`: its UTF-8 bytes exactly, in byte mode, error correction
 * level M, the smallest version (1 to 40) that holds them, and the mask with the lowest penalty.
 * Returns the module matrix without quiet zone, rows top to bottom, `true` for a dark module.
 * Throws a RangeError when the text has more than 2331 bytes (the most version 40-M holds).
 */
export function encodeQr(text: string): boolean[][] {
	return encodeQrSymbol(text).matrix;
}

/** Like encodeQr, with the version and mask that were chosen. */
export function encodeQrSymbol(text: string): {
	matrix: boolean[][];
	version: number;
	mask: number;
} {
	const { version, codewords } = encodeCodewords(new Uint8Array(Buffer.from(text, 'utf8')));
	const symbol = new QrMatrix(version);
	symbol.placeCodewords(codewords);

	let bestMask = 0;
	let bestPenalty = Infinity;
	for (let mask = 0; mask < 8; mask++) {
		symbol.applyMask(mask);
		symbol.drawFormatBits(mask);
		const penalty = maskPenalty(symbol.dark);
		if (penalty < bestPenalty) {
			bestPenalty = penalty;
			bestMask = mask;
		}
		symbol.applyMask(mask);
	}
	symbol.applyMask(bestMask);
	symbol.drawFormatBits(bestMask);
	return { matrix: symbol.dark, version, mask: bestMask };
}
