// The package the benchmark installs into n8n: the current build, and optionally the build of an
// older commit (BENCH_BEFORE) to compare with.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, run } from '../../scripts/n8n-runtime.mjs';
import { progress } from './output.mjs';

/** The one .tgz in `dir`, if any. @param {string} dir */
function tarballIn(dir) {
	const name = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.tgz')) : undefined;
	return name ? path.join(dir, name) : undefined;
}

/** `npm pack` of the current build (npm run bench built it) into `dir`; FACILITAPAY_TARBALL wins. @param {string} dir */
export async function packCurrent(dir) {
	if (process.env.FACILITAPAY_TARBALL) return path.resolve(process.env.FACILITAPAY_TARBALL);
	fs.mkdirSync(dir, { recursive: true });
	await run('npm', ['pack', '--pack-destination', dir], { logFile: path.join(dir, 'pack.log') });
	return /** @type {string} */ (tarballIn(dir));
}

/**
 * The package as it was at `commit`: `git archive` into $TMPDIR, built with this checkout's
 * node_modules, packed (kept for the next run).
 * @param {string} commit
 */
export async function packCommit(commit) {
	const dir = path.join(os.tmpdir(), `facilitapay-bench-${commit}`);
	const packDir = path.join(dir, 'pack');
	const packed = tarballIn(packDir);
	if (packed) return packed;
	const src = path.join(dir, 'src');
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(src, { recursive: true });
	const archive = spawnSync(
		'sh',
		['-c', `git -C "${ROOT}" archive ${commit} | tar -x -C "${src}"`],
		{
			encoding: 'utf8',
		},
	);
	if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
	const lockChanged = spawnSync('git', [
		'-C',
		ROOT,
		'diff',
		'--quiet',
		commit,
		'HEAD',
		'--',
		'package-lock.json',
	]);
	if (lockChanged.status !== 0)
		progress(`package-lock.json changed since ${commit}: it is built with today's node_modules`);
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(src, 'node_modules'), 'dir');
	fs.mkdirSync(packDir, { recursive: true });
	progress(`building ${commit} in ${src}`);
	const logFile = path.join(dir, 'build.log');
	await run('npm', ['run', 'build'], { cwd: src, logFile });
	await run('npm', ['pack', '--pack-destination', packDir], { cwd: src, logFile });
	return /** @type {string} */ (tarballIn(packDir));
}

/** The short hash of HEAD. */
export function gitHead() {
	return spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], {
		encoding: 'utf8',
	}).stdout.trim();
}
