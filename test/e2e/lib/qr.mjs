// Reads a PIX QR code image the way a phone would, for the e2e tests: the SVG the FacilitaPay node
// draws (nodes/FacilitaPay/qr/svg.ts) is rasterized as it is drawn, quiet zone included, and
// jsQR decodes the pixels. Stricter than test/fixtures/qrImage.js: it draws
// the picture instead of rebuilding the matrix, and refuses any SVG it does not fully understand.
import jsQR from 'jsqr';

/**
 * The `src` of every `<img>` tag in an HTML page that is a data URI, with its MIME type and
 * decoded bytes.
 * @param {string} html
 * @returns {{mimeType: string, base64: string, bytes: Buffer}[]}
 */
export function imgDataUris(html) {
	/** @type {{mimeType: string, base64: string, bytes: Buffer}[]} */
	const found = [];
	for (const [tag] of html.matchAll(/<img\b[^>]*>/gi)) {
		const src = /\ssrc\s*=\s*"([^"]*)"/i.exec(tag)?.[1];
		const dataUri = src && /^data:([^;,]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(src);
		if (!dataUri) continue;
		found.push({
			mimeType: dataUri[1],
			base64: dataUri[2],
			bytes: Buffer.from(dataUri[2], 'base64'),
		});
	}
	return found;
}

/**
 * The picture an SVG from qrToSvg draws: its side in modules, the dark modules (from the path's
 * one-module-high rectangles) and the quiet zone (light modules between the symbol and the edge).
 * Throws if the SVG holds anything else: another shape, a path command it cannot read, a
 * background that is not white over the whole picture.
 * @param {string} svg
 */
export function svgToModules(svg) {
	const root =
		/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) (\d+)" width="(\d+)" height="(\d+)" shape-rendering="crispEdges">/.exec(
			svg,
		);
	if (!root) throw new Error(`Not a QR code SVG (root element): ${svg.slice(0, 200)}`);
	const side = Number(root[1]);
	if (Number(root[2]) !== side) throw new Error(`The SVG is not square: ${root[1]} × ${root[2]}`);
	const body = svg.slice(root[0].length);
	const parts =
		/^<rect width="(\d+)" height="(\d+)" fill="#fff"\/><path(?: transform="scale\(([\d.]+)\)")? fill="#000" d="([^"]*)"\/><\/svg>\n?$/.exec(
			body,
		);
	if (!parts) throw new Error(`Unexpected SVG content: ${body.slice(0, 200)}`);
	if (Number(parts[1]) !== side || Number(parts[2]) !== side)
		throw new Error('The white background does not cover the picture');
	const moduleSize = parts[3] === undefined ? 1 : Number(parts[3]);
	const modules = side / moduleSize;
	if (!Number.isInteger(modules))
		throw new Error(`The picture (${side}) is not a whole number of modules of ${moduleSize}`);

	const d = parts[4];
	/** @type {boolean[][]} */
	const dark = Array.from({ length: modules }, () => new Array(modules).fill(false));
	let consumed = 0;
	for (const run of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)) {
		if (run.index !== consumed)
			throw new Error(`Unreadable path data at ${run.index}: ${d.slice(consumed, consumed + 40)}`);
		consumed += run[0].length;
		const [x, y, width, back] = run.slice(1).map(Number);
		if (back !== width || width < 1 || x + width > modules || y >= modules) {
			throw new Error(`Path rectangle outside the picture or not closed: ${run[0]}`);
		}
		for (let i = 0; i < width; i++) dark[y][x + i] = true;
	}
	if (consumed !== d.length)
		throw new Error(`Unreadable path data at ${consumed}: ${d.slice(consumed, consumed + 40)}`);

	const rows = dark.map((row, y) => (row.includes(true) ? y : -1)).filter((y) => y >= 0);
	const columns = [...Array(modules).keys()].filter((x) => dark.some((row) => row[x]));
	if (rows.length === 0) throw new Error('The SVG draws no dark module');
	const quietZone = {
		top: rows[0],
		bottom: modules - 1 - rows[rows.length - 1],
		left: columns[0],
		right: modules - 1 - columns[columns.length - 1],
	};
	return {
		side,
		moduleSize,
		modules,
		dark,
		quietZone,
		symbolSize: modules - quietZone.left - quietZone.right,
	};
}

/**
 * What a scanner reads from a QR code SVG: the picture is drawn `pixelsPerModule` pixels per
 * module, exactly as the SVG lays it out (no quiet zone added), and handed to jsQR.
 * @param {string} svg @param {number} [pixelsPerModule]
 * @returns {{text: string, bytes: Buffer, version: number, picture: ReturnType<typeof svgToModules>} | null}
 */
export function decodeQrSvg(svg, pixelsPerModule = 4) {
	const picture = svgToModules(svg);
	const width = picture.modules * pixelsPerModule;
	const data = new Uint8ClampedArray(width * width * 4).fill(255);
	picture.dark.forEach((row, y) =>
		row.forEach((isDark, x) => {
			if (!isDark) return;
			for (let py = 0; py < pixelsPerModule; py++) {
				for (let px = 0; px < pixelsPerModule; px++) {
					const offset = ((y * pixelsPerModule + py) * width + x * pixelsPerModule + px) * 4;
					data[offset] = data[offset + 1] = data[offset + 2] = 0;
				}
			}
		}),
	);
	const result = jsQR(data, width, width, { inversionAttempts: 'dontInvert' });
	if (!result) return null;
	return {
		text: result.data,
		bytes: Buffer.from(result.binaryData),
		version: result.version,
		picture,
	};
}
