// Run after changing dependencies: `npm install && node scripts/lock-optional-platforms.mjs`.
// Why: the npm registry reachable here lacks the other platforms' builds of some packages
// (e.g. @unrs/resolver-binding-darwin-arm64), so `npm install` leaves them out of the lock and
// `npm ci` then refuses the lock as out of sync.
// Adds lock entries for optional platform packages the local registry does not serve, so that
// `npm ci` accepts the lock (it checks every optional dependency has an entry). Each gets its
// os/cpu from its name so npm skips it on other platforms.
import fs from 'node:fs';
const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pkgs = lock.packages;
const guess = (name) => {
	const os = [
		'android',
		'darwin',
		'freebsd',
		'linux',
		'win32',
		'openharmony',
		'sunos',
		'aix',
		'netbsd',
		'openbsd',
	].find((o) => name.includes(o));
	const cpu = [
		'arm64',
		'arm',
		'x64',
		'ia32',
		'loong64',
		'ppc64',
		'riscv64',
		's390x',
		'wasm32',
		'mips64el',
	].find((c) => new RegExp(`[-_]${c}([-_]|$)`).test(name));
	return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}) };
};
let added = 0;
for (const [where, entry] of Object.entries(pkgs)) {
	for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
		// Resolution: nested node_modules first, then each parent, then the top.
		const parts = where.split('node_modules/').filter(Boolean);
		let found = false;
		for (let i = parts.length; i >= 0 && !found; i--) {
			const prefix = parts
				.slice(0, i)
				.map((p) => `node_modules/${p.replace(/\/$/, '')}/`)
				.join('');
			if (pkgs[`${prefix}node_modules/${dep}`]) found = true;
		}
		if (found || !/^\d+\.\d+\.\d+/.test(version)) continue;
		pkgs[`node_modules/${dep}`] = { version, dev: entry.dev, optional: true, ...guess(dep) };
		added++;
	}
}
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} optional platform entries`);
