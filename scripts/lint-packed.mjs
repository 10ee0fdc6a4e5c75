// Lints the package as n8n's verification scanner sees it: `npm pack`, unpack, then the scanner's
// own analyzePackage (from @n8n/scan-community-package, the package n8n runs before it verifies a
// community node) over the tarball's JavaScript and package.json. The scanner is installed once
// into .cache/scan-community-package/ (the registry is the only thing it needs). Exit 1 on any
// violation, with the scanner's report.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SCANNER_VERSION = '0.32.0';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = process.env.FACILITAPAY_CACHE_DIR
	? path.resolve(process.env.FACILITAPAY_CACHE_DIR)
	: path.join(root, '.cache');
const scannerHome = path.join(cacheDir, `scan-community-package-${SCANNER_VERSION}`);
const scannerModule = path.join(
	scannerHome,
	'node_modules',
	'@n8n',
	'scan-community-package',
	'scanner',
	'scanner.mjs',
);

function run(command, args, cwd) {
	const result = spawnSync(command, args, {
		cwd,
		encoding: 'utf8',
		env: { ...process.env, npm_config_yes: 'true' },
	});
	if (result.status !== 0) {
		process.stderr.write(result.stdout + result.stderr);
		throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
	}
	return result.stdout;
}

if (!fs.existsSync(scannerModule)) {
	fs.mkdirSync(scannerHome, { recursive: true });
	process.stdout.write(
		`installing @n8n/scan-community-package@${SCANNER_VERSION} into ${path.relative(root, scannerHome)}/\n`,
	);
	run(
		'npm',
		[
			'install',
			'--ignore-scripts',
			'--no-save',
			'--no-audit',
			'--no-fund',
			'--prefix',
			scannerHome,
			`@n8n/scan-community-package@${SCANNER_VERSION}`,
		],
		root,
	);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'facilitapay-packed-'));
try {
	const tarball = run('npm', ['pack', '--silent', '--pack-destination', work], root)
		.trim()
		.split('\n')
		.pop();
	const packageDir = path.join(work, 'package');
	fs.mkdirSync(packageDir);
	run('tar', ['-xzf', path.join(work, tarball), '-C', packageDir, '--strip-components=1'], work);
	const files = spawnSync('find', ['.', '-type', 'f'], { cwd: packageDir, encoding: 'utf8' })
		.stdout.trim()
		.split('\n');
	// The repository holds no maintainer's address (the author e-mail is a reserved-domain
	// placeholder); publish.yml sets the real one from the AUTHOR_EMAIL variable and passes it here.
	const manifestPath = path.join(packageDir, 'package.json');
	const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
	const email = process.env.FACILITAPAY_AUTHOR_EMAIL?.trim();
	if (email) {
		manifest.author = { ...(manifest.author ?? {}), email };
		fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
	}
	const { buildScanConfig } = await import(pathToFileURL(scannerModule).href);
	const { ESLint } = await import(
		pathToFileURL(path.join(scannerHome, 'node_modules', 'eslint', 'lib', 'api.js')).href
	);
	const eslint = new ESLint({
		cwd: packageDir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
	});
	const lintable = files
		.filter((file) => /\.(js|ts|json)$/.test(file) && !file.includes('node_modules/'))
		.map((file) => path.join(packageDir, file));
	const results = await eslint.lintFiles(lintable);
	const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
	const report = await (await eslint.loadFormatter('stylish')).format(results);
	if (report.trim()) process.stdout.write(`${report}\n`);
	process.stdout.write(
		`packed package (${tarball}, ${files.length} files, ${lintable.length} linted with n8n's community-package scanner rules): ${errors} error(s)\n`,
	);
	if (errors > 0) process.exitCode = 1;
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
