// `npm start`: a real n8n 2.x with this package installed, next to the local FacilitaPay sandbox.
// Builds and packs the package, installs it as a community package into the n8n home
// (~/.cache/n8n-nodes-facilitapay/n8n-home/, outside the repository; N8N_HOME overrides it), starts the
// sandbox in-process and n8n headless on loopback, creates the owner, imports the "FacilitaPay
// Sandbox" credentials and the example workflows. Ctrl-C stops everything. See docs/real-n8n.md.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
	DEFAULT_N8N_HOME,
	OWNER,
	ROOT,
	assertPortFree,
	buildAndPackPackage,
	ensureN8n,
	importIntoN8n,
	installPackageInto,
	isAlive,
	isInsideRepo,
	localPorts,
	log,
	sandboxCredentials,
	setupOwner,
	startN8n,
	removeUserFolder,
	stopStaleN8n,
} from './n8n-runtime.mjs';
import { createSandbox } from '../sandbox/server.mjs';

const startedAt = Date.now();
const { n8nPort, brokerPort, sandboxPort, sandboxToken } = localPorts();
// Outside the repository: n8n copies ~700 UI asset .js files into its user folder, which
// `n8n-node lint` (eslint .) would otherwise lint.
const userFolder = process.env.N8N_HOME ? path.resolve(process.env.N8N_HOME) : DEFAULT_N8N_HOME;
/** Where earlier versions of this script kept the n8n home (inside the repository). */
const statusFile = path.join(userFolder, 'imported.json');

/** @type {{stop: () => Promise<void>} | null} */
let n8n = null;
/** @type {{close: () => Promise<unknown>} | null} */
let sandbox = null;
let stopping = false;

async function shutdown(code = 0) {
	if (stopping) return;
	stopping = true;
	log('stopping…');
	await n8n?.stop().catch((error) => log(`stopping n8n: ${error.message}`));
	await sandbox?.close().catch((error) => log(`stopping the sandbox: ${error.message}`));
	log('stopped.');
	process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

/** @type {string[]} */
let seededAccounts = [];
/** @param {any} sb */
function describeSeededAccounts(sb) {
	try {
		return [...sb.state.bankAccounts.values()].map(
			(a) => `${a.id}  ${a.currency}  ${sb.state.accountPurposes?.[a.id]?.purpose ?? ''}`,
		);
	} catch {
		return [];
	}
}

/** @param {unknown} value */
const hashOf = (value) =>
	createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** Imports credentials and example workflows whose content changed since the last start. */
async function importChangedContent(credentials) {
	const status = fs.existsSync(statusFile) ? JSON.parse(fs.readFileSync(statusFile, 'utf8')) : {};
	const options = { version: /** @type {const} */ ('v2'), userFolder };
	if (credentials && status.credentials !== hashOf(credentials)) {
		log(`importing credentials "${credentials.name}" (id ${credentials.id})…`);
		await importIntoN8n('credentials', [credentials], options);
		status.credentials = hashOf(credentials);
	}
	const examplesDir = process.env.FACILITAPAY_EXAMPLES_DIR
		? path.resolve(process.env.FACILITAPAY_EXAMPLES_DIR)
		: path.join(ROOT, 'examples');
	const files = fs.existsSync(examplesDir)
		? fs
				.readdirSync(examplesDir)
				.filter((f) => f.endsWith('.json'))
				.sort()
		: [];
	status.workflows ??= {};
	const changed = [];
	for (const file of files) {
		const text = fs.readFileSync(path.join(examplesDir, file), 'utf8');
		let workflow;
		try {
			workflow = JSON.parse(text);
		} catch (error) {
			log(`skipping examples/${file}: not valid JSON (${/** @type {Error} */ (error).message})`);
			continue;
		}
		// A stable id, so that a changed example replaces its earlier import instead of duplicating it.
		workflow.id ??= `example-${file.replace(/\.json$/, '').replace(/[^A-Za-z0-9-]/g, '-')}`.slice(
			0,
			36,
		);
		if (status.workflows[file] !== hashOf(text))
			changed.push({ file, workflow, hash: hashOf(text) });
	}
	if (changed.length > 0) {
		log(
			`importing ${changed.length} example workflow(s): ${changed.map((c) => c.file).join(', ')}…`,
		);
		// One CLI call for all of them: each call boots n8n's CLI, a few seconds.
		await importIntoN8n(
			'workflow',
			changed.map((c) => c.workflow),
			options,
		);
		for (const c of changed) status.workflows[c.file] = c.hash;
	}
	fs.writeFileSync(statusFile, JSON.stringify(status, null, 2));
	return files.length;
}

async function main() {
	if (isInsideRepo(userFolder)) {
		log(
			`N8N_HOME=${userFolder} is inside the repository: \`npm run lint\` will also lint the ~700 .js files n8n writes there`,
		);
	}
	fs.mkdirSync(userFolder, { recursive: true });
	await stopStaleN8n(userFolder);
	// Fail fast, before minutes of installing, when a port is taken.
	await assertPortFree(n8nPort, 'n8n (N8N_PORT)');
	await assertPortFree(brokerPort, "n8n's task broker (N8N_RUNNERS_BROKER_PORT)");
	await assertPortFree(sandboxPort, 'the sandbox (SANDBOX_PORT)');

	const [tarball] = await Promise.all([buildAndPackPackage({ reuse: true }), ensureN8n('v2')]);
	installPackageInto(userFolder, tarball);
	log(`installed ${path.relative(ROOT, tarball)} into ${userFolder}/.n8n/nodes/`);

	let credentials = null;
	{
		const sb = await createSandbox({ port: sandboxPort, host: '127.0.0.1', token: sandboxToken });
		await sb.listen();
		sandbox = sb;
		const sandboxUrl = sb.url ?? `http://127.0.0.1:${sandboxPort}`;
		sb.followRealTime((error) => log(`sandbox clock: ${error.message}`));
		seededAccounts = describeSeededAccounts(sb);
		credentials = sandboxCredentials({
			baseUrl: `${sandboxUrl.replace(/\/$/, '')}/api/v1`,
			token: sandboxToken,
		});
	}

	const examples = await importChangedContent(credentials);
	// A human review of an AI agent's tool call pending across a restart survives only with n8n's
	// simple crash recovery: the default (extensive) marks the waiting agent crashed at start-up
	// (docs/money.md, AI agents and money). Set N8N_EVENTBUS_RECOVERY_MODE to choose otherwise.
	n8n = await startN8n({
		version: 'v2',
		userFolder,
		port: n8nPort,
		brokerPort,
		env: { N8N_EVENTBUS_RECOVERY_MODE: process.env.N8N_EVENTBUS_RECOVERY_MODE ?? 'simple' },
	});
	const { created } = await setupOwner(`http://127.0.0.1:${n8nPort}`);

	const lines = [
		'',
		'  FacilitaPay + n8n are running. Ctrl-C stops both.',
		'',
		`  n8n editor     http://127.0.0.1:${n8nPort}/`,
		`  login          ${OWNER.email} / ${OWNER.password}${created ? '   (owner just created)' : ''}`,
		`  n8n data       ${userFolder}   (log: n8n.log; N8N_HOME changes it)`,
	];
	if (credentials) {
		const sandboxUrl = credentials.data.baseUrl.replace(/\/api\/v1$/, '');
		lines.push(
			`  sandbox        ${sandboxUrl}   API base ${credentials.data.baseUrl}`,
			`  sandbox token  ${sandboxToken}   (credentials "${credentials.name}", id ${credentials.id})`,
			`  sandbox log    GET ${sandboxUrl}/_sandbox/requests   reset: POST ${sandboxUrl}/_sandbox/reset`,
			`  try            curl -H 'Authorization: Bearer ${sandboxToken}' ${credentials.data.baseUrl}/subject/people`,
		);
		if (seededAccounts.length > 0)
			lines.push('  seeded bank accounts:', ...seededAccounts.map((a) => `    ${a}`));
	} else {
		lines.push('  sandbox        not started (sandbox/server.mjs missing)');
	}
	lines.push(
		`  workflows      ${examples} from examples/*.json`,
		`  ready in       ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
		'',
	);
	process.stdout.write(`${lines.join('\n')}\n`);

	// If n8n dies on its own, take the sandbox down too and say so. If whoever started us (npm)
	// went away without passing on a signal, stop too rather than leave n8n running orphaned.
	const parent = process.ppid;
	const watch = setInterval(() => {
		if (process.ppid !== parent) {
			clearInterval(watch);
			log('the parent process went away; stopping');
			void shutdown(0);
			return;
		}
		try {
			process.kill(/** @type {any} */ (n8n).pid, 0);
		} catch {
			clearInterval(watch);
			log(`n8n stopped unexpectedly; see ${path.join(userFolder, 'n8n.log')}`);
			void shutdown(1);
		}
	}, 2000);
}

main().catch(async (error) => {
	process.stderr.write(`\nnpm start failed: ${error.message}\n`);
	await shutdown(1);
});
