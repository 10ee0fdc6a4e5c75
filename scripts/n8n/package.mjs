// Builds and packs this package, and installs the tarball into an n8n user folder the way a Community Nodes install looks.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
	CACHE_DIR,
	PACKAGE_NAME,
	ROOT,
	USER_CACHE_DIR,
	cleanEnv,
	log,
	run,
	seconds,
} from './common.mjs';

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
			log(
				`package sources unchanged since the last build: reusing ${path.relative(ROOT, stamp.tarball)}`,
			);
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
	for (const old of fs.readdirSync(packDir).filter((f) => f.endsWith('.tgz')))
		fs.rmSync(path.join(packDir, old));
	const out = spawnSync('npm', ['pack', '--json', '--pack-destination', packDir], {
		cwd: ROOT,
		env: cleanEnv(),
		encoding: 'utf8',
	});
	if (out.status !== 0) throw new Error(`npm pack failed:\n${out.stderr}`);
	const [{ filename, size }] = JSON.parse(out.stdout);
	const tarball = path.join(packDir, path.basename(filename));
	fs.writeFileSync(stampFile, JSON.stringify({ sourcesHash, tarball }, null, 2));
	log(
		`packed ${path.relative(ROOT, tarball)} (${(size / 1024).toFixed(0)} kB) in ${seconds(startedAt)}`,
	);
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
	for (const rel of [
		'nodes',
		'credentials',
		'icons',
		'package.json',
		'tsconfig.json',
		'tsconfig.build.json',
		'gulpfile.js',
		'README.md',
		'LICENSE',
		'LICENSE.md',
	])
		add(rel);
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
		if (fs.lstatSync(link).isSymbolicLink())
			fs.rmSync(path.dirname(fs.realpathSync(link)), { recursive: true, force: true });
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
	const out = spawnSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], {
		encoding: 'utf8',
	});
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
