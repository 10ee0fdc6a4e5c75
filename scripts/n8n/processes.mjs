// Runs n8n: its environment, ports, starting and stopping its processes (main, worker, webhook
// processor; scripts/n8n/group.mjs), and its CLI (import, execute, publish).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CREDENTIAL_TYPE, ENCRYPTION_KEY, cleanEnv, delay, isAlive, log } from './common.mjs';
import { commandLineOf, httpOk, spawnGroup, waitReady } from './group.mjs';
import { ensureN8n } from './install.mjs';

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
		...(version === 'v1'
			? { WEBHOOK_URL: `http://127.0.0.1:${port}/` }
			: { N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/` }),
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
			version === 'v1'
				? 'chat-hub,insights'
				: 'mcp-registry,instance-ai,agents,chat-hub,workflow-builder,insights',
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
 * Starts n8n headless (`n8n start`, or `worker`/`webhook` with `command`) in its own process group
 * and waits until `readyUrl` (default: its /healthz/readiness) answers. The log is
 * `<userFolder>/<logName>.log`, the pid in `<userFolder>/n8n.pid` (for stopStaleN8n); `onSpawn`
 * gets the process as soon as it exists (before it is ready), e.g. to stop it on an interrupt.
 * @param {{version?: 'v2'|'v1', command?: 'start'|'worker'|'webhook', args?: string[], name?: string, userFolder: string, port?: number, brokerPort?: number, env?: Record<string,string>, readyUrl?: string, readyTimeoutMs?: number, logName?: string, portVariables?: {port: string, brokerPort: string}, onSpawn?: (proc: import('./group.mjs').GroupProcess) => void}} options
 * @returns {Promise<{url: string, pid: number, logFile: string, install: Awaited<ReturnType<typeof ensureN8n>>, proc: import('./group.mjs').GroupProcess, stop: () => Promise<void>}>}
 */
export async function startN8n({
	version = 'v2',
	command = 'start',
	args = [],
	name = 'n8n',
	userFolder,
	port = 5678,
	brokerPort = port + 1,
	env = {},
	readyUrl,
	readyTimeoutMs = 180_000,
	logName = 'n8n',
	portVariables = { port: 'N8N_PORT', brokerPort: 'N8N_RUNNERS_BROKER_PORT' },
	onSpawn,
}) {
	const install = await ensureN8n(version);
	await assertPortFree(port, `n8n (${portVariables.port})`);
	await assertPortFree(brokerPort, `n8n's task broker (${portVariables.brokerPort})`);
	fs.mkdirSync(userFolder, { recursive: true });
	const url = `http://127.0.0.1:${port}`;
	const proc = spawnGroup(name, install.nodeBin, [install.n8nBin, command, ...args], {
		cwd: userFolder,
		env: n8nEnv({ version, userFolder, port, brokerPort, env }),
		logFile: path.join(userFolder, `${logName}.log`),
	});
	onSpawn?.(proc);
	const pidFile = path.join(userFolder, 'n8n.pid');
	fs.writeFileSync(pidFile, String(proc.pid));
	const stop = async () => {
		await proc.stop();
		fs.rmSync(pidFile, { force: true });
	};
	const readyAt = readyUrl ?? `${url}/healthz/readiness`;
	const took = await waitReady(proc, () => httpOk(readyAt), readyTimeoutMs);
	log(
		`${name === 'n8n' ? `n8n ${install.n8nVersion}` : name} ready at ${new URL(readyAt).origin} (${took.toFixed(1)} s, pid ${proc.pid}); log: ${proc.logFile}`,
	);
	return { url, pid: proc.pid, logFile: proc.logFile, install, proc, stop };
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
	if (!commandLineOf(pid).includes('n8n')) return false;
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
export async function n8nCli(
	args,
	{ version = 'v2', userFolder, brokerPort, env = {}, allowFailure = false },
) {
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
		throw new Error(
			`n8n ${args.join(' ')} exited with ${code}.\n--- stdout ---\n${stdout.slice(-3000)}\n--- stderr ---\n${stderr.slice(-3000)}`,
		);
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
	const file = path.join(
		dir,
		`${kind}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`,
	);
	fs.writeFileSync(file, JSON.stringify(items, null, 2));
	return n8nCli([`import:${kind}`, `--input=${file}`], options);
}

/**
 * Credentials for the sandbox, in the decrypted form `n8n import:credentials` takes: its access
 * token, or with `signIn` its username and password (sandbox/sandbox, exchanged for a session token).
 * @param {{baseUrl: string, token?: string, id?: string, name?: string, signIn?: boolean}} options
 */
export function sandboxCredentials({
	baseUrl,
	token = 'sandbox-token',
	id = 'facilitapay-sandbox',
	name = 'FacilitaPay Sandbox',
	signIn = false,
}) {
	return {
		id,
		name,
		type: CREDENTIAL_TYPE,
		data: {
			environment: 'custom',
			baseUrl,
			...(signIn
				? { authentication: 'usernamePassword', username: 'sandbox', password: 'sandbox' }
				: { authentication: 'accessToken', accessToken: token }),
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
	const result = await n8nCli(['execute', `--id=${workflowId}`, '--rawOutput'], {
		...options,
		allowFailure: true,
	});
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
