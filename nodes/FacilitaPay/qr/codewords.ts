import { reedSolomonRemainder } from './reedSolomon';

/**
 * Data encoding for error correction level M, byte mode: picks the smallest version that holds
 * the bytes, builds the bit stream (mode, length, data, terminator, padding), splits it into
 * blocks, adds Reed-Solomon codewords and interleaves the blocks (ISO/IEC 18004, 7.4 to 7.6).
 */

export const MIN_VERSION = 1;
export const MAX_VERSION = 40;

/** Error correction codewords per block at level M, by version (index 0 unused). */
const ECC_CODEWORDS_PER_BLOCK_M = [
	0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28,
	28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];

/** Number of error correction blocks at level M, by version (index 0 unused). */
const ECC_BLOCKS_M = [
	0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25,
	26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
];

const BYTE_MODE = 0b0100;
const PAD_BYTES = [0xec, 0x11];

/** Modules of a symbol: 17 + 4 per version. */
export function symbolSize(version: number): number {
	return 17 + 4 * version;
}

/** Number of alignment patterns along one side (0 for version 1). */
function alignmentCount(version: number): number {
	return version === 1 ? 0 : Math.floor(version / 7) + 2;
}

/** Modules left for data and error correction once the function patterns are placed. */
export function rawDataModules(version: number): number {
	let modules = (16 * version + 128) * version + 64;
	const align = alignmentCount(version);
	if (align > 0) modules -= (25 * align - 10) * align - 55;
	if (version >= 7) modules -= 36;
	return modules;
}

/** Codewords (data + error correction) a version holds. */
function totalCodewords(version: number): number {
	return Math.floor(rawDataModules(version) / 8);
}

/** Data codewords a version holds at level M. */
export function dataCodewords(version: number): number {
	return totalCodewords(version) - ECC_CODEWORDS_PER_BLOCK_M[version] * ECC_BLOCKS_M[version];
}

/** Bits of the character count indicator in byte mode. */
function countBits(version: number): number {
	return version <= 9 ? 8 : 16;
}

/** Most bytes a version holds at level M in byte mode. */
export function byteCapacity(version: number): number {
	return Math.floor((dataCodewords(version) * 8 - 4 - countBits(version)) / 8);
}

/** Smallest version that holds `length` bytes at level M. */
export function chooseVersion(length: number): number {
	for (let version = MIN_VERSION; version <= MAX_VERSION; version++) {
		if (length <= byteCapacity(version)) return version;
	}
	throw new RangeError(
		`The text has ${length} bytes; a QR code (level M) holds at most ${byteCapacity(MAX_VERSION)}`,
	);
}

class BitBuffer {
	readonly bits: number[] = [];

	append(value: number, length: number): void {
		for (let i = length - 1; i >= 0; i--) this.bits.push((value >>> i) & 1);
	}
}

/** The data codewords: mode, count, bytes, terminator, then padding to the version's capacity. */
export function dataCodewordsFor(bytes: Uint8Array, version: number): Uint8Array {
	const capacityBits = dataCodewords(version) * 8;
	const buffer = new BitBuffer();
	buffer.append(BYTE_MODE, 4);
	buffer.append(bytes.length, countBits(version));
	for (const byte of bytes) buffer.append(byte, 8);
	buffer.append(0, Math.min(4, capacityBits - buffer.bits.length));
	buffer.append(0, (8 - (buffer.bits.length % 8)) % 8);

	const codewords = new Uint8Array(capacityBits / 8);
	const filled = buffer.bits.length / 8;
	for (let i = 0; i < filled; i++) {
		let byte = 0;
		for (let bit = 0; bit < 8; bit++) byte = (byte << 1) | buffer.bits[i * 8 + bit];
		codewords[i] = byte;
	}
	for (let i = filled; i < codewords.length; i++) codewords[i] = PAD_BYTES[(i - filled) % 2];
	return codewords;
}

/**
 * The final codeword sequence: data split into blocks (short blocks first, long blocks one data
 * codeword longer), each with its error correction codewords, interleaved column by column.
 */
export function interleaveWithEcc(data: Uint8Array, version: number): Uint8Array {
	const blocks = ECC_BLOCKS_M[version];
	const eccLength = ECC_CODEWORDS_PER_BLOCK_M[version];
	const total = totalCodewords(version);
	const shortBlocks = blocks - (total % blocks);
	const shortDataLength = Math.floor(total / blocks) - eccLength;

	const dataBlocks: Uint8Array[] = [];
	const eccBlocks: Uint8Array[] = [];
	let offset = 0;
	for (let block = 0; block < blocks; block++) {
		const length = shortDataLength + (block < shortBlocks ? 0 : 1);
		const part = data.subarray(offset, offset + length);
		offset += length;
		dataBlocks.push(part);
		eccBlocks.push(reedSolomonRemainder(part, eccLength));
	}

	const result = new Uint8Array(total);
	let position = 0;
	for (let i = 0; i <= shortDataLength; i++) {
		for (const part of dataBlocks) if (i < part.length) result[position++] = part[i];
	}
	for (let i = 0; i < eccLength; i++) {
		for (const part of eccBlocks) result[position++] = part[i];
	}
	return result;
}

/** Every codeword to place in the symbol for `bytes` at level M, and the version chosen. */
export function encodeCodewords(bytes: Uint8Array): { version: number; codewords: Uint8Array } {
	const version = chooseVersion(bytes.length);
	return { version, codewords: interleaveWithEcc(dataCodewordsFor(bytes, version), version) };
}
