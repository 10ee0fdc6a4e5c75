// How the benchmark speaks: results on stdout (the report), progress on stderr.
export const say = (line = '') => process.stdout.write(`${line}\n`);
export const progress = (/** @type {string} */ line) => process.stderr.write(`[bench] ${line}\n`);

/** A number with `digits` decimals, or "–" when there is none. @param {unknown} x @param {number} [digits] */
export const fmt = (x, digits = 0) =>
	x === undefined || x === null || Number.isNaN(x) ? '–' : Number(x).toFixed(digits);
