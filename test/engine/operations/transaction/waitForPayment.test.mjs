// Transaction > Wait for Payment on n8n's engine (n8n-core; `npm run test:engine`, and on n8n-core
// 1.x with FACILITAPAY_ENGINE_N8N=v1): charges decided when the node runs go out at once; an open
// charge puts the execution into n8n's waiting state as a lease with the gate and the fallback
// (docs/waiting.md); n8n's own time resume of the stored execution runs the node's code again, which
// reads FacilitaPay and decides, or waits again; a signed resume call does the same; the rest of the
// workflow reads `$('…').item` on every output. The real n8n: test/e2e/wait-*.test.mjs.
import { reply, TRIGGER_NAME, useOperations } from '../../lib/operations.mjs';
import transactions from '../../../fixtures/transactions.js';
import { dist, fixClock } from './lib.mjs';

const op = useOperations();
const waiting = () => dist('nodes/FacilitaPay/waiting/index.js');
const operation = () => dist('nodes/FacilitaPay/actions/transaction/waitForPayment.operation.js');
afterEach(async () => await waiting().resetWaiter());
const setClock = fixClock(undefined);

const wait = (overrides = {}) => ({
	resource: 'transaction',
	operation: 'waitForPayment',
	transactionId: { __rl: true, mode: 'id', value: 'tx-paid' },
	limitType: 'afterInterval',
	limitAmount: 30,
	limitUnit: 'minutes',
	...overrides,
});
const id = (value) => ({ transactionId: { __rl: true, mode: 'id', value } });

/** FacilitaPay, scripted: transactions by ID (a test changes them), the log, faults by ID. */
function facilitaPay(initial) {
	const transactions = structuredClone(initial);
	const log = [];
	const failing = new Map();
	return {
		transactions,
		log,
		failing,
		replies: {
			'GET /notifications': (request) => {
				const list = request.query.order_by === 'desc' ? [...log].reverse() : [...log];
				const after = request.query.last_id;
				const start = after ? list.findIndex((r) => r.id === after) + 1 : 0;
				return { data: list.slice(start, start + Number(request.query.per_page ?? 100)) };
			},
			'GET /transactions/:id': (request) => {
				const fault = failing.get(request.params.id);
				if (fault) return reply(fault, { error: 'unavailable' });
				const transaction = transactions[request.params.id];
				return transaction ? { data: transaction } : reply(404, { error: 'not_found' });
			},
		},
	};
}

const TRANSACTIONS = {
	'tx-paid': { id: 'tx-paid', status: 'identified', value: '10.00' },
	'tx-expired': {
		id: 'tx-expired',
		status: 'canceled',
		canceled_reason: 'payment_expired',
		value: '11.00',
	},
	'tx-open': { id: 'tx-open', status: 'pending', value: '12.00' },
	'tx-open2': { id: 'tx-open2', status: 'pending', value: '13.00' },
};

/** A node after each output reading the order number of the trigger's item: `$('…').item`. */
class OrderNumber {
	description = {
		displayName: 'Order Number',
		name: 'orderNumber',
		group: ['transform'],
		version: 1,
		description: 'Reads the order number of the item that started the workflow',
		defaults: { name: 'Order Number' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	};

	async execute() {
		return [
			this.getInputData().map((item, i) => ({
				json: {
					transactionId: item.json.transactionId ?? item.json.error?.transactionId,
					outcome: item.json.outcome,
					orderId: this.evaluateExpression(`{{ $('${TRIGGER_NAME}').item.json.orderId }}`, i),
				},
				pairedItem: { item: i },
			})),
		];
	}
}

/** The workflow with an Order Number node on each of the three outputs. */
const withOrderNumbers = (json) => {
	for (const [n, name] of ['Paid', 'Not Paid', 'Timed Out'].entries()) {
		json.nodes.push({
			id: `order-${n}`,
			name,
			type: 'test.orderNumber',
			typeVersion: 1,
			position: [500, n * 200],
			parameters: {},
		});
	}
	json.connections.FacilitaPay = {
		main: ['Paid', 'Not Paid', 'Timed Out'].map((node) => [{ node, type: 'main', index: 0 }]),
	};
	return json;
};

const stackOf = (result) => result.run.run.data.executionData.nodeExecutionStack;
const stored = (result) => JSON.parse(JSON.stringify(result.run.run.data));
const outputsOf = (result) =>
	Object.fromEntries(
		['Paid', 'Not Paid', 'Timed Out'].map((name) => [
			name,
			(result.run.nodes[name]?.items ?? []).map((item) => item.json),
		]),
	);
const reads = (requests, route = 'GET /transactions/:id') =>
	requests.filter((r) => r.route === route).length;

/** The first run of a wait of `ids` (one item each, order numbers …): it waits. */
async function firstWait(service, ids, overrides = {}) {
	const engine = await op.engine({ extraNodeTypes: { 'test.orderNumber': new OrderNumber() } });
	const parameters = ids.map((value) => wait({ ...id(value), ...overrides }));
	const items = ids.map((_, n) => ({ json: { orderId: `A-${n + 1}` } }));
	const result = await op.run({
		parameters,
		items,
		replies: service.replies,
		workflow: withOrderNumbers,
		engine,
	});
	return { engine, result, parameters, items };
}

/** n8n's own time resume of a stored waiting execution (the WaitTracker at its time). */
async function timeResume(first, service, data = stored(first.result)) {
	await waiting().resetWaiter();
	return await op.run({
		parameters: first.parameters,
		items: first.items,
		replies: service.replies,
		workflow: withOrderNumbers,
		engine: first.engine,
		resumeData: data,
	});
}

describe('Transaction > Wait for Payment: decided at once', () => {
	it('charges already decided go out at once: paid on Paid, expired on Not Paid with the reason, each paired with its item', async () => {
		const service = facilitaPay(TRANSACTIONS);
		const { result } = await firstWait(service, ['tx-expired', 'tx-paid']);
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(outputsOf(result)).toEqual({
			Paid: [{ transactionId: 'tx-paid', outcome: 'paid', orderId: 'A-2' }],
			'Not Paid': [{ transactionId: 'tx-expired', outcome: 'notPaid', orderId: 'A-1' }],
			'Timed Out': [],
		});
		expect(result.outputs[1][0].json).toMatchObject({
			reason: 'expired',
			reasonDetail: 'payment_expired',
		});
		expect(waiting().waitingCount()).toBe(0);
	});

	it('a card payment approved within its create call (FacilitaPay still shows it pending, the log lists payment_approved): Paid at once', async () => {
		const service = facilitaPay({ 'tx-card': { id: 'tx-card', status: 'pending' } });
		service.log.push({
			id: 'r-1',
			inserted_at: new Date().toISOString(),
			notification: { type: 'payment_approved', transaction_id: 'tx-card' },
		});
		const { result } = await firstWait(service, ['tx-card']);
		expect(result.status).toBe('success');
		expect(outputsOf(result).Paid).toEqual([
			{ transactionId: 'tx-card', outcome: 'paid', orderId: 'A-1' },
		]);
		expect(result.outputs[0][0].json).toMatchObject({ decidedBy: 'record' });
	});
});

describe('Transaction > Wait for Payment: the wait', () => {
	it('an open charge: the execution waits a lease (≤ 4.5 min, not the 30-min limit), for all items together; the gate in front runs nothing, the fallback behind it has its own name', async () => {
		const service = facilitaPay(TRANSACTIONS);
		const { result } = await firstWait(service, ['tx-paid', 'tx-open']);
		expect(result.status).toBe('waiting');
		expect(result.outputs.flat()).toEqual([]);
		const waitTill = new Date(result.run.run.waitTill).getTime();
		expect(waitTill).toBeGreaterThan(Date.now() + 200_000);
		expect(waitTill).toBeLessThanOrEqual(Date.now() + 270_000);
		const [gate, fallback, ...rest] = stackOf(result);
		expect(rest).toEqual([]);
		expect(gate.node.name).toBe('FacilitaPay');
		expect(gate.data).toEqual({ main: [] });
		expect(gate.metadata.facilitaPayWait).toMatchObject({ role: 'gate' });
		expect(fallback.node.name).toBe(`FacilitaPay${waiting().FALLBACK_SUFFIX}`);
		expect(fallback.node.type).toBe(gate.node.type);
		expect(fallback.metadata.facilitaPayWait).toMatchObject({ role: 'fallback' });
		const { state } = gate.metadata.facilitaPayWait;
		expect(state).toMatchObject({ generation: 1, waitTill });
		expect(state.items.map((item) => [item.i, item.id, !!item.decided])).toEqual([
			[0, 'tx-paid', true],
			[1, 'tx-open', false],
		]);
		// n8n's resume token stays in n8n: nothing of the wait is written to FacilitaPay.
		expect(service.log).toEqual([]);
		expect(waiting().waitingCount()).toBe(1);
	});

	it('n8n resumes it at its time, nothing decided: the node reads FacilitaPay once per open charge and waits again (a new wait, no entry left over)', async () => {
		const service = facilitaPay(TRANSACTIONS);
		const first = await firstWait(service, ['tx-paid', 'tx-open']);
		const again = await timeResume(first, service);
		expect(again.error).toBeUndefined();
		expect(again.status).toBe('waiting');
		expect(outputsOf(again)).toEqual({ Paid: [], 'Not Paid': [], 'Timed Out': [] });
		const requests = again.requests;
		expect(
			requests.filter((r) => r.route === 'GET /transactions/:id').map((r) => r.params.id),
		).toEqual(['tx-open']);
		const [gate, fallback, ...rest] = stackOf(again);
		expect(rest).toEqual([]);
		expect(gate.metadata.facilitaPayWait.state.generation).toBe(2);
		expect(fallback.metadata.facilitaPayWait.role).toBe('fallback');
		// The node shows one run (the waiting one), not one per wake.
		expect(again.run.run.data.resultData.runData.FacilitaPay).toHaveLength(1);
	});

	it('paid while nobody watched (n8n down, no Trigger): n8n’s time resume ends on Paid with the order number; the expired one on Not Paid with its own', async () => {
		const service = facilitaPay(TRANSACTIONS);
		const first = await firstWait(service, ['tx-open', 'tx-open2', 'tx-paid']);
		service.transactions['tx-open'].status = 'identified';
		service.transactions['tx-open2'] = { ...TRANSACTIONS['tx-expired'], id: 'tx-open2' };
		const resumed = await timeResume(first, service);
		expect(resumed.error).toBeUndefined();
		expect(resumed.status).toBe('success');
		expect(outputsOf(resumed)).toEqual({
			Paid: [
				{ transactionId: 'tx-open', outcome: 'paid', orderId: 'A-1' },
				{ transactionId: 'tx-paid', outcome: 'paid', orderId: 'A-3' },
			],
			'Not Paid': [{ transactionId: 'tx-open2', outcome: 'notPaid', orderId: 'A-2' }],
			'Timed Out': [],
		});
		expect(resumed.run.nodes.FacilitaPay.outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 2 },
		]);
	});

	it('at the limit: a last read of FacilitaPay, then Timed Out (checkedAtLimit) with the order number; a paid one on Paid', async () => {
		const service = facilitaPay(TRANSACTIONS);
		const first = await firstWait(service, ['tx-open', 'tx-open2'], { limitAmount: 2 });
		service.transactions['tx-open2'].status = 'identified';
		setClock(new Date(Date.now() + 2 * 60_000 + 5_000).toISOString());
		const last = await timeResume(first, service);
		expect(last.status).toBe('success');
		expect(reads(last.requests)).toBe(2);
		expect(outputsOf(last)).toEqual({
			Paid: [{ transactionId: 'tx-open2', outcome: 'paid', orderId: 'A-2' }],
			'Not Paid': [],
			'Timed Out': [{ transactionId: 'tx-open', outcome: 'timedOut', orderId: 'A-1' }],
		});
		expect(last.run.nodes.FacilitaPay.outputs[2][0].json).toMatchObject({
			checkedAtLimit: true,
			decidedBy: 'limit',
			transaction: { id: 'tx-open', status: 'pending' },
		});
	});

	it('a read that fails (503) decides nothing: it waits on; at the limit, still unreadable: Timed Out saying so, never Not Paid', async () => {
		const service = facilitaPay(TRANSACTIONS);
		service.failing.set('tx-open', 503);
		const first = await firstWait(service, ['tx-open'], { limitAmount: 2 });
		expect(first.result.status).toBe('waiting');
		expect(outputsOf(first.result)['Not Paid']).toEqual([]);
		setClock(new Date(Date.now() + 2 * 60_000 + 5_000).toISOString());
		const last = await timeResume(first, service);
		expect(outputsOf(last)['Timed Out']).toEqual([
			{ transactionId: 'tx-open', outcome: 'timedOut', orderId: 'A-1' },
		]);
		expect(last.run.nodes.FacilitaPay.outputs[2][0].json).toMatchObject({
			checkedAtLimit: false,
			error: expect.stringContaining('could not be read at the limit'),
		});
	}, 60_000);

	it('a read that failed, then paid: Paid at the next look (a brief error never decides Not Paid)', async () => {
		const service = facilitaPay(TRANSACTIONS);
		service.failing.set('tx-open', 503);
		const first = await firstWait(service, ['tx-open']);
		service.failing.clear();
		service.transactions['tx-open'].status = 'identified';
		const resumed = await timeResume(first, service);
		expect(outputsOf(resumed).Paid).toEqual([
			{ transactionId: 'tx-open', outcome: 'paid', orderId: 'A-1' },
		]);
	}, 60_000);

	it('FacilitaPay answers 404 just after creation (read-after-write lag): it waits, and is Paid once FacilitaPay shows it paid (never "a checkout" for good)', async () => {
		const service = facilitaPay({});
		const first = await firstWait(service, ['tx-late']);
		expect(first.result.status).toBe('waiting');
		service.transactions['tx-late'] = { id: 'tx-late', status: 'identified' };
		const resumed = await timeResume(first, service);
		expect(outputsOf(resumed).Paid).toEqual([
			{ transactionId: 'tx-late', outcome: 'paid', orderId: 'A-1' },
		]);
		expect(resumed.run.nodes.FacilitaPay.outputs[0][0].json.checkout).toBe(false);
	});

	it('a checkout ID (404): decided by the approving record naming it, Paid once the transaction it names is read', async () => {
		const service = facilitaPay({});
		const first = await firstWait(service, ['co-1']);
		service.transactions['tx-attempt'] = { id: 'tx-attempt', status: 'identified' };
		service.log.push({
			id: 'r-9',
			inserted_at: new Date().toISOString(),
			notification: { type: 'payment_approved', transaction_id: 'tx-attempt', checkout_id: 'co-1' },
		});
		const resumed = await timeResume(first, service);
		expect(outputsOf(resumed).Paid).toEqual([
			{ transactionId: 'co-1', outcome: 'paid', orderId: 'A-1' },
		]);
		expect(resumed.run.nodes.FacilitaPay.outputs[0][0].json).toMatchObject({
			checkout: true,
			transaction: { id: 'tx-attempt' },
		});
	});
});

describe('Transaction > Wait for Payment: a resume call (n8n runs webhook() with the gate, then the entry it leaves)', () => {
	/** What n8n's waiting-webhooks does with a stored execution and a call (2.41.1, 1.122). */
	async function call(first, service, sign) {
		const data = stored(first.result);
		const gate = data.executionData.nodeExecutionStack[0];
		gate.node.disabled = true;
		const waitTill = data.waitTill;
		delete data.waitTill;
		data.resultData.runData[data.resultData.lastNodeExecuted].pop();
		const { state } = gate.metadata.facilitaPayWait;
		const body = sign(state);
		let answered;
		const ctx = {
			executeData: gate,
			getBodyData: () => body,
			getResponseObject: () => ({
				status: (status) => ({
					json: (json) => {
						answered = { status, json };
					},
				}),
			}),
		};
		const response = await operation().webhook.call(ctx);
		if (!response.workflowData) return { answered, waitTill };
		gate.data.main = response.workflowData;
		const resumed = await timeResume(first, service, data);
		return { resumed, waitTill };
	}
	const signed =
		(kind = 'records', overrides = {}) =>
		(state) =>
			waiting().signedBody(waiting().keyOf(state.secret), {
				executionId: state.executionId,
				generation: state.generation,
				kind,
				records: [],
				cursor: state.cursor,
				...overrides,
			});

	it('the waiter’s signed call after the payment: Paid, with the order number', async () => {
		const service = facilitaPay(TRANSACTIONS);
		const first = await firstWait(service, ['tx-open']);
		service.transactions['tx-open'].status = 'identified';
		const { resumed } = await call(first, service, signed());
		expect(outputsOf(resumed).Paid).toEqual([
			{ transactionId: 'tx-open', outcome: 'paid', orderId: 'A-1' },
		]);
	});

	it('a renewal: no read of FacilitaPay, the execution waits again (the next wait)', async () => {
		const service = facilitaPay(TRANSACTIONS);
		const first = await firstWait(service, ['tx-open']);
		const { resumed } = await call(first, service, signed('renew'));
		expect(resumed.status).toBe('waiting');
		expect(reads(resumed.requests)).toBe(0);
		expect(stackOf(resumed)[0].metadata.facilitaPayWait.state.generation).toBe(2);
	});

	it.each([
		['an unsigned call', () => ({ payload: '{}' }), 401],
		[
			'a signature of another wait',
			(state) => signed()({ ...state, secret: '00'.repeat(32) }),
			401,
		],
		[
			'a signed call for an earlier wait',
			(state) => signed('records', { generation: state.generation - 1 })(state),
			409,
		],
	])('%s: refused, the execution still waits, nothing read', async (_name, sign, status) => {
		const service = facilitaPay(TRANSACTIONS);
		const first = await firstWait(service, ['tx-open']);
		service.transactions['tx-open'].status = 'identified';
		const before = service.transactions;
		const { answered, resumed } = await call(first, service, sign);
		expect(resumed).toBeUndefined();
		expect(answered.status).toBe(status);
		expect(service.transactions).toBe(before);
	});

	it('a signed call while n8n’s own time of the wait is near (its timer may be armed): refused, n8n resumes it itself', async () => {
		const service = facilitaPay(TRANSACTIONS);
		const first = await firstWait(service, ['tx-open']);
		const waitTill = new Date(first.result.run.run.waitTill).getTime();
		setClock(new Date(waitTill - 60_000).toISOString());
		const { answered, resumed } = await call(first, service, signed());
		expect(resumed).toBeUndefined();
		expect(answered).toEqual({ status: 409, json: expect.objectContaining({ waiting: true }) });
	});
});

describe('Transaction > Wait for Payment: what must never route by accident', () => {
	it('a Retry “with the currently saved workflow” of a waiting snapshot: n8n cannot find the fallback (refused), so nothing goes to Paid on n8n’s disabling', async () => {
		const service = facilitaPay(TRANSACTIONS);
		const first = await firstWait(service, ['tx-open']);
		const names = first.result.run.run.data.executionData.nodeExecutionStack.map(
			(e) => e.node.name,
		);
		const workflowNodes = new Set(
			withOrderNumbers({ nodes: [{ name: 'FacilitaPay' }], connections: {} }).nodes.map(
				(n) => n.name,
			),
		);
		// n8n's retry (execution.service) looks every stack entry's node up by name in the saved
		// workflow and throws "Could not find the node …" when one is missing.
		expect(names.filter((name) => !workflowNodes.has(name))).toEqual([
			`FacilitaPay${waiting().FALLBACK_SUFFIX}`,
		]);
	});

	it('“Always Output Data” is refused before anything is read (n8n would put an empty item on Paid)', async () => {
		const { error, requests } = await op.run({
			parameters: wait(id('tx-open')),
			replies: facilitaPay(TRANSACTIONS).replies,
			workflow: (json) => {
				json.nodes[1].alwaysOutputData = true;
				return json;
			},
		});
		expect(error?.message).toContain('Always Output Data');
		expect(requests).toEqual([]);
	});

	it.each([
		[{ limitAmount: 0 }, 'Amount'],
		[{ limitAmount: 40, limitUnit: 'days' }, 'Amount'],
		[{ limitType: 'atTime', limitTime: '2001-01-01T00:00:00Z' }, 'Max Date and Time'],
	])('a limit %j is refused, naming %s, before anything is read', async (limit, field) => {
		const { error, requests } = await op.run({
			parameters: wait(limit),
			replies: facilitaPay(TRANSACTIONS).replies,
		});
		expect(error?.message).toContain(`Invalid ${field}`);
		expect(requests).toEqual([]);
	});

	it('“At a Time” without a zone is read in the workflow’s time zone: 3 minutes ahead in São Paulo is accepted on a UTC server', async () => {
		const local = new Date(Date.now() - 3 * 3600_000 + 3 * 60_000).toISOString().slice(0, 19);
		const { status, error, run } = await op.run({
			parameters: wait({ ...id('tx-open'), limitType: 'atTime', limitTime: local }),
			replies: facilitaPay(TRANSACTIONS).replies,
			timezone: 'America/Sao_Paulo',
		});
		expect(error).toBeUndefined();
		expect(status).toBe('waiting');
		const { state } = run.run.data.executionData.nodeExecutionStack[0].metadata.facilitaPayWait;
		expect(Math.abs(state.limitAt - (Date.now() + 3 * 60_000))).toBeLessThan(60_000);
	});
});

describe('Create Dynamic PIX → Wait for Payment: nothing of the wait in FacilitaPay’s record', () => {
	it('the charge’s meta carries no resume URL (n8n’s resume token stays in n8n)', async () => {
		const { dynamicPixParameters } = transactions;
		const { requests, error } = await op.run({
			parameters: dynamicPixParameters({ dynamicPixExpiresAt: '' }),
			replies: {
				'POST /transactions': (request) => ({
					data: { id: 'tx-open', status: 'pending', meta: request.body.transaction.meta },
				}),
			},
		});
		expect(error).toBeUndefined();
		const meta = requests.find((r) => r.route === 'POST /transactions').body.transaction.meta;
		expect(JSON.stringify(meta)).not.toMatch(/webhook-waiting|n8n_facilitapay_wait/);
	});
});
