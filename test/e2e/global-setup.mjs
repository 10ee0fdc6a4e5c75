// Jest globalSetup: when e2e tests are part of the run, prepares ONE real n8n 2.x for all of them:
// Node 24 + n8n installed once in .cache/ (reused), the package built and packed, a fresh user
// folder /tmp/facilitapay-e2e/run-<time>-<pid>/ (outside the repository; FACILITAPAY_E2E_DIR) with
// the package installed, the sandbox started in this process,
// the "FacilitaPay Sandbox" credentials imported, n8n started (owner + API key for the public API).
// The state goes to .cache/e2e/state.json for test/e2e/lib/n8n-e2e.mjs. A run without e2e tests
// (plain `npm test`, `npm run test:unit`) does nothing here.
import fs from 'node:fs';
import path from 'node:path';
import {
	CACHE_DIR,
	E2E_RUNS_DIR,
	buildAndPackPackage,
	isAlive,
	createApiKey,
	ensureN8n,
	importIntoN8n,
	installPackageInto,
	removeUserFolder,
	log,
	sandboxCredentials,
	setupOwner,
	startN8n,
	stopStaleN8n,
} from '../../scripts/n8n-runtime.mjs';
import { createSandbox } from '../../sandbox/server.mjs';
import globalTeardown from './global-teardown.mjs';
import { STATE_FILE } from './lib/n8n-e2e.mjs';

/** @param {any} globalConfig */
function e2eSelected(globalConfig) {
	if (process.env.FACILITAPAY_E2E === '1') return true;
	if (process.env.FACILITAPAY_E2E === '0') return false;
	const pattern = String(globalConfig?.testPathPattern ?? '');
	return /e2e/.test(pattern);
}

/** @param {any} globalConfig */
export default async function globalSetup(globalConfig) {
	if (!e2eSelected(globalConfig)) return;
	try {
		await prepare();
	} catch (error) {
		// Jest does not run globalTeardown when globalSetup fails: stop what was started.
		await globalTeardown();
		throw error;
	}
}

async function prepare() {
	process.env.FACILITAPAY_E2E = '1';
	const startedAt = Date.now();
	fs.mkdirSync(path.join(CACHE_DIR, 'e2e'), { recursive: true });
	await removeLeftoverRuns();

	// The n8n user folder lives outside the repository (os.tmpdir()): n8n writes ~700 UI asset .js
	// files into it, which `n8n-node lint` (eslint .) would otherwise lint. Teardown removes it.
	const userFolder = path.join(
		E2E_RUNS_DIR,
		`run-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`,
	);
	fs.mkdirSync(userFolder, { recursive: true });
	/** @type {string[]} */
	const missing = [];

	const [tarball] = await Promise.all([buildAndPackPackage({ reuse: true }), ensureN8n('v2')]);
	installPackageInto(userFolder, tarball);
	const installed = JSON.parse(
		fs.readFileSync(
			path.join(userFolder, '.n8n/nodes/node_modules/n8n-nodes-facilitapay/package.json'),
			'utf8',
		),
	);
	const declaredNodes = installed.n8n?.nodes ?? [];
	if (!declaredNodes.some((/** @type {string} */ n) => n.includes('FacilitaPay.node')))
		missing.push('node: the FacilitaPay action node is not in package.json "n8n.nodes"');
	if (!declaredNodes.some((/** @type {string} */ n) => n.includes('FacilitaPayTrigger')))
		missing.push('trigger: the FacilitaPay Trigger is not in package.json "n8n.nodes"');

	const sandboxToken = 'sandbox-token';
	let sandboxUrl = null;
	let credentials = null;
	{
		const port = Number(process.env.E2E_SANDBOX_PORT ?? 0);
		// Frozen clock (no ticker): tests move it with POST /_sandbox/clock/advance when they need to.
		const sandbox = await createSandbox({ port, host: '127.0.0.1', token: 'sandbox-token' });
		await sandbox.listen();
		sandboxUrl = String(sandbox.url).replace(/\/$/, '');
		/** @type {any} */ (globalThis).__facilitapayE2e = { sandbox };
		const creds = sandboxCredentials({ baseUrl: `${sandboxUrl}/api/v1`, token: sandboxToken });
		await importIntoN8n('credentials', [creds], { version: 'v2', userFolder });
		credentials = { id: creds.id, name: creds.name };
	}

	const port = Number(process.env.E2E_N8N_PORT ?? 5690);
	const n8n = await startN8n({
		version: 'v2',
		userFolder,
		port,
		brokerPort: Number(process.env.E2E_N8N_BROKER_PORT ?? port + 1),
		portVariables: { port: 'E2E_N8N_PORT', brokerPort: 'E2E_N8N_BROKER_PORT' },
	});
	/** @type {any} */ (globalThis).__facilitapayE2e = {
		.../** @type {any} */ (globalThis).__facilitapayE2e,
		n8n,
	};
	const { client } = await setupOwner(n8n.url);
	const apiKey = await createApiKey(n8n.url, { client, label: 'e2e' });

	const state = {
		version: 'v2',
		n8nVersion: n8n.install.n8nVersion,
		userFolder,
		n8nUrl: n8n.url,
		apiKey,
		sandboxUrl,
		sandboxToken,
		credentials,
		tarball,
		missing,
	};
	// The run's own state file reaches the tests through the environment (so two runs at once do
	// not read each other's); .cache/e2e/state.json names the latest run for manual use.
	const stateFile = path.join(userFolder, 'state.json');
	fs.writeFileSync(stateFile, JSON.stringify(state, null, 2));
	fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
	process.env.FACILITAPAY_E2E_STATE = stateFile;
	/** @type {any} */ (globalThis).__facilitapayE2e = {
		.../** @type {any} */ (globalThis).__facilitapayE2e,
		userFolder,
	};
	log(`e2e environment ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${userFolder}`);
	if (missing.length > 0) log(`e2e environment lacks: ${missing.join('; ')}`);
}

/**
 * Removes run folders left by runs that were killed before their teardown (their owner process is
 * gone), stopping an n8n still running there; runs whose owner is alive (another e2e run at the
 * same time, on other ports) are left alone.
 */
async function removeLeftoverRuns() {
	if (!fs.existsSync(E2E_RUNS_DIR)) return;
	for (const entry of fs.readdirSync(E2E_RUNS_DIR)) {
		if (!entry.startsWith('run-')) continue;
		const folder = path.join(E2E_RUNS_DIR, entry);
		// run-<time>-<owner pid>[-v1…]: the owner is the jest process whose globalSetup made it.
		const owner = Number(/^run-.+Z-(\d+)/.exec(entry)?.[1] ?? 0);
		if (owner && owner !== process.pid && isAlive(owner)) continue;
		await stopStaleN8n(folder);
		removeUserFolder(folder);
	}
}
