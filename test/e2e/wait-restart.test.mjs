// Transaction > Wait for Payment across an n8n restart, with a FacilitaPay Trigger published on the
// account (docs/waiting.md "After a restart"): Webhook → Create Dynamic PIX → Wait for Payment →
// Paid / Not Paid / Timed Out. n8n is stopped while the execution waits, the PIX is paid while it
// is down, n8n starts again: the trigger's reader reads the log, the deciding record's transaction
// names the execution in its meta (n8n_facilitapay_wait), the execution resumes once, on Paid.
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import { ownN8n } from './lib/own-n8n.mjs';
import { getExecution } from './lib/retry.mjs';
import { createPerson, samplePerson, sandboxData, sandboxControl } from './lib/sandbox.mjs';
import { INSTALL_TIMEOUT, describeE2e, sharedState, uniqueId, waitFor } from './lib/state.mjs';
import { createWorkflowViaApi, activateWorkflow } from './lib/n8n.mjs';
import { publishTriggerOn } from './lib/trigger.mjs';
import { nodeOutput } from '../../scripts/n8n-runtime.mjs';

/**
 * The workflow's waiting execution; throws with n8n's error when it failed instead. 1.123's public
 * API does not list a waiting execution (it filters out the executions its ActiveExecutions still
 * holds), so executions are read one by one by ID (this n8n's IDs count up from 1).
 */
async function waitingExecution(own, workflowId) {
	return await waitFor(
		async () => {
			for (let id = 1; id <= 40; id++) {
				const x = await getExecution(own.server, id, { includeData: false }).catch(() => null);
				if (!x || String(x.workflowId) !== String(workflowId)) continue;
				if (x.status === 'error') {
					const full = await getExecution(own.server, id);
					throw new Error(
						`the execution failed: ${JSON.stringify(full.data?.resultData?.error ?? full).slice(0, 1500)}`,
					);
				}
				if (x.status === 'waiting') return x;
			}
			return null;
		},
		{ what: 'the execution to be waiting', timeoutMs: 60_000, intervalMs: 1000 },
	);
}

const OUTPUTS = ['Paid', 'Not Paid', 'Timed Out'];

/** @param {{id: string, name: string}} credentials @param {string} path */
function chargeAndWait(credentials, path) {
	const noop = (name, y) => ({
		id: `noop-${y}`,
		name,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [700, y * 160],
		parameters: {},
	});
	return {
		name: `wait restart ${path}`,
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
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
				id: 'create-pix',
				name: 'Create PIX',
				type: 'n8n-nodes-facilitapay.facilitaPay',
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					resource: 'transaction',
					operation: 'createDynamicPix',
					subjectId: { __rl: true, mode: 'id', value: '={{ $json.body.subjectId }}' },
					value: '21.37',
					fromBankAccountId: ACCOUNT_IDS.brlPixExclusive,
					toBankAccountId: ACCOUNT_IDS.usdDestination,
					exchangeCurrency: 'USD',
				},
				credentials: { facilitaPayApi: credentials },
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
					limitType: 'afterInterval',
					limitAmount: 10,
					limitUnit: 'minutes',
				},
				credentials: { facilitaPayApi: credentials },
			},
			...OUTPUTS.map((name, i) => noop(name, i)),
		],
		connections: {
			Webhook: { main: [[{ node: 'Create PIX', type: 'main', index: 0 }]] },
			'Create PIX': { main: [[{ node: 'Wait for Payment', type: 'main', index: 0 }]] },
			'Wait for Payment': { main: OUTPUTS.map((name) => [{ node: name, type: 'main', index: 0 }]) },
		},
	};
}

for (const version of /** @type {const} */ (['v2', 'v1'])) {
	describeE2e(
		`Wait for Payment across a restart, FacilitaPay Trigger published (${version === 'v2' ? '2.41.1' : '1.123.81'})`,
		() => {
			/** @type {any} */
			let own;
			beforeAll(async () => {
				own = await ownN8n(sharedState(), {
					version,
					suffix: `wait-restart-${version}`,
					sandbox: { id: `wait-restart-${version}`, name: `Wait Restart ${version}` },
				});
			}, INSTALL_TIMEOUT);
			afterAll(async () => {
				await own?.stop();
				await own?.sb.close();
			}, 60_000);

			test('paid while n8n is down: after the start the execution resumes once, on Paid', async () => {
				await publishTriggerOn(own, { events: ['identified'] });
				const subject = await createPerson(
					samplePerson(3790 + (version === 'v2' ? 1 : 2), 'Bruno Reinicio'),
					own.sb.state,
				);
				const path = uniqueId('wait-restart');
				const workflow = await createWorkflowViaApi(
					chargeAndWait(own.sb.credentials, path),
					own.state,
				);
				await activateWorkflow(workflow.id, own.state);
				await waitFor(
					async () => {
						const r = await fetch(`${own.server.url}/webhook/${path}`, {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify({ subjectId: subject.id }),
						});
						return r.status === 404 ? null : r;
					},
					{ what: 'the webhook to be registered', timeoutMs: 30_000, intervalMs: 500 },
				);
				const waiting = await waitingExecution(own, workflow.id);
				const before = await getExecution(own.server, waiting.id);
				const pix = nodeOutput(before, 'Create PIX')[0];
				const stored = await sandboxData('GET', `/transactions/${pix.id}`, undefined, own.sb.state);
				expect(stored.meta?.n8n_facilitapay_wait?.resume_url).toMatch(
					new RegExp(`/webhook-waiting/${waiting.id}`),
				);
				await own.stop();
				await sandboxControl(
					'POST',
					`/transactions/${pix.id}/pay`,
					{ success: true },
					own.sb.state,
				);
				const startedAt = Date.now();
				await own.start();
				const execution = await waitFor(
					async () => {
						const e = await getExecution(own.server, waiting.id);
						return e.status === 'success' || e.status === 'error' ? e : null;
					},
					{ what: 'the execution to resume', timeoutMs: 120_000, intervalMs: 500 },
				);
				console.log(
					`[restart ${version}] resumed ${Date.now() - startedAt} ms after the start: ran ${JSON.stringify(OUTPUTS.filter((n) => execution.data.resultData.runData[n]))}`,
				);
				expect(OUTPUTS.filter((n) => execution.data.resultData.runData[n])).toEqual(['Paid']);
				expect(nodeOutput(execution, 'Wait for Payment', 0)[0]).toMatchObject({
					outcome: 'paid',
					transactionId: pix.id,
				});
			}, 300_000);
		},
	);
}
