// What test/e2e/wait-probe.test.mjs uses (the waiting-state probes, one n8n per version): the
// workflow Webhook → Create Dynamic PIX → Wait for Payment → Paid / Not Paid / Timed Out, and how its
// waiting execution is found.
import { ACCOUNT_IDS } from '../../../sandbox/accounts.mjs';
import { getExecution } from './retry.mjs';
import { waitFor } from './state.mjs';

/**
 * The workflow's waiting execution; throws with n8n's error when it failed instead. 1.123's public
 * API does not list a waiting execution (it filters out the executions its ActiveExecutions still
 * holds), so executions are read one by one by ID (this n8n's IDs count up from 1).
 */
export async function waitingExecution(own, workflowId) {
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

export const OUTPUTS = ['Paid', 'Not Paid', 'Timed Out'];

/**
 * @param {{id: string, name: string}} credentials @param {string} path
 * @param {{name: string, limitMinutes: number}} shape
 */
export function chargeAndWait(credentials, path, { name, limitMinutes }) {
	const noop = (name, y) => ({
		id: `noop-${y}`,
		name,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [700, y * 160],
		parameters: {},
	});
	return {
		name: `${name} ${path}`,
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
					limitAmount: limitMinutes,
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
