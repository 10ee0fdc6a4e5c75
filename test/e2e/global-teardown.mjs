// Jest globalTeardown: stops the shared n8n and sandbox that global-setup.mjs started.
import { log } from '../../scripts/n8n-runtime.mjs';

export default async function globalTeardown() {
	const shared = /** @type {any} */ (globalThis).__facilitapayE2e;
	if (!shared) return;
	const startedAt = Date.now();
	await shared.n8n?.stop().catch((/** @type {Error} */ error) => log(`stopping n8n: ${error.message}`));
	await shared.sandbox?.close().catch((/** @type {Error} */ error) => log(`stopping the sandbox: ${error.message}`));
	log(`e2e environment stopped in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
	delete (/** @type {any} */ (globalThis).__facilitapayE2e);
}
