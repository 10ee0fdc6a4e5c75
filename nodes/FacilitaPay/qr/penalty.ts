/**
 * The penalty score used to choose the data mask (ISO/IEC 18004, 7.8.3): the mask with the lowest
 * total wins.
 * - N1: each run of 5 or more same-colour modules in a row or column scores 3 + (run - 5);
 * - N2: each 2×2 block of one colour scores 3;
 * - N3: each finder-like 1:1:3:1:1 pattern with 4 light modules on either side scores 40
 *   (modules outside the symbol count as light: they are the quiet zone);
 * - N4: 10 for every full 5 % the share of dark modules differs from 50 %.
 */

const RUN_PENALTY = 3;
const BLOCK_PENALTY = 3;
const FINDER_PENALTY = 40;
const BALANCE_PENALTY = 10;

/** Dark, light, dark×3, light, dark: the core of a finder pattern. */
const FINDER_CORE = [true, false, true, true, true, false, true];

type Line = (i: number) => boolean;

function runPenalty(line: Line, size: number): number {
	let score = 0;
	let run = 1;
	for (let i = 1; i <= size; i++) {
		if (i < size && line(i) === line(i - 1)) {
			run++;
			continue;
		}
		if (run >= 5) score += RUN_PENALTY + run - 5;
		run = 1;
	}
	return score;
}

function isLight(line: Line, size: number, from: number, to: number): boolean {
	for (let i = Math.max(from, 0); i < Math.min(to, size); i++) if (line(i)) return false;
	return true;
}

function finderPenalty(line: Line, size: number): number {
	let score = 0;
	for (let start = 0; start + FINDER_CORE.length <= size; start++) {
		if (!FINDER_CORE.every((isDark, offset) => line(start + offset) === isDark)) continue;
		const end = start + FINDER_CORE.length;
		if (isLight(line, size, start - 4, start) || isLight(line, size, end, end + 4)) {
			score += FINDER_PENALTY;
		}
	}
	return score;
}

export function maskPenalty(dark: boolean[][]): number {
	const size = dark.length;
	let score = 0;
	for (let i = 0; i < size; i++) {
		const row: Line = (x) => dark[i][x];
		const column: Line = (y) => dark[y][i];
		score += runPenalty(row, size) + runPenalty(column, size);
		score += finderPenalty(row, size) + finderPenalty(column, size);
	}
	let darkCount = 0;
	for (let y = 0; y < size; y++) {
		for (let x = 0; x < size; x++) {
			if (dark[y][x]) darkCount++;
			if (
				y + 1 < size &&
				x + 1 < size &&
				dark[y][x] === dark[y][x + 1] &&
				dark[y][x] === dark[y + 1][x] &&
				dark[y][x] === dark[y + 1][x + 1]
			) {
				score += BLOCK_PENALTY;
			}
		}
	}
	const total = size * size;
	const fivePercentSteps = Math.floor(Math.abs(darkCount * 20 - total * 10) / total);
	return score + fivePercentSteps * BALANCE_PENALTY;
}
