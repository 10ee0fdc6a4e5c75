// An n8n of a test file's own, beside the shared one of the e2e run: for a test that restarts n8n,
// runs another version, or needs n8n started with other settings.
import fs from 'node:fs';
import {
	createApiKey,
	ensureN8n,
	freePort,
	installPackageInto,
	removeUserFolder,
	setupOwner,
	startN8n,
} from '../../../scripts/n8n-runtime.mjs';
import { shareSandbox, startPrivateSandbox } from './sandbox.mjs';
import { waitFor } from './state.mjs';

/**
 * An n8n of the calling file's own (`version`, its user folder `<run>-<suffix>`, kept or removed
 * with the run's by the global teardown) with the package installed, a private sandbox whose
 * credentials it holds, an owner and an API key (what useRetryInstance's `setUp` returns), `env`
 * added to n8n's environment (e.g. its own N8N_ENCRYPTION_KEY: n8n's instance ID is derived from
 * it). With `sandbox.shared` (another ownN8n's `sb`) it uses that sandbox instead of its own. `restart()` stops it and starts it again on the same folder, database
 * and port (the owner and the API key stay) and logs in again; `state` is what the e2e helpers take
 * to reach this n8n and its sandbox.
 * @param {any} state
 * @param {{version: 'v2'|'v1', suffix: string, sandbox: {id: string, name: string, shared?: any}, env?: Record<string, string>}} options
 */
export async function ownN8n(state, { version, suffix, sandbox, env = {} }) {
	await ensureN8n(version);
	const userFolder = `${state.userFolder}-${suffix}`;
	removeUserFolder(userFolder);
	fs.mkdirSync(userFolder, { recursive: true });
	installPackageInto(userFolder, state.tarball);
	// The CLI runs with n8n's environment too: an encryption key of its own must reach it before
	// the first import writes the folder's config (n8n refuses a folder with another key).
	const cliTarget = { version, userFolder, env };
	const sb = sandbox.shared
		? await shareSandbox(sandbox.shared, cliTarget)
		: await startPrivateSandbox({ ...sandbox, cli: cliTarget }, state);
	const where = { version, userFolder, port: await freePort(), brokerPort: await freePort(), env };
	let running = await startN8n(where);
	// 1.x answers /healthz/readiness before its REST routes exist (404 "Cannot POST /rest/login").
	const logIn = async () =>
		(
			await waitFor(() => setupOwner(running.url), {
				what: `n8n (${version}) to accept the owner set-up and log-in`,
				timeoutMs: 60_000,
				intervalMs: 500,
			})
		).client;
	const client = await logIn();
	const apiKey = await createApiKey(running.url, { client, label: `e2e (${suffix})` });
	const server = { url: running.url, apiKey, client };
	return {
		sb,
		server,
		userFolder,
		state: { ...sb.state, n8nUrl: server.url, apiKey, userFolder, n8nEnv: env },
		stop: () => running.stop(),
		/** The process id of the running n8n (its memory: /proc/<pid>/status). */
		pid: () => running.pid,
		/** Starts it again after stop() (same folder, database and port). */
		async start() {
			running = await startN8n(where);
			server.client = await logIn();
		},
		async restart() {
			await running.stop();
			running = await startN8n(where);
			server.client = await logIn();
		},
	};
}
