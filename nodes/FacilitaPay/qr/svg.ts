/**
 * An SVG picture of a QR module matrix: a white background with a quiet zone around the symbol and
 * all dark modules in one black path, drawn with crisp edges so scanners see sharp squares.
 */

export interface QrSvgOptions {
	/** Light modules around the symbol; at least 4 keeps it readable by every scanner. Default 4. */
	quietZone?: number;
	/** Width of one module in SVG units (pixels when shown at natural size). Default 8. */
	moduleSize?: number;
}

export function qrToSvg(matrix: boolean[][], options: QrSvgOptions = {}): string {
	const quietZone = options.quietZone ?? 4;
	const moduleSize = options.moduleSize ?? 8;
	if (!Number.isInteger(quietZone) || quietZone < 0) {
		throw new RangeError(`quietZone must be a whole number of modules, got ${quietZone}`);
	}
	if (!(moduleSize > 0)) throw new RangeError(`moduleSize must be positive, got ${moduleSize}`);

	const side = (matrix.length + 2 * quietZone) * moduleSize;
	// Each horizontal run of dark modules becomes one rectangle of the path, in module units.
	const runs: string[] = [];
	matrix.forEach((row, y) => {
		let x = 0;
		while (x < row.length) {
			if (!row[x]) {
				x++;
				continue;
			}
			const start = x;
			while (x < row.length && row[x]) x++;
			runs.push(`M${start + quietZone} ${y + quietZone}h${x - start}v1h-${x - start}z`);
		}
	});
	const scale = moduleSize === 1 ? '' : ` transform="scale(${moduleSize})"`;
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="${side}" height="${side}" shape-rendering="crispEdges">` +
		`<rect width="${side}" height="${side}" fill="#fff"/>` +
		`<path${scale} fill="#000" d="${runs.join('')}"/>` +
		'</svg>\n'
	);
}
