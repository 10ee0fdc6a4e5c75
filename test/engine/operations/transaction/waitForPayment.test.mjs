// Transaction > Wait for Payment on n8n's engine (n8n-core), against a FacilitaPay scripted by
// route: charges decided when the node runs go out at once on their outputs; an open charge puts
// the execution into the waiting state with the stack entry n8n's time resume will forward; a bad
// limit is refused before anything is read. (Resumes: test/e2e/wait-probe.test.mjs, real n8n.)
import { reply, useOperations } from '../../lib/operations.mjs';
import transactions from '../../../fixtures/transactions.js';
import { dist } from './lib.mjs';

const op = useOperations();
const { resetWaiter, waitingCount } = dist('nodes/FacilitaPay/waiting/index.js');
afterEach(() => resetWaiter());

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

const TRANSACTIONS = {
	'tx-paid': { id: 'tx-paid', status: 'identified', value: '10.00' },
	'tx-expired': {
		id: 'tx-expired',
		status: 'canceled',
		canceled_reason: 'payment_expired',
		value: '11.00',
	},
	'tx-open': { id: 'tx-open', status: 'pending', value: '12.00' },
};
const replies = {
	'GET /notifications': { data: [] },
	'GET /transactions/:id': (request) =>
		TRANSACTIONS[request.params.id]
			? { data: TRANSACTIONS[request.params.id] }
			: reply(404, { error: 'not_found' }),
};

describe('Transaction > Wait for Payment', () => {
	it('charges already decided go out at once: paid on Paid, expired on Not Paid with the reason, each paired with its item', async () => {
		const { outputs, status, error, requests } = await op.run({
			parameters: [wait(id('tx-expired')), wait(id('tx-paid'))],
			replies,
		});
		expect(error).toBeUndefined();
		expect(status).toBe('success');
		expect(outputs[0]).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({
					outcome: 'paid',
					decidedBy: 'status',
					transactionId: 'tx-paid',
					transaction: TRANSACTIONS['tx-paid'],
				}),
				pairedItem: { item: 1 },
			}),
		]);
		expect(outputs[1]).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({
					outcome: 'notPaid',
					reason: 'expired',
					reasonDetail: 'payment_expired',
					transactionId: 'tx-expired',
				}),
				pairedItem: { item: 0 },
			}),
		]);
		expect(outputs[2] ?? []).toEqual([]);
		expect(requests.filter((r) => r.route === 'GET /transactions/:id')).toHaveLength(2);
		expect(waitingCount()).toBe(0);
	});

	it('an open charge: the execution waits (n8n’s waiting state), for all items together, nothing goes out yet', async () => {
		const { outputs, status, run } = await op.run({
			parameters: [wait(id('tx-paid')), wait(id('tx-open'))],
			replies,
		});
		expect(status).toBe('waiting');
		expect(outputs.flat()).toEqual([]);
		const waitTill = new Date(run.run.waitTill).getTime();
		expect(waitTill).toBeGreaterThan(Date.now() + 30 * 60_000);
		expect(waitTill).toBeLessThan(Date.now() + 32 * 60_000);
		// The stack entry n8n's time resume forwards (main[0] only, on 1.123 and 2.41 alike): every
		// item in input order, the paid one as it is, the open one as an error item that n8n's
		// continueErrorOutput handling moves to the last output of the node's copy (= Timed Out).
		const entry = run.run.data.executionData.nodeExecutionStack[0];
		expect(entry.metadata.forwardAllOutputs).toBeUndefined();
		expect(entry.node).toMatchObject({
			onError: 'continueErrorOutput',
			alwaysOutputData: false,
			type: 'n8n-nodes-facilitapay.facilitaPayWaitLimit',
		});
		expect(entry.source).toBeNull();
		expect(entry.data.main).toHaveLength(1);
		expect(entry.data.main[0].map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(entry.data.main[0][0].json).toMatchObject({ outcome: 'paid', transactionId: 'tx-paid' });
		expect(Object.keys(entry.data.main[0][1].json).sort()).toEqual(['error', 'message']);
		expect(entry.data.main[0][1].json.error).toMatchObject({
			outcome: 'timedOut',
			transactionId: 'tx-open',
		});
		// The workflow's own node is untouched (the editor shows it as the user set it).
		expect(run.run.data.resultData.runData.FacilitaPay).toBeDefined();
		expect(waitingCount()).toBe(1);
	});

	it('a checkout ID (FacilitaPay knows no such transaction): waited for by its records, never Paid by a read', async () => {
		const { status, run } = await op.run({ parameters: wait(id('checkout-1')), replies });
		expect(status).toBe('waiting');
		const entry = run.run.data.executionData.nodeExecutionStack[0];
		expect(entry.data.main[0]).toHaveLength(1);
		expect(entry.data.main[0][0].json.error).toMatchObject({ checkout: true, outcome: 'timedOut' });
		expect(entry.data.main[0][0].json.error.howToCheck).toContain('checkout-1');
	});

	// n8n's own time resume (the WaitTracker at the limit) of that stored execution, on n8n-core:
	// no code of ours runs, the waiter is gone (n8n restarted without a published FacilitaPay
	// Trigger, `n8n execute` exited, a worker replaced).
	it('n8n’s own time resume with no waiter: the paid item on Paid, the open one on Timed Out saying FacilitaPay was not read at the limit and how to check; nothing read, nothing on Paid that was not paid', async () => {
		const parameters = [wait(id('tx-paid')), wait(id('tx-open')), wait(id('tx-expired'))];
		const waiting = await op.run({
			parameters,
			replies: {
				...replies,
				'GET /transactions/:id': (request) =>
					request.params.id === 'tx-expired'
						? { data: { ...TRANSACTIONS['tx-open'], id: 'tx-expired' } }
						: replies['GET /transactions/:id'](request),
			},
		});
		expect(waiting.status).toBe('waiting');
		resetWaiter();
		// As n8n stores it (JSON) and reads it back at the limit.
		const stored = JSON.parse(JSON.stringify(waiting.run.run.data));
		const before = waiting.requests.length;
		const { outputs, status, error, requests } = await op.run({
			parameters,
			engine: waiting.engine,
			resumeData: stored,
		});
		expect(error).toBeUndefined();
		expect(status).toBe('success');
		expect(requests.length - before).toBe(0);
		expect(outputs[0]).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({ outcome: 'paid', transactionId: 'tx-paid' }),
				pairedItem: { item: 0 },
			}),
		]);
		expect(outputs[1] ?? []).toEqual([]);
		expect(outputs[2]).toHaveLength(2);
		expect(outputs[2].map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		for (const [n, txId] of [
			[0, 'tx-open'],
			[1, 'tx-expired'],
		]) {
			const { json } = outputs[2][n];
			expect(json.message).toContain(
				`FacilitaPay was not read at the limit: the outcome of charge ${txId} is unknown`,
			);
			expect(json.error).toMatchObject({
				outcome: 'timedOut',
				decidedBy: 'limit',
				checkedAtLimit: false,
				transactionId: txId,
				howToCheck: expect.stringContaining(`Transaction > Get with ID ${txId}`),
			});
		}
	});

	it('“Always Output Data” is refused before anything is read (n8n would put an empty item on Paid)', async () => {
		const { error, requests } = await op.run({
			parameters: wait(id('tx-open')),
			replies,
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
		const { error, requests } = await op.run({ parameters: wait(limit), replies });
		expect(error?.message).toContain(`Invalid ${field}`);
		expect(requests).toEqual([]);
	});
});

describe('Create Dynamic PIX → Wait for Payment: the charge names where its execution resumes', () => {
	const { dynamicPixParameters } = transactions;
	const withWaitAfter = (json) => {
		json.nodes.push({
			id: 'wait-1',
			name: 'Wait for Payment',
			type: json.nodes[1].type,
			typeVersion: 1,
			position: [440, 0],
			parameters: wait({ transactionId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } }),
			credentials: json.nodes[1].credentials,
		});
		json.connections.FacilitaPay = {
			main: [[{ node: 'Wait for Payment', type: 'main', index: 0 }]],
		};
		return json;
	};
	const created = {
		'POST /transactions': (request) => ({
			data: { id: 'tx-open', status: 'pending', meta: request.body.transaction.meta },
		}),
		...replies,
	};

	it('followed by Wait for Payment: meta.n8n_facilitapay_wait holds the resume URL and the instance tag', async () => {
		const { requests, error, run } = await op.run({
			parameters: dynamicPixParameters({ dynamicPixExpiresAt: '' }),
			workflow: withWaitAfter,
			replies: created,
		});
		expect(error).toBeUndefined();
		const meta = requests.find((r) => r.route === 'POST /transactions').body.transaction.meta;
		expect(meta.n8n_facilitapay_wait).toEqual({
			resume_url: expect.stringMatching(/\/webhook-waiting\/\d+/),
			instance: expect.stringMatching(/^[0-9a-f]{16}$/),
		});
		expect(run.status).toBe('waiting');
	});

	it('without a Wait for Payment after it: no resume address in meta', async () => {
		const { requests, error } = await op.run({
			parameters: dynamicPixParameters({ dynamicPixExpiresAt: '' }),
			replies: created,
		});
		expect(error).toBeUndefined();
		const meta = requests.find((r) => r.route === 'POST /transactions').body.transaction.meta;
		expect(meta).not.toHaveProperty('n8n_facilitapay_wait');
	});
});
