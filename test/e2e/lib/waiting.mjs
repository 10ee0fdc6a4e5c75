// Charge and wait (issue 37) in a real n8n: the workflow "Webhook → Create Dynamic PIX → Respond to
// Webhook → Wait for Payment → Paid / Not Paid / Timed Out", starting executions that wait, reading
// them back (status, the branch that ran, its items), and a webhook receiver standing for "another
// system's URL" on the FacilitaPay account (no FacilitaPay Trigger published). Shared by
// test/e2e/wait-*.test.mjs, test/queue and bench/waiting.mjs.
import http from 'node:http';
import { CREDENTIAL_TYPE, NODE_TYPES } from '../../../scripts/n8n-runtime.mjs';
import { ACCOUNT_IDS } from '../../../sandbox/accounts.mjs';
import { readAnswer, waitFor } from './state.mjs';

/** The three outputs of Wait for Payment, in order, and the node after each in these workflows. */
export const BRANCHES = ['Paid', 'Not Paid', 'Timed Out'];
export const WAIT_NODE = 'Wait for Payment';
export const CREATE_NODE = 'Create PIX';

/**
 * Wait for Payment's parameters (the names agreed in the design note).
 * @param {{limitType?: 'chargeExpiry'|'afterInterval'|'atTime', limitAmount?: number, limitUnit?: string, limitTime?: string}} [limit]
 */
export function waitParameters(limit = {}) {
	return {
		resource: 'transaction',
		operation: 'waitForPayment',
		transactionId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		limitType: limit.limitType ?? 'chargeExpiry',
		...(limit.limitType === 'afterInterval'
			? { limitAmount: limit.limitAmount ?? 1, limitUnit: limit.limitUnit ?? 'minutes' }
			: {}),
		...(limit.limitType === 'atTime' ? { limitTime: limit.limitTime } : {}),
	};
}

/**
 * POST /webhook/<path> {subject_id, value, order_id?, expires_in_minutes?} → a dynamic PIX → the
 * answer `{transaction_id, execution_id}` → Wait for Payment → Set nodes named after the branches,
 * each adding `orderId` = `$('Order').item.json.body.order_id`.
 * @param {{id: string, name?: string, path: string, credentials: {id: string, name: string}, limit?: Parameters<typeof waitParameters>[0]}} options
 */
export function waitWorkflow({ id, name, path, credentials, limit }) {
	const creds = { [CREDENTIAL_TYPE]: credentials };
	// After each output, what a shop does next: the order number of the request that started the
	// execution, read through n8n's paired items (`$('Order').item`) from the item that went out.
	const branchNodes = BRANCHES.map((branch, index) => ({
		id: `branch-${index}`,
		name: branch,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [1100, index * 200 - 200],
		parameters: {
			mode: 'manual',
			includeOtherFields: true,
			assignments: {
				assignments: [
					{
						id: `order-${index}`,
						name: 'orderId',
						value: "={{ $('Order').item.json.body.order_id }}",
						type: 'string',
					},
				],
			},
			options: {},
		},
	}));
	return {
		id,
		name: name ?? `e2e wait for payment ${path}`,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
		nodes: [
			{
				id: 'webhook',
				name: 'Order',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2.1,
				position: [0, 0],
				webhookId: `wh-${path}`,
				parameters: { httpMethod: 'POST', path, responseMode: 'responseNode', options: {} },
			},
			{
				id: 'create-pix',
				name: CREATE_NODE,
				type: NODE_TYPES.action,
				typeVersion: 1,
				position: [220, 0],
				credentials: creds,
				parameters: {
					resource: 'transaction',
					operation: 'createDynamicPix',
					subjectId: '={{ $json.body.subject_id }}',
					value: '={{ $json.body.value }}',
					dynamicPixExpiresAt:
						'={{ $now.plus({ minutes: $json.body.expires_in_minutes ?? 60 }).toUTC().startOf("second").toISO({ suppressMilliseconds: true }) }}',
					fromBankAccountId: ACCOUNT_IDS.brlPixExclusive,
					toBankAccountId: ACCOUNT_IDS.brlNoPixKey,
					exchangeCurrency: 'BRL',
				},
			},
			{
				id: 'respond',
				name: 'Answer the Shop',
				type: 'n8n-nodes-base.respondToWebhook',
				typeVersion: 1.5,
				position: [440, 0],
				parameters: {
					respondWith: 'json',
					responseBody:
						'={{ JSON.stringify({ transaction_id: $json.id, execution_id: $execution.id }) }}',
					options: {},
				},
			},
			{
				id: 'wait-for-payment',
				name: WAIT_NODE,
				type: NODE_TYPES.action,
				typeVersion: 1,
				position: [660, 0],
				credentials: creds,
				parameters: waitParameters(limit),
			},
			...branchNodes,
		],
		connections: {
			Order: { main: [[{ node: CREATE_NODE, type: 'main', index: 0 }]] },
			[CREATE_NODE]: { main: [[{ node: 'Answer the Shop', type: 'main', index: 0 }]] },
			'Answer the Shop': { main: [[{ node: WAIT_NODE, type: 'main', index: 0 }]] },
			[WAIT_NODE]: {
				main: BRANCHES.map((branch) => [{ node: branch, type: 'main', index: 0 }]),
			},
		},
	};
}

/**
 * Starts one execution: POSTs the order to the workflow's production webhook and returns what the
 * workflow answered (the charge's and the execution's ids).
 * @param {string} n8nUrl @param {string} path
 * @param {{subject_id: string, value?: string, order_id?: string, expires_in_minutes?: number}} order
 * @returns {Promise<{transactionId: string, executionId: string, orderId: string}>}
 */
export async function startWaiting(n8nUrl, path, order) {
	const orderId = order.order_id ?? `order-${Date.now().toString(36)}-${++orders}`;
	for (let attempt = 1; ; attempt++) {
		const answer = await readAnswer(
			await fetch(`${n8nUrl}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ value: '25.00', order_id: orderId, ...order }),
			}),
		);
		const body = answer.json;
		if (answer.status === 200 && body?.transaction_id && body?.execution_id)
			return {
				transactionId: body.transaction_id,
				executionId: String(body.execution_id),
				orderId,
			};
		// n8n answers 503 "Database is not ready" or 404 while a just-published webhook registers.
		if (attempt >= 20 || ![404, 503].includes(answer.status))
			throw new Error(
				`POST /webhook/${path} answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`,
			);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

let orders = 0;

/**
 * Starts `count` executions, `concurrency` at a time; returns them in order.
 * @param {string} n8nUrl @param {string} path @param {string} subjectId @param {number} count
 * @param {{concurrency?: number, expiresInMinutes?: number}} [options]
 */
export async function startManyWaiting(
	n8nUrl,
	path,
	subjectId,
	count,
	{ concurrency = 4, expiresInMinutes } = {},
) {
	/** @type {{transactionId: string, executionId: string}[]} */
	const started = new Array(count);
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const index = next++;
			started[index] = await startWaiting(n8nUrl, path, {
				subject_id: subjectId,
				value: `${(10 + (index % 90)).toFixed(0)}.00`,
				...(expiresInMinutes ? { expires_in_minutes: expiresInMinutes } : {}),
			});
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	return started;
}

/**
 * An answer of n8n's public API, asked again while n8n answers 503 ("Database is not ready!": its
 * database saturated by a burst of executions) or the connection fails, for up to three minutes.
 * @param {() => Promise<Response>} ask
 */
async function busyRetry(ask) {
	for (let attempt = 1; ; attempt++) {
		try {
			const answer = await readAnswer(await ask());
			if (answer.status !== 503 || attempt >= 90) return answer;
		} catch (error) {
			if (attempt >= 90) throw error;
		}
		await new Promise((resolve) => setTimeout(resolve, 2000));
	}
}

/**
 * One execution through the public API, with its data.
 * @param {{n8nUrl: string, apiKey: string}} server @param {string} executionId
 */
export async function getExecution({ n8nUrl, apiKey }, executionId) {
	const answer = await busyRetry(() =>
		fetch(`${n8nUrl}/api/v1/executions/${executionId}?includeData=true`, {
			headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json' },
		}),
	);
	if (answer.status !== 200)
		throw new Error(
			`GET /api/v1/executions/${executionId}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`,
		);
	return answer.json;
}

/**
 * The executions of a workflow (all pages, without data): id → status.
 * @param {{n8nUrl: string, apiKey: string}} server @param {string} workflowId
 * @param {{status?: string}} [filter]
 */
export async function executionStatuses({ n8nUrl, apiKey }, workflowId, { status } = {}) {
	/** @type {Map<string, {status: string, stoppedAt: string|null, startedAt: string}>} */
	const all = new Map();
	let cursor = '';
	for (;;) {
		const query = new URLSearchParams({ workflowId, limit: '250', includeData: 'false' });
		if (status) query.set('status', status);
		if (cursor) query.set('cursor', cursor);
		const answer = await busyRetry(() =>
			fetch(`${n8nUrl}/api/v1/executions?${query}`, {
				headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json' },
			}),
		);
		if (answer.status !== 200)
			throw new Error(`GET /api/v1/executions: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
		for (const execution of answer.json.data)
			all.set(String(execution.id), {
				status: execution.status,
				stoppedAt: execution.stoppedAt ?? null,
				startedAt: execution.startedAt,
			});
		cursor = answer.json.nextCursor ?? '';
		if (!cursor) return all;
	}
}

/**
 * What an execution did at the wait: which branches ran, their items, how many times the wait node
 * ran, the error if any.
 * @param {any} execution from getExecution
 */
export function outcomeOf(execution) {
	const runData = execution?.data?.resultData?.runData ?? {};
	const ran = BRANCHES.filter((branch) => runData[branch]);
	/** @type {Record<string, any[]>} */
	const items = {};
	for (const branch of ran)
		items[branch] = (runData[branch].at(-1)?.data?.main?.[0] ?? []).map(
			(/** @type {any} */ item) => item.json,
		);
	return {
		status: execution?.status,
		finished: execution?.finished,
		branches: ran,
		branchRuns: Object.fromEntries(ran.map((branch) => [branch, runData[branch].length])),
		items,
		waitRuns: runData[WAIT_NODE]?.length ?? 0,
		error: execution?.data?.resultData?.error?.message ?? null,
		stoppedAt: execution?.stoppedAt ? Date.parse(execution.stoppedAt) : null,
	};
}

/**
 * Waits until the execution is in n8n's waiting state (saved as `waiting`).
 * @param {{n8nUrl: string, apiKey: string}} server @param {string} executionId
 * @param {number} [timeoutMs]
 */
export async function untilWaiting(server, executionId, timeoutMs = 60_000) {
	return waitFor(
		async () => {
			const execution = await getExecution(server, executionId);
			if (['success', 'error', 'crashed', 'canceled'].includes(execution.status))
				throw new Error(
					`execution ${executionId} ended (${execution.status}) instead of waiting: ${JSON.stringify(outcomeOf(execution))}`,
				);
			return execution.status === 'waiting' ? execution : null;
		},
		{ what: `execution ${executionId} to wait`, timeoutMs, intervalMs: 300 },
	);
}

/**
 * Waits until the execution has ended (no longer new, running or waiting) and returns its outcome.
 * @param {{n8nUrl: string, apiKey: string}} server @param {string} executionId
 * @param {number} [timeoutMs]
 */
export async function untilEnded(server, executionId, timeoutMs = 60_000) {
	return outcomeOf(await endedExecution(server, executionId, timeoutMs));
}

/**
 * The execution once it ended, read in full. n8n 1.x saves an ended execution's status and its
 * data in two updates (not one transaction): a read between them shows the new status with the
 * data of the wait, so it is read again 1 s after its status ended.
 * @param {{n8nUrl: string, apiKey: string}} server @param {string} executionId
 * @param {number} [timeoutMs]
 */
export async function endedExecution(server, executionId, timeoutMs = 60_000) {
	await waitFor(
		async () => {
			const found = await getExecution(server, executionId);
			return ['new', 'running', 'waiting'].includes(found.status) ? null : found;
		},
		{ what: `execution ${executionId} to end`, timeoutMs, intervalMs: 200 },
	);
	await new Promise((resolve) => setTimeout(resolve, 1000));
	return await getExecution(server, executionId);
}

/** The listed notification records of the sandbox with their wall-clock listing time. @param {string} sandboxUrl */
export async function listedRecords(sandboxUrl) {
	const response = await fetch(`${sandboxUrl}/_sandbox/notifications`);
	return /** @type {any[]} */ ((await response.json()).data);
}

/**
 * When the sandbox listed the record of `type` for `transactionId` (wall-clock ms), or null.
 * @param {string} sandboxUrl @param {string} transactionId @param {string} type
 */
export async function listedAt(sandboxUrl, transactionId, type) {
	const record = (await listedRecords(sandboxUrl)).find(
		(rec) => rec.notification?.transaction_id === transactionId && rec.notification?.type === type,
	);
	return record?.listed_at_ms ?? null;
}

/**
 * A receiver of webhooks answering 200: "another system" whose URL the FacilitaPay account
 * notifies when no FacilitaPay Trigger is published (FacilitaPay lists what it sent there).
 */
export async function startOtherReceiver() {
	let received = 0;
	const server = http.createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			received += 1;
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end('{}');
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${port}/facilitapay-events`,
		received: () => received,
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	};
}

/** p50 / p95 / max of a list of numbers (null when empty). @param {number[]} values */
export function percentiles(values) {
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	const at = (/** @type {number} */ q) =>
		sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
	return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1), n: sorted.length };
}
