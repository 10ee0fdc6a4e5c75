// The node's own retries on n8n's engine: reads are tried again after a 5xx, a 429 or a lost
// connection; a request that creates or moves money never is, unless nothing was sent.
import { createRequire } from 'node:module';
import { nodeRequire } from '../../lib/nodeRequire.mjs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from '../../lib/engine.mjs';
import { later, reply, RESET, skipRetryWaits, useOperations } from '../../lib/operations.mjs';

const require = createRequire(import.meta.url);
const { defaultRetryOptions } = nodeRequire(
	path.join(ROOT, 'dist/nodes/FacilitaPay/transport/index.js'),
);
const { payoutParameters } = require('../../../fixtures/transactions.js');

const op = useOperations();
const waits = skipRetryWaits();

const ONE = 'GET /transactions/:id';
const CREATE = 'POST /transactions';
const getTransaction = {
	resource: 'transaction',
	operation: 'get',
	transactionId: { __rl: true, mode: 'id', value: 'tx-1' },
	simplify: false,
};
const payout = {
	...payoutParameters('100.00'),
	subjectId: { __rl: true, mode: 'id', value: payoutParameters().subjectId },
};

/** A local port nothing listens on (a FacilitaPay that refuses connections). */
async function closedPort() {
	const server = net.createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return port;
}

describe('transport: retries', () => {
	it('retries a read after 503 with backoff, then succeeds', async () => {
		const { items, requests } = await op.run({
			parameters: getTransaction,
			replies: { [ONE]: [reply(503, 'Service Unavailable'), RESET, { data: { id: 'tx-1' } }] },
		});
		expect(requests).toHaveLength(3);
		expect(requests.every((request) => request.route === ONE)).toBe(true);
		expect(items[0].json.id).toBe('tx-1');
		expect(waits).toHaveLength(2);
		expect(waits[1]).toBeGreaterThanOrEqual(500);
	});

	it('honours Retry-After on 429, with up to 20 % jitter so that waiting clients do not return together', async () => {
		const { items } = await op.run({
			parameters: getTransaction,
			replies: {
				[ONE]: [
					reply(429, { error: 'rate_limited' }, { 'retry-after': '7' }),
					{ data: { id: 'tx-1' } },
				],
			},
		});
		expect(items[0].json.id).toBe('tx-1');
		expect(waits).toHaveLength(1);
		expect(waits[0]).toBeGreaterThanOrEqual(7000);
		expect(waits[0]).toBeLessThanOrEqual(8400);
	});

	it('gives up after a few attempts and says how many', async () => {
		const { error, requests } = await op.run({
			parameters: getTransaction,
			replies: { [ONE]: reply(502, '') },
		});
		expect(requests).toHaveLength(defaultRetryOptions.maxAttempts);
		expect(error.description).toContain(`after ${defaultRetryOptions.maxAttempts} attempts`);
	});

	it('does not retry a 4xx answer', async () => {
		const { requests, error } = await op.run({
			parameters: getTransaction,
			replies: { [ONE]: [reply(404, { error: 'not_found' }), { data: {} }] },
		});
		expect(error.message).toMatch(/not_found/);
		expect(requests).toHaveLength(1);
	});

	it.each([
		['a reset connection', RESET, {}],
		// FacilitaPay answers after the node's Timeout (Request Options) has passed.
		['a timeout', later(2000, { data: { id: 'late' } }), { timeout: 1000 }],
		['a 503', reply(503, 'Service Unavailable'), {}],
		['a 502', reply(502, 'Bad Gateway'), {}],
	])(
		'never repeats a payout after %s, and says to check before running again',
		async (_name, failure, requestOptions) => {
			const { error, requests, items } = await op.run({
				parameters: { ...payout, requestOptions },
				replies: { [CREATE]: [failure, { data: { id: 'dup' } }] },
			});
			expect(requests.filter((request) => request.route === CREATE)).toHaveLength(1);
			expect(items).toHaveLength(0);
			expect(waits).toHaveLength(0);
			expect(error.description).toMatch(/creates or moves money.*not repeated/);
		},
	);

	it('tries a payout again when the connection was refused (nothing was sent)', async () => {
		const port = await closedPort();
		const { error } = await op.run({
			parameters: payout,
			credentials: { baseUrl: `http://127.0.0.1:${port}/api/v1` },
		});
		// Every attempt refused: tried again after each, then given up, nothing sent.
		expect(waits).toHaveLength(defaultRetryOptions.maxAttempts - 1);
		expect(error.description).toMatch(/Nothing was sent to FacilitaPay/);
	});

	it('never repeats a cancel, even though it is sent as GET', async () => {
		const { requests, error } = await op.run({
			parameters: {
				resource: 'transaction',
				operation: 'cancel',
				transactionId: { __rl: true, mode: 'id', value: 'tx-1' },
			},
			replies: { 'GET /transactions/:id/refund': [reply(504, ''), { data: {} }] },
		});
		expect(error).toBeDefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/transactions/tx-1/refund' });
	});
});
