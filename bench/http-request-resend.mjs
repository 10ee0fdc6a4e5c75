// Reproduction (not part of `npm run bench`): n8n's HTTP Request node with the FacilitaPay
// credentials sends a failed request a second time, at once, whatever the failure (429, 422, 503…).
// n8n-core's legacy requestWithAuthentication (used by the HTTP Request node) calls the credential's
// preAuthentication after ANY error and resends when it returns the expirable `sessionToken`; ours
// returns it in both modes (access token: the token itself; username/password: a shared sign-in).
// Our own node is not affected (httpRequestWithAuthentication resends only after 401).
//   node bench/http-request-resend.mjs [path/to/package.tgz]     (prints what the sandbox received)
import fs from 'node:fs';
import path from 'node:path';

import {
	E2E_RUNS_DIR,
	ensureN8n,
	executeWorkflow,
	importIntoN8n,
	installPackageInto,
	removeUserFolder,
	run,
	sandboxCredentials,
} from '../scripts/n8n-runtime.mjs';
import { chainWorkflow, codeStep, validCpf } from '../test/e2e/lib/n8n-e2e.mjs';
import { ACCOUNTS } from '../test/integration/lib/harness.mjs';
import { createSandbox } from '../sandbox/server.mjs';

const folder = path.join(E2E_RUNS_DIR, `resend-${Date.now()}-${process.pid}`);
let tarball = process.argv[2];
if (!tarball) {
	const dir = path.join(folder, 'pack');
	fs.mkdirSync(dir, { recursive: true });
	await run('npm', ['pack', '--pack-destination', dir], { logFile: path.join(dir, 'pack.log') });
	tarball = path.join(
		dir,
		fs.readdirSync(dir).find((f) => f.endsWith('.tgz')),
	);
}
const sandbox = await createSandbox({ port: 0 });
await sandbox.listen();
await ensureN8n('v2');
const CREDENTIALS = { id: 'facilitapay-sandbox', name: 'FacilitaPay Sandbox' };
const person = sandbox.ctx.subjects.register({
	document_type: 'cpf',
	document_number: validCpf(1),
	social_name: 'Maria Silva',
	fiscal_country: 'BR',
}).subject;

function payoutWorkflow(id, value) {
	const body = {
		transaction: {
			subject_id: person.id,
			from_bank_account_id: ACCOUNTS.usdCashOut,
			to_bank_account_id: ACCOUNTS.brlCustomer,
			currency: 'USD',
			exchange_currency: 'BRL',
			value,
		},
	};
	const wf = chainWorkflow({
		id,
		credentials: CREDENTIALS,
		steps: [
			codeStep('Items', 'return [{ json: {} }];'),
			{
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'POST',
					url: `${sandbox.url}/api/v1/transactions`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'facilitaPayApi',
					sendBody: true,
					specifyBody: 'json',
					jsonBody: JSON.stringify(body),
					options: {},
				},
			},
		],
	});
	wf.nodes[2].credentials = { facilitaPayApi: CREDENTIALS };
	return wf;
}

try {
	for (const mode of ['accessToken', 'usernamePassword']) {
		const userFolder = path.join(folder, mode);
		fs.mkdirSync(userFolder, { recursive: true });
		installPackageInto(userFolder, tarball);
		const credentials = sandboxCredentials({ baseUrl: `${sandbox.url}/api/v1` });
		if (mode === 'usernamePassword') {
			credentials.data = {
				environment: 'custom',
				baseUrl: `${sandbox.url}/api/v1`,
				authentication: 'usernamePassword',
				username: 'sandbox',
				password: 'sandbox',
			};
		}
		await importIntoN8n('credentials', [credentials], { userFolder });
		const cases = [
			{
				id: `resend-503-${mode}`.slice(0, 36),
				what: 'payout answered 503 once',
				value: '10.00',
				fault: { route: 'POST /api/v1/transactions', kind: '503', count: 1 },
			},
			{ id: `resend-422-${mode}`.slice(0, 36), what: 'invalid payout (422)', value: '0.00' },
		];
		await importIntoN8n(
			'workflow',
			cases.map((c) => payoutWorkflow(c.id, c.value)),
			{ userFolder },
		);
		for (const c of cases) {
			sandbox.state.requests.length = 0;
			sandbox.ctx.faults.clear();
			if (c.fault) sandbox.ctx.faults.add(c.fault);
			const before = sandbox.state.transactions.size;
			const result = await executeWorkflow(c.id, { userFolder });
			const received = sandbox.state.requests.map((e) => `${e.method} ${e.url} → ${e.status}`);
			console.log(
				`${mode}, ${c.what}: n8n exit ${result.code}; the sandbox received: ${received.join(', ')}; payouts created: ${sandbox.state.transactions.size - before}`,
			);
		}
	}
} finally {
	await sandbox.close();
	removeUserFolder(folder);
}
