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

function runPenalty(line: boolean[]): number {
	let score = 0;
	let run = 1;
	for (let i = 1; i <= line.length; i++) {
		if (i < line.length && line[i] === line[i - 1]) {
			run++;
			continue;
		}
		if (run >= 5) score += RUN_PENALTY + run - 5;
		run = 1;
	}
	return score;
}

/** Whether line[from, to) is all light; modules outside the symbol are light. */
function isLight(line: boolean[], from: number, to: number): boolean {
	for (let i = Math.max(from, 0); i < Math.min(to, line.length); i++) if (line[i]) return false;
	return true;
}

function matchesFinderCore(line: boolean[], start: number): boolean {
	for (let offset = 0; offset < FINDER_CORE.length; offset++) {
		if (line[start + offset] !== FINDER_CORE[offset]) return false;
	}
	return true;
}

function finderPenalty(line: boolean[]): number {
	let score = 0;
	for (let start = 0; start + FINDER_CORE.length <= line.length; start++) {
		if (!matchesFinderCore(line, start)) continue;
		const end = start + FINDER_CORE.length;
		if (isLight(line, start - 4, start) || isLight(line, end, end + 4)) score += FINDER_PENALTY;
	}
	return score;
}

export function maskPenalty(dark: boolean[][]): number {
	const size = dark.length;
	let score = 0;
	for (let i = 0; i < size; i++) {
		const row = dark[i];
		const column = dark.map((line) => line[i]);
		score += runPenalty(row) + runPenalty(column) + finderPenalty(row) + finderPenalty(column);
	}
	let darkCount = 0;
	for (let y = 0; y < size; y++) {
		const row = dark[y];
		const below = dark[y + 1];
		for (let x = 0; x < size; x++) {
			if (row[x]) darkCount++;
			if (
				below !== undefined &&
				x + 1 < size &&
				row[x] === row[x + 1] &&
				row[x] === below[x] &&
				row[x] === below[x + 1]
			) {
				score += BLOCK_PENALTY;
			}
		}
	}
	const total = size * size;
	const fivePercentSteps = Math.floor(Math.abs(darkCount * 20 - total * 10) / total);
	return score + fivePercentSteps * BALANCE_PENALTY;
}
