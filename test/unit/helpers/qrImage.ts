import jsQR from 'jsqr';

/**
 * Reads QR codes the way a phone would: the module matrix becomes an RGBA picture (black on
 * white, with a quiet zone) and jsQR decodes it.
 */

/** An RGBA pixel buffer of a module matrix, `pixelsPerModule` per module, `quietZone` modules around. */
export function renderMatrix(matrix: boolean[][], pixelsPerModule = 4, quietZone = 4) {
	const side = (matrix.length + 2 * quietZone) * pixelsPerModule;
	const data = new Uint8ClampedArray(side * side * 4).fill(255);
	matrix.forEach((row, y) =>
		row.forEach((isDark, x) => {
			if (!isDark) return;
			for (let py = 0; py < pixelsPerModule; py++) {
				for (let px = 0; px < pixelsPerModule; px++) {
					const offset =
						(((y + quietZone) * pixelsPerModule + py) * side +
							(x + quietZone) * pixelsPerModule +
							px) *
						4;
					data[offset] = data[offset + 1] = data[offset + 2] = 0;
				}
			}
		}),
	);
	return { data, width: side, height: side };
}

/** What a scanner reads from the matrix: the text, its raw bytes and the version, or null. */
export function decodeMatrix(matrix: boolean[][]) {
	const { data, width, height } = renderMatrix(matrix);
	const result = jsQR(data, width, height, { inversionAttempts: 'dontInvert' });
	if (!result) return null;
	return { text: result.data, bytes: Buffer.from(result.binaryData), version: result.version };
}

/**
 * The module matrix drawn by an SVG from qrToSvg: reads the viewBox, the quiet zone (from the
 * first dark module, which is the top-left finder's corner) and the path's rectangles.
 */
export function svgToMatrix(svg: string) {
	const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
	const scale = /transform="scale\(([\d.]+)\)"/.exec(svg);
	const path = /<path[^>]* d="([^"]*)"/.exec(svg);
	if (!viewBox || !path) throw new Error('Not an SVG drawn by qrToSvg');
	const moduleSize = scale ? Number(scale[1]) : 1;
	const sideModules = Number(viewBox[1]) / moduleSize;
	const rects = [...path[1].matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)].map((m) =>
		m.slice(1).map(Number),
	);
	const quietZone = Math.min(...rects.map(([x]) => x));
	const size = sideModules - 2 * quietZone;
	const matrix = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
	for (const [x, y, width] of rects) {
		for (let i = 0; i < width; i++) matrix[y - quietZone][x - quietZone + i] = true;
	}
	return { matrix, quietZone, moduleSize, viewBoxSide: Number(viewBox[1]) };
}
