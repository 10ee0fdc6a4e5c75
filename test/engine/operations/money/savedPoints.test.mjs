// Issue 32, reads bounded: a keyed payout in a NEW process (a restart, another queue-mode worker)
// reads the subject's transactions from the point the workflow saved in its static data, not from
// the start. On n8n's engine: the static data n8n keeps with the workflow between executions is
// handed from one run to the next, and the node's process memory is cleared between them.
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

describe('A keyed payout in a new process reads from the point the workflow saved', () => {
	test('50,000 earlier transactions: the first keyed payout of the workflow reads them once; after a restart the next reads ≤ 3 pages, and an old key is still found', async () => {
		const service = facilitaPay(50_000);
		const first = await op.run({
			parameters: payout('ORDER-1'),
			replies: service.replies,
			mode: 'trigger',
		});
		expect(first.error).toBeUndefined();
		expect(posts(first.requests)).toHaveLength(1);
		// 500 full pages and the empty one that ends the list, then the re-read after the answer.
		expect(reads(first.requests).length).toBeGreaterThan(500);

		// n8n restarts (the process memory is gone); the workflow's static data stays.
		resetNodeMemory();
		const second = await op.run({
			parameters: payout('ORDER-2'),
			replies: service.replies,
			mode: 'trigger',
			staticData: first.staticData,
		});
		expect(second.error).toBeUndefined();
		expect(second.items[0].json).toMatchObject({ id: 'new-2', value: '30.00' });
		expect(posts(second.requests)).toHaveLength(1);
		const lookup = reads(second.requests).slice(0, 3);
		// The saved point by its ID (still this account's?), then the one page after it.
		expect(lookup.map((request) => request.path)).toEqual([
			'/transactions/new-1',
			`/subject/${SUBJECT_ID}/transactions`,
			`/subject/${SUBJECT_ID}/transactions`,
		]);
		expect(lookup[1].query).toEqual({ last_id: 'new-1' });
		// Before the payment: the point and one page; after it: the re-read from the newest record.
		expect(reads(second.requests).length).toBeLessThanOrEqual(5);

		resetNodeMemory();
		const old = await op.run({
			parameters: payout('OLD-4900', '5.00'),
			replies: service.replies,
			mode: 'trigger',
			staticData: second.staticData,
		});
		expect(old.error).toBeUndefined();
		expect(old.items[0].json).toMatchObject({ alreadyDone: true, id: 'old-4900' });
		expect(posts(old.requests)).toHaveLength(0);
		expect(reads(old.requests).length).toBeLessThanOrEqual(3);
	});

	test('a key paid by the workflow before its point is found after a restart and never paid again; the same key with another value is refused', async () => {
		const service = facilitaPay(250);
		const first = await op.run({ parameters: payout('INV-7'), replies: service.replies });
		expect(posts(first.requests)).toHaveLength(1);
		const second = await op.run({
			parameters: payout('INV-8'),
			replies: service.replies,
			staticData: first.staticData,
		});
		resetNodeMemory();
		const again = await op.run({
			parameters: payout('INV-7'),
			replies: service.replies,
			staticData: second.staticData,
		});
		expect(again.items[0].json).toMatchObject({ alreadyDone: true, id: 'new-1' });
		expect(posts(again.requests)).toHaveLength(0);
		expect(reads(again.requests).length).toBeLessThanOrEqual(3);

		resetNodeMemory();
		const other = await op.run({
			parameters: payout('INV-7', '500.00'),
			replies: service.replies,
			staticData: second.staticData,
		});
		expect(other.error.message).toContain('already names another payment: new-1');
		expect(posts(other.requests)).toHaveLength(0);
	});

	test('a saved point the account does not hold (the credential now reaches another account) is no point: the list is read from its start', async () => {
		const service = facilitaPay(250);
		const first = await op.run({ parameters: payout('INV-1'), replies: service.replies });
		// Another account: none of the first account's transactions.
		const elsewhere = facilitaPay(0);
		elsewhere.records.push(
			...service.records.filter((record) => record.id.startsWith('old-')).slice(0, 120),
		);
		resetNodeMemory();
		const next = await op.run({
			parameters: payout('INV-1'),
			replies: elsewhere.replies,
			staticData: first.staticData,
		});
		// The point (new-1) is not found there; the list is read from its start (2 pages + the end).
		const paths = reads(next.requests).map((request) => request.path);
		expect(paths[0]).toBe('/transactions/new-1');
		expect(next.requests[1].query).toEqual({});
		expect(posts(next.requests)).toHaveLength(1);
	});

	test('a retry (no key) never trusts a saved point: origins are not saved, its chain is read', async () => {
		const service = facilitaPay(150);
		const keyed = await op.run({ parameters: payout('K-1'), replies: service.replies });
		resetNodeMemory();
		// A payout without a key, in a new execution: sent at once, nothing looked up.
		const plain = await op.run({
			parameters: payoutParameters('12.00', {
				subjectId: { __rl: true, mode: 'id', value: SUBJECT_ID },
			}),
			replies: service.replies,
			staticData: keyed.staticData,
		});
		expect(reads(plain.requests)).toHaveLength(0);
		expect(posts(plain.requests)).toHaveLength(1);
	});
});
