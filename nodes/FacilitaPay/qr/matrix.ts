import { symbolSize } from './codewords';

/**
 * The module matrix of a QR code (ISO/IEC 18004, 7.7 to 7.10): function patterns, data placement,
 * masking with penalty scoring, format and version information. Coordinates are (x, y) with
 * x the column and y the row; `dark[y][x]` is true for a dark module.
 */

/** Error correction level M in the format information (L = 01, M = 00, Q = 11, H = 10). */
const FORMAT_LEVEL_M = 0b00;
const FORMAT_MASK_PATTERN = 0b101010000010010;
const FORMAT_GENERATOR = 0b10100110111;
const VERSION_GENERATOR = 0b1111100100101;

/** The 15 format information bits for level M and a mask (BCH(15,5), then XOR 101010000010010). */
export function formatBits(mask: number): number {
	const data = (FORMAT_LEVEL_M << 3) | mask;
	let remainder = data;
	for (let i = 0; i < 10; i++)
		remainder = (remainder << 1) ^ ((remainder >>> 9) * FORMAT_GENERATOR);
	return ((data << 10) | remainder) ^ FORMAT_MASK_PATTERN;
}

/** The 18 version information bits (BCH(18,6)) of versions 7 to 40. */
export function versionBits(version: number): number {
	let remainder = version;
	for (let i = 0; i < 12; i++)
		remainder = (remainder << 1) ^ ((remainder >>> 11) * VERSION_GENERATOR);
	return (version << 12) | remainder;
}

/** Row/column centres of the alignment patterns (empty for version 1). */
export function alignmentPositions(version: number): number[] {
	if (version === 1) return [];
	const count = Math.floor(version / 7) + 2;
	const size = symbolSize(version);
	const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
	const positions = [6];
	for (let position = size - 7; positions.length < count; position -= step) {
		positions.splice(1, 0, position);
	}
	return positions;
}

const bit = (value: number, index: number) => ((value >>> index) & 1) !== 0;

/** The 8 data mask conditions: a module is inverted where the condition holds. */
const MASKS: Array<(x: number, y: number) => boolean> = [
	(x, y) => (x + y) % 2 === 0,
	(_x, y) => y % 2 === 0,
	(x) => x % 3 === 0,
	(x, y) => (x + y) % 3 === 0,
	(x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
	(x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
	(x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
	(x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

export class QrMatrix {
	readonly size: number;
	readonly dark: boolean[][];
	/** Modules that belong to function patterns (never data, never masked). */
	private readonly reserved: boolean[][];

	constructor(readonly version: number) {
		this.size = symbolSize(version);
		this.dark = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
		this.reserved = Array.from({ length: this.size }, () =>
			new Array<boolean>(this.size).fill(false),
		);
		this.drawFunctionPatterns();
	}

	private setFunction(x: number, y: number, isDark: boolean): void {
		this.dark[y][x] = isDark;
		this.reserved[y][x] = true;
	}

	private drawFunctionPatterns(): void {
		const { size } = this;
		for (let i = 0; i < size; i++) {
			this.setFunction(6, i, i % 2 === 0);
			this.setFunction(i, 6, i % 2 === 0);
		}
		this.drawFinder(3, 3);
		this.drawFinder(size - 4, 3);
		this.drawFinder(3, size - 4);

		const positions = alignmentPositions(this.version);
		const last = positions.length - 1;
		positions.forEach((y, row) =>
			positions.forEach((x, column) => {
				const overlapsFinder =
					(row === 0 && column === 0) ||
					(row === 0 && column === last) ||
					(row === last && column === 0);
				if (!overlapsFinder) this.drawAlignment(x, y);
			}),
		);

		// Reserve the format areas (written for real once the mask is known) and the dark module.
		this.drawFormatBits(0);
		this.drawVersionBits();
	}

	/** A 7×7 finder pattern centred on (cx, cy) with its light separator ring. */
	private drawFinder(cx: number, cy: number): void {
		for (let dy = -4; dy <= 4; dy++) {
			for (let dx = -4; dx <= 4; dx++) {
				const x = cx + dx;
				const y = cy + dy;
				if (x < 0 || y < 0 || x >= this.size || y >= this.size) continue;
				const ring = Math.max(Math.abs(dx), Math.abs(dy));
				this.setFunction(x, y, ring !== 2 && ring !== 4);
			}
		}
	}

	/** A 5×5 alignment pattern centred on (cx, cy). */
	private drawAlignment(cx: number, cy: number): void {
		for (let dy = -2; dy <= 2; dy++) {
			for (let dx = -2; dx <= 2; dx++) {
				this.setFunction(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
			}
		}
	}

	/** Both copies of the format information (bit 0 is the least significant) and the dark module. */
	drawFormatBits(mask: number): void {
		const bits = formatBits(mask);
		const { size } = this;
		// Around the top-left finder.
		for (let i = 0; i <= 5; i++) this.setFunction(8, i, bit(bits, i));
		this.setFunction(8, 7, bit(bits, 6));
		this.setFunction(8, 8, bit(bits, 7));
		this.setFunction(7, 8, bit(bits, 8));
		for (let i = 9; i < 15; i++) this.setFunction(14 - i, 8, bit(bits, i));
		// Below the top-right finder and beside the bottom-left one.
		for (let i = 0; i < 8; i++) this.setFunction(size - 1 - i, 8, bit(bits, i));
		for (let i = 8; i < 15; i++) this.setFunction(8, size - 15 + i, bit(bits, i));
		this.setFunction(8, size - 8, true);
	}

	/** The two 6×3 version information blocks (versions 7 and up). */
	private drawVersionBits(): void {
		if (this.version < 7) return;
		const bits = versionBits(this.version);
		for (let i = 0; i < 18; i++) {
			const across = this.size - 11 + (i % 3);
			const along = Math.floor(i / 3);
			this.setFunction(across, along, bit(bits, i));
			this.setFunction(along, across, bit(bits, i));
		}
	}

	/**
	 * Places the codewords, most significant bit first, in two-module columns zig-zagging up and
	 * down from the bottom-right corner, skipping function modules and the vertical timing column.
	 * Modules left over (remainder bits) stay light.
	 */
	placeCodewords(codewords: Uint8Array): void {
		const { size } = this;
		const totalBits = codewords.length * 8;
		let index = 0;
		for (let right = size - 1; right >= 1; right -= 2) {
			if (right === 6) right = 5;
			const upward = ((right + 1) & 2) === 0;
			for (let step = 0; step < size; step++) {
				const y = upward ? size - 1 - step : step;
				for (let column = 0; column < 2; column++) {
					const x = right - column;
					if (this.reserved[y][x] || index >= totalBits) continue;
					this.dark[y][x] = bit(codewords[index >>> 3], 7 - (index & 7));
					index++;
				}
			}
		}
	}

	/** Inverts the data modules where the mask condition holds (applying it twice undoes it). */
	applyMask(mask: number): void {
		const condition = MASKS[mask];
		for (let y = 0; y < this.size; y++) {
			for (let x = 0; x < this.size; x++) {
				if (!this.reserved[y][x] && condition(x, y)) this.dark[y][x] = !this.dark[y][x];
			}
		}
	}
}
