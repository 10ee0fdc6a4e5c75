/**
 * Reed-Solomon error correction over GF(256) as QR codes use it: field polynomial
 * x^8 + x^4 + x^3 + x^2 + 1 (0x11D), generator polynomial with roots α^0 … α^(n-1), α = 2.
 */

const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
	let value = 1;
	for (let power = 0; power < 255; power++) {
		EXP[power] = value;
		LOG[value] = power;
		value <<= 1;
		if (value & 0x100) value ^= 0x11d;
	}
	// Doubled so that EXP[LOG[a] + LOG[b]] needs no modulo.
	for (let power = 255; power < 512; power++) EXP[power] = EXP[power - 255];
}

/** Product of two field elements. */
export function gfMultiply(a: number, b: number): number {
	if (a === 0 || b === 0) return 0;
	return EXP[LOG[a] + LOG[b]];
}

const generators = new Map<number, Uint8Array>();

/**
 * Coefficients of the monic generator polynomial of the given degree, highest power first,
 * without the leading 1: (x - α^0)(x - α^1)…(x - α^(degree-1)).
 */
export function generatorPolynomial(degree: number): Uint8Array {
	const cached = generators.get(degree);
	if (cached) return cached;
	const coefficients = new Uint8Array(degree);
	coefficients[degree - 1] = 1;
	let root = 1;
	for (let i = 0; i < degree; i++) {
		// Multiply the current product by (x - root).
		for (let j = 0; j < degree; j++) {
			coefficients[j] = gfMultiply(coefficients[j], root);
			if (j + 1 < degree) coefficients[j] ^= coefficients[j + 1];
		}
		root = gfMultiply(root, 2);
	}
	generators.set(degree, coefficients);
	return coefficients;
}

/** The `degree` error correction codewords of one block of data codewords. */
export function reedSolomonRemainder(data: ArrayLike<number>, degree: number): Uint8Array {
	const divisor = generatorPolynomial(degree);
	const remainder = new Uint8Array(degree);
	for (let i = 0; i < data.length; i++) {
		const factor = data[i] ^ remainder[0];
		remainder.copyWithin(0, 1);
		remainder[degree - 1] = 0;
		for (let j = 0; j < degree; j++) remainder[j] ^= gfMultiply(divisor[j], factor);
	}
	return remainder;
}
