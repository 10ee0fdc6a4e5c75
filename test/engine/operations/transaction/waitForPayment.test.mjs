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
		// The stack entry n8n's time resume forwards: the paid item on Paid, the open one on Timed Out.
		const entry = run.run.data.executionData.nodeExecutionStack[0];
		expect(entry.metadata.forwardAllOutputs).toBe(true);
		expect(entry.data.main[0].map((i) => i.json.transactionId)).toEqual(['tx-paid']);
		expect(entry.data.main[1]).toEqual([]);
		expect(entry.data.main[2]).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({ outcome: 'timedOut', transactionId: 'tx-open' }),
				pairedItem: { item: 1 },
			}),
		]);
		expect(waitingCount()).toBe(1);
	});

	it('a checkout ID (FacilitaPay knows no such transaction): waited for by its records, never Paid by a read', async () => {
		const { status, run } = await op.run({ parameters: wait(id('checkout-1')), replies });
		expect(status).toBe('waiting');
		const entry = run.run.data.executionData.nodeExecutionStack[0];
		expect(entry.data.main[0]).toEqual([]);
		expect(entry.data.main[2][0].json).toMatchObject({ checkout: true, outcome: 'timedOut' });
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
