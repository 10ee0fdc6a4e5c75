// Transaction > Wait for Payment in a real n8n, 2.41.1 and 1.123.81 (a server of this file each):
// what n8n allows, probed (docs/waiting.md "Probes"). Webhook → Resume URL (a Set node keeping
// $execution.resumeUrl) → FacilitaPay (Wait for Payment) → Paid / Not Paid / Timed Out (No-Ops).
// (a) a resume call whose webhook() returns no workflowData (our 401) leaves the execution waiting;
// (b) n8n's own time resume (the waiter gone with a restart) sends the items the node left on its
//     stack entry: Timed Out on 2.x; on 1.x only the first array (the paid) goes on, nothing here;
// (c) a second resume of a finished execution is refused (409);
// (d) what $execution.resumeUrl looks like.
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import { ownN8n } from './lib/own-n8n.mjs';
import { getExecution } from './lib/retry.mjs';
import {
	createDynamicPix,
	createPerson,
	samplePerson,
	sandboxApi,
	sandboxControl,
} from './lib/sandbox.mjs';
import { INSTALL_TIMEOUT, describeE2e, sharedState, uniqueId, waitFor } from './lib/state.mjs';
import { createWorkflowViaApi, activateWorkflow } from './lib/n8n.mjs';
import { nodeOutput } from '../../scripts/n8n-runtime.mjs';
import { OUTPUTS, waitingExecution } from './lib/wait-restart.mjs';
import { endedExecution } from './lib/waiting.mjs';

void ACCOUNT_IDS;

/** @param {{id: string, name: string}} credentials @param {string} path @param {object} limit */
function waitWorkflow(credentials, path, limit) {
	const noop = (name, y) => ({
		id: `noop-${y}`,
		name,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [700, y * 160],
		parameters: {},
	});
	return {
		name: `wait probe ${path}`,
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveManualExecutions: true },
		nodes: [
			{
				id: 'webhook',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: path,
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			},
			{
				id: 'resume-url',
				name: 'Resume URL',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: {
					assignments: {
						assignments: [
							{ id: 'r', name: 'resumeUrl', value: '={{ $execution.resumeUrl }}', type: 'string' },
							{ id: 'i', name: 'id', value: '={{ $json.body.id }}', type: 'string' },
						],
					},
					options: {},
				},
			},
			{
				id: 'wait-node',
				name: 'Wait for Payment',
				type: 'n8n-nodes-facilitapay.facilitaPay',
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					resource: 'transaction',
					operation: 'waitForPayment',
					transactionId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
					...limit,
				},
				credentials: { facilitaPayApi: credentials },
			},
			...OUTPUTS.map((name, i) => noop(name, i)),
		],
		connections: {
			Webhook: { main: [[{ node: 'Resume URL', type: 'main', index: 0 }]] },
			'Resume URL': { main: [[{ node: 'Wait for Payment', type: 'main', index: 0 }]] },
			'Wait for Payment': {
				main: OUTPUTS.map((name) => [{ node: name, type: 'main', index: 0 }]),
			},
		},
	};
}

for (const version of /** @type {const} */ (['v2', 'v1'])) {
	describeE2e(
		`Wait for Payment in a real n8n ${version === 'v2' ? '2.41.1' : '1.123.81'}: probes`,
		() => {
			/** @type {any} */
			let own;
			let subjectId = '';
			beforeAll(async () => {
				own = await ownN8n(sharedState(), {
					version,
					suffix: `wait-probe-${version}`,
					sandbox: { id: `wait-probe-${version}`, name: `Wait Probe ${version}` },
				});
				// FacilitaPay lists (GET /notifications) only what it sent: a URL must be registered.
				await sandboxApi(
					'POST',
					'/enable_webhooks',
					{ url: 'http://127.0.0.1:9/nobody' },
					own.sb.state,
				);
				const subject = await createPerson(
					samplePerson(3700 + (version === 'v2' ? 1 : 2), 'Ana Espera'),
					own.sb.state,
				);
				subjectId = subject.id;
			}, INSTALL_TIMEOUT);
			afterAll(async () => {
				await own?.stop();
				await own?.sb.close();
			}, 60_000);

			async function startWait(limit) {
				const path = uniqueId('wait-probe');
				const workflow = await createWorkflowViaApi(
					waitWorkflow(own.sb.credentials, path, limit),
					own.state,
				);
				await activateWorkflow(workflow.id, own.state);
				const pix = await createDynamicPix(subjectId, '12.34', own.sb.state);
				// 2.x publishes asynchronously: the webhook answers 404 until it is registered.
				const started = await waitFor(
					async () => {
						const r = await fetch(`${own.server.url}/webhook/${path}`, {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify({ id: pix.id }),
						});
						return r.status === 404 ? null : r;
					},
					{ what: "the workflow's webhook to be registered", timeoutMs: 30_000, intervalMs: 500 },
				);
				expect(started.status).toBe(200);
				const waiting = await waitingExecution(own, workflow.id);
				const execution = await getExecution(own.server, waiting.id);
				const resumeUrl = nodeOutput(execution, 'Resume URL')[0].resumeUrl;
				return { workflow, pix, executionId: String(waiting.id), resumeUrl };
			}

			const finished = (executionId, timeoutMs = 60_000) =>
				endedExecution(
					{ n8nUrl: own.server.url, apiKey: own.server.apiKey },
					executionId,
					timeoutMs,
				);

			const ran = (execution) =>
				OUTPUTS.filter((name) => execution.data.resultData.runData[name] !== undefined);

			test('paid: forged calls leave it waiting (a), it resumes once on Paid, a second resume is refused (c)', async () => {
				const { pix, executionId, resumeUrl } = await startWait({
					limitType: 'afterInterval',
					limitAmount: 10,
					limitUnit: 'minutes',
				});
				// (d) the resume URL
				console.log(`[probe ${version}] $execution.resumeUrl = ${resumeUrl}`);
				if (version === 'v2')
					expect(resumeUrl).toMatch(/\/webhook-waiting\/\d+\?signature=[0-9a-f]+$/);
				else expect(resumeUrl).toMatch(/\/webhook-waiting\/\d+$/);
				// (a) calls without our signature: at n8n's resume URL itself (n8n finds no waiting
				// webhook of that path: 404, or 401 without n8n's token) and at our webhook's path
				// (our webhook() refuses: 401, nothing read)
				const ourPath = resumeUrl.replace(/(\/webhook-waiting\/\d+)/, '$1/facilitapay-payment');
				const forged = [
					await fetch(ourPath, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({
							payload: JSON.stringify({ executionId, generation: 1, kind: 'records', records: [] }),
							signature: 'ab'.repeat(32),
						}),
					}),
					await fetch(resumeUrl, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: '{}',
					}),
					await fetch(resumeUrl, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({
							payload: JSON.stringify({ executionId, generation: 1, kind: 'records', records: [] }),
							signature: 'ab'.repeat(32),
						}),
					}),
					await fetch(resumeUrl.replace(/\?.*$/, ''), {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: '{}',
					}),
				];
				console.log(
					`[probe ${version}] forged statuses: ${forged.map((r) => r.status).join(', ')}`,
				);
				expect(forged[0].status).toBe(401);
				for (const r of forged.slice(1)) expect([401, 404]).toContain(r.status);
				expect((await getExecution(own.server, executionId, { includeData: false })).status).toBe(
					'waiting',
				);
				const paidAt = Date.now();
				await sandboxControl(
					'POST',
					`/transactions/${pix.id}/pay`,
					{ success: true },
					own.sb.state,
				);
				const execution = await finished(executionId);
				console.log(
					`[probe ${version}] paid → finished in ${Date.now() - paidAt} ms, status ${execution.status}`,
				);
				expect(ran(execution)).toEqual(['Paid']);
				const item = nodeOutput(execution, 'Wait for Payment', 0)[0];
				expect(item).toMatchObject({ outcome: 'paid', transactionId: pix.id });
				// Decided by the status (the waiter read the charge first) or by the identified record.
				if (item.record !== null) expect(item.record.notification.type).toBe('identified');
				else expect(item.decidedBy).toBe('status');
				// (c) once more
				const again = await fetch(resumeUrl, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}',
				});
				console.log(`[probe ${version}] resume after finish: ${again.status}`);
				expect(again.status).toBe(409);
			}, 240_000);

			test('not paid: an expired PIX resumes on Not Paid with the reason', async () => {
				const { pix, executionId } = await startWait({
					limitType: 'afterInterval',
					limitAmount: 10,
					limitUnit: 'minutes',
				});
				await sandboxControl(
					'POST',
					`/transactions/${pix.id}/pay`,
					{ success: false },
					own.sb.state,
				);
				const execution = await finished(executionId);
				expect(ran(execution)).toEqual(['Not Paid']);
				expect(nodeOutput(execution, 'Wait for Payment', 1)[0]).toMatchObject({
					outcome: 'notPaid',
					reason: 'expired',
				});
			}, 240_000);

			test("(b) n8n restarted during the wait, nothing decided: n8n's own time resume", async () => {
				const { executionId } = await startWait({
					limitType: 'afterInterval',
					limitAmount: 1,
					limitUnit: 'minutes',
				});
				await own.restart();
				const startedAt = Date.now();
				const execution = await finished(executionId, 240_000);
				console.log(
					`[probe ${version}] time resume after ${Date.now() - startedAt} ms: ran ${JSON.stringify(ran(execution))}, status ${execution.status}`,
				);
				// n8n's own time resume runs the node's code (the fallback behind the gate it disables):
				// one last read of FacilitaPay, then Timed Out saying FacilitaPay showed it open.
				expect(ran(execution)).toEqual(['Timed Out']);
				expect(nodeOutput(execution, 'Wait for Payment', 2)[0]).toMatchObject({
					outcome: 'timedOut',
					decidedBy: 'limit',
					checkedAtLimit: true,
					transaction: { status: 'pending' },
				});
				expect(nodeOutput(execution, 'Wait for Payment', 0)).toEqual([]);
			}, 330_000);
		},
	);
}
