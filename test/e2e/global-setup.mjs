// Jest globalSetup: when e2e tests are part of the run, prepares ONE real n8n 2.x for all of them:
// Node 24 + n8n installed once in .cache/ (reused), the package built and packed, a fresh user
// folder under .cache/e2e/run-*/ with the package installed, the sandbox started in this process,
// the "FacilitaPay Sandbox" credentials imported, n8n started (owner + API key for the public API).
// The state goes to .cache/e2e/state.json for test/e2e/lib/n8n-e2e.mjs. A run without e2e tests
// (plain `npm test`, `npm run test:unit`) does nothing here.
import fs from 'node:fs';
import path from 'node:path';
import {
	CACHE_DIR,
	buildAndPackPackage,
	createApiKey,
	ensureN8n,
	importIntoN8n,
	installPackageInto,
	loadSandboxModule,
	removeUserFolder,
	log,
	sandboxCredentials,
	setupOwner,
	startN8n,
	stopStaleN8n,
} from '../../scripts/n8n-runtime.mjs';
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
	const e2eDir = path.join(CACHE_DIR, 'e2e');
	fs.mkdirSync(e2eDir, { recursive: true });
	// A run killed before its teardown leaves its n8n behind: stop it (only ours, by recorded pid).
	for (const run of fs.readdirSync(e2eDir).filter((d) => d.startsWith('run-'))) {
		await stopStaleN8n(path.join(e2eDir, run));
	}
	// Keep the last few run folders for post-mortems, drop older ones.
	const runs = fs.readdirSync(e2eDir).filter((d) => d.startsWith('run-')).sort();
	for (const old of runs.slice(0, Math.max(0, runs.length - 3))) removeUserFolder(path.join(e2eDir, old));

	const userFolder = path.join(e2eDir, `run-${new Date().toISOString().replace(/[:.]/g, '-')}`);
	fs.mkdirSync(userFolder, { recursive: true });
	/** @type {string[]} */
	const missing = [];

	const [tarball] = await Promise.all([buildAndPackPackage({ reuse: true }), ensureN8n('v2')]);
	installPackageInto(userFolder, tarball);
	const installed = JSON.parse(
		fs.readFileSync(path.join(userFolder, '.n8n/nodes/node_modules/n8n-nodes-facilitapay/package.json'), 'utf8'),
	);
	const declaredNodes = installed.n8n?.nodes ?? [];
	if (!declaredNodes.some((/** @type {string} */ n) => n.includes('FacilitaPay.node'))) missing.push('node: the FacilitaPay action node is not in package.json "n8n.nodes"');
	if (!declaredNodes.some((/** @type {string} */ n) => n.includes('FacilitaPayTrigger'))) missing.push('trigger: the FacilitaPay Trigger is not in package.json "n8n.nodes"');

	const sandboxToken = 'sandbox-token';
	let sandboxUrl = null;
	let credentials = null;
	const sandboxModule = await loadSandboxModule();
	if (sandboxModule?.createSandbox) {
		const port = Number(process.env.E2E_SANDBOX_PORT ?? 0);
		// Frozen clock (no ticker): tests move it with POST /_sandbox/clock/advance when they need to.
		const sandbox = await sandboxModule.createSandbox({ port, host: '127.0.0.1', token: 'sandbox-token' });
		await sandbox.listen();
		sandboxUrl = String(sandbox.url).replace(/\/$/, '');
		/** @type {any} */ (globalThis).__facilitapayE2e = { sandbox };
		const creds = sandboxCredentials({ baseUrl: `${sandboxUrl}/api/v1`, token: sandboxToken });
		await importIntoN8n('credentials', [creds], { version: 'v2', userFolder });
		credentials = { id: creds.id, name: creds.name };
	} else {
		missing.push('sandbox: sandbox/server.mjs (createSandbox) does not exist yet');
	}

	const port = Number(process.env.E2E_N8N_PORT ?? 5690);
	const n8n = await startN8n({
		version: 'v2',
		userFolder,
		port,
		brokerPort: Number(process.env.E2E_N8N_BROKER_PORT ?? port + 1),
		portVariables: { port: 'E2E_N8N_PORT', brokerPort: 'E2E_N8N_BROKER_PORT' },
	});
	/** @type {any} */ (globalThis).__facilitapayE2e = { .../** @type {any} */ (globalThis).__facilitapayE2e, n8n };
	const { client } = await setupOwner(n8n.url);
	const apiKey = await createApiKey(n8n.url, { client, label: 'e2e' });

	const state = {
		version: 'v2',
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
	log(`e2e environment ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${userFolder}`);
	if (missing.length > 0) log(`e2e environment lacks: ${missing.join('; ')}`);
}
