#!/usr/bin/env node
/**
 * `npm run sandbox` — starts the local FacilitaPay sandbox.
 *   --port N (or PORT, default 4010)
 *   --host H (or FACILITAPAY_SANDBOX_HOST, default 127.0.0.1; the generic HOST is ignored)
 *   --token T (or SANDBOX_TOKEN, default sandbox-token)
 *   SANDBOX_USERNAME / SANDBOX_PASSWORD (default sandbox / sandbox)
 *   --auto-settle (or SANDBOX_AUTO_SETTLE=1): run the exchange/wire step after every identified payment
 *   --frozen-clock: do not advance the sandbox clock with real time (only /_sandbox/clock/advance moves it)
 */
import { createSandbox } from './server.mjs';
import { isLoopbackAddress, resolveListenHost, SANDBOX_HOST_VARIABLE } from './network.mjs';

function arg(name) {
	const index = process.argv.indexOf(`--${name}`);
	if (index !== -1 && process.argv[index + 1] && !process.argv[index + 1].startsWith('--'))
		return process.argv[index + 1];
	const eq = process.argv.find((argument) => argument.startsWith(`--${name}=`));
	return eq ? eq.slice(name.length + 3) : undefined;
}
const flag = (name) => process.argv.includes(`--${name}`);

if (flag('help') || flag('h')) {
	console.log(
		'Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--token sandbox-token] [--auto-settle] [--frozen-clock]',
	);
	process.exit(0);
}

const port = Number(arg('port') ?? (process.env.PORT || 4010));
if (!Number.isInteger(port) || port < 0 || port > 65535) {
	console.error(
		`Invalid port "${arg('port') ?? process.env.PORT}". Use --port with a number from 0 to 65535.`,
	);
	process.exit(1);
}
const host = resolveListenHost(arg('host'), process.env);
const token = arg('token') ?? (process.env.SANDBOX_TOKEN || 'sandbox-token');
const username = process.env.SANDBOX_USERNAME ?? 'sandbox';
const password = process.env.SANDBOX_PASSWORD ?? 'sandbox';
const autoSettle = flag('auto-settle') || process.env.SANDBOX_AUTO_SETTLE === '1';

const sb = await createSandbox({ port, host, token, username, password, autoSettle });
try {
	await sb.listen();
} catch (err) {
	if (/** @type {any} */ (err).code === 'EADDRINUSE') {
		console.error(
			`Port ${port} on ${host} is already in use. Pick another one, e.g.: npm run sandbox -- --port ${port + 1}  (or PORT=${port + 1} npm run sandbox)`,
		);
	} else {
		console.error(`Could not start the sandbox: ${/** @type {Error} */ (err).message}`);
	}
	process.exit(1);
}

if (!isLoopbackAddress(host)) {
	console.warn(
		`Listening on ${host} (from --host or ${SANDBOX_HOST_VARIABLE}): the API is reachable from other machines with the token; the control endpoints (/_sandbox) still answer only this machine.`,
	);
}
if (!flag('frozen-clock'))
	sb.followRealTime((error) => console.error(`sandbox clock: ${error.message}`));

const accounts = [...sb.state.bankAccounts.values()];
console.log(`FacilitaPay sandbox running
  Base URL:  ${sb.url}/api/v1
  Token:     ${token}          (header: Authorization: Bearer ${token})
  Sign in:   POST ${sb.url}/api/v1/sign_in  {"user":{"username":"${username}","password":"${password}"}}
  Username:  ${username}
  Password:  ${password}
  Control:   ${sb.url}/_sandbox  (no auth; see docs/sandbox.md)
  Clock:     ${flag('frozen-clock') ? 'frozen (move it with POST /_sandbox/clock/advance)' : 'follows real time (jump ahead with POST /_sandbox/clock/advance)'}
  Settlement:${autoSettle ? ' automatic after each identified payment' : ' manual (POST /_sandbox/settlement/run)'}

Seeded bank accounts:`);
for (const account of accounts)
	console.log(
		`  ${account.id}  ${account.currency}  ${sb.state.accountPurposes[account.id].purpose}`,
	);
console.log(
	`\nTry: curl -H 'Authorization: Bearer ${token}' ${sb.url}/api/v1/subject/people\nPress Ctrl-C to stop.`,
);

let closing = false;
async function shutdown(signal) {
	if (closing) return;
	closing = true;
	console.log(`\n${signal} received, closing the sandbox…`);
	try {
		await sb.close();
	} finally {
		process.exit(0);
	}
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
