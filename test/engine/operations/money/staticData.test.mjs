// Issue 32, reads bounded: a keyed payout reads the subject's list once per process, then only what
// came after; it keeps nothing in the workflow's static data (why: below and docs/money.md). On
// n8n's engine, the static data handed from one execution to the next, the node's process memory
// cleared for a restart.
import { createRequire } from 'node:module';
import { reply, resetNodeMemory, useOperations } from '../../lib/operations.mjs';

const require = createRequire(import.meta.url);
const { payoutParameters } = require('../../../fixtures/transactions.js');
const { SUBJECT_ID } = require('../../../fixtures/subjects.js');

const op = useOperations();

/** A FacilitaPay that keeps `meta` and lists a subject's transactions oldest first, 100 a page. */
function facilitaPay(earlier) {
	const records = [];
	for (let i = 0; i < earlier; i++)
		records.push({
			id: `old-${i}`,
			subject_id: SUBJECT_ID,
			value: '5.00',
			meta: i % 100 === 0 ? { n8n_facilitapay_ref: `key:OLD-${i}` } : null,
		});
	let created = 0;
	return {
		records,
		replies: {
			'POST /transactions': (request) => {
				const record = {
					...request.body.transaction,
					id: `new-${++created}`,
					status: 'pending',
				};
				records.push(record);
				return { data: record };
			},
			'GET /subject/:id/transactions': (request) => {
				const mine = records.filter((record) => record.subject_id === request.params.id);
				const after = request.query.last_id;
				const from = after === undefined ? 0 : mine.findIndex((r) => r.id === after) + 1;
				return { data: mine.slice(from, from + 100) };
			},
			'GET /transactions/:id': (request) => {
				const record = records.find((r) => r.id === request.params.id);
				return record ? { data: record } : reply(404, { error: 'not_found' });
			},
		},
	};
}

const payout = (key, value = '30.00') =>
	payoutParameters(value, {
		subjectId: { __rl: true, mode: 'id', value: SUBJECT_ID },
		idempotencyKey: key,
	});
const reads = (requests) => requests.filter((request) => request.method === 'GET');
const posts = (requests) => requests.filter((request) => request.method === 'POST');

describe("A keyed payout never writes the workflow's static data", () => {
	// n8n 2.41.1 in queue mode runs a webhook execution on a worker with EMPTY static data and
	// saves the whole column when a node changed it: a write here erased a FacilitaPay Trigger's
	// registration in the same workflow (test/queue/7-keys-across-workers.test.mjs, docs/money.md). And an
	// execution saves its copy at its end, rolling back what a running trigger saved meanwhile.
	test('static data as it came in, after a first keyed payout, a repeat and a restart', async () => {
		const service = facilitaPay(1_150);
		/** Payout ORDER-1 in a webhook execution that starts with `before`. */
		const payoutByWebhook = (before) =>
			op.run({
				parameters: payout('ORDER-1'),
				replies: service.replies,
				mode: 'webhook',
				staticData: before,
			});
		const staticData = { 'node:FacilitaPay Trigger': { cursor: 'n-41' } };
		const first = await payoutByWebhook(staticData);
		expect(first.error).toBeUndefined();
		expect(posts(first.requests)).toHaveLength(1);
		// The whole list once (12 pages and the empty one), then the re-read after the answer.
		expect(reads(first.requests).length).toBeGreaterThanOrEqual(13);
		expect(first.staticData).toEqual({ 'node:FacilitaPay Trigger': { cursor: 'n-41' } });

		const again = await payoutByWebhook(first.staticData);
		expect(again.items[0].json).toMatchObject({ alreadyDone: true, id: 'new-1' });
		expect(posts(again.requests)).toHaveLength(0);
		// This process knows the list: only what came after its newest record is read.
		expect(reads(again.requests).length).toBeLessThanOrEqual(3);

		// A restart: the process memory is gone, the key is found in the list read again.
		resetNodeMemory();
		const restarted = await payoutByWebhook(again.staticData);
		expect(restarted.items[0].json).toMatchObject({ alreadyDone: true, id: 'new-1' });
		expect(posts(restarted.requests)).toHaveLength(0);
		expect(reads(restarted.requests).length).toBeGreaterThanOrEqual(13);
		expect(restarted.staticData).toEqual({ 'node:FacilitaPay Trigger': { cursor: 'n-41' } });
	});
});
