// The item engine of the node (actions/router.ts) on n8n's engine, against a FacilitaPay scripted by
// route: parallel requests and output order, every item checked before any is sent, rate limits,
// money sent at most once per execution (n8n's Retry On Fail, a loop, a new execution), Preview
// Only and the hint after a money-moving run.
import { later, reply, RESET, skipRetryWaits, useOperations } from '../lib/operations.mjs';
import {
	getTransactionParameters,
	payoutParameters,
	dynamicPixParameters,
} from '../../fixtures/transactions.js';
import { SUBJECT_ID } from '../../fixtures/subjects.js';
import { CARD_NUMBER, cardSubscription, SECURITY_CODE } from '../../fixtures/subscriptions.js';

const TRANSACTION = 'GET /transactions/:id';
const CREATE = 'POST /transactions';

const op = useOperations();
const waits = skipRetryWaits();

const byId = (value) => ({ __rl: true, mode: 'id', value });
/** Transaction > Get of one transaction (Simplify off), its ID in a locator. */
const getTransaction = (transactionId = 'tx-1', extra = {}) =>
	getTransactionParameters(byId(transactionId), extra);
/** Transaction > Create Payout of `value` USD, the subject in a locator. */
const payout = (value = '100.00', extra = {}) =>
	payoutParameters(value, { subjectId: byId(SUBJECT_ID), ...extra });
const oneAtATime = (parameters) => ({ ...parameters, requestOptions: { concurrency: 1 } });
const valueOf = (request) => request.body.transaction.value;
/** FacilitaPay's answer to a payout: its ID from the value sent. */
const created = (request) => ({ data: { id: `p-${valueOf(request)}` } });
const echoTransaction = (request) => ({ data: { id: request.params.id } });

/**
 * An answer held until `ready()` says so (checked every few milliseconds, no fixed wait): the
 * service reads a `later` reply's `then` when its time comes, so a getter can hold it again.
 * After about 5 s it is given anyway, so that a broken test fails on its assertions, not on a hang.
 */
function heldUntil(ready, answer, onAnswer = () => {}, polls = 0) {
	const held = later(5, undefined);
	Object.defineProperty(held, 'then', {
		get() {
			if (ready() || polls > 1000) {
				onAnswer();
				return answer;
			}
			return heldUntil(ready, answer, onAnswer, polls + 1);
		},
	});
	return held;
}

describe('item engine: parallel, order kept', () => {
	it('sends up to Max Parallel Requests at once and keeps output order and pairing', async () => {
		// The service answers the highest-numbered transaction in flight, and only when as many are
		// in flight as may be: the answers come in another order than the items.
		const inFlight = new Set();
		let peak = 0;
		let unanswered = 6;
		const answered = [];
		const { items, requests, error } = await op.run({
			parameters: Array.from({ length: 6 }, (_, i) =>
				getTransaction(`tx-${i}`, { requestOptions: { concurrency: 3 } }),
			),
			replies: {
				[TRANSACTION]: (request) => {
					const id = request.params.id;
					inFlight.add(id);
					peak = Math.max(peak, inFlight.size);
					const ready = () =>
						inFlight.size === Math.min(3, unanswered) && [...inFlight].sort().at(-1) === id;
					return heldUntil(ready, { data: { id } }, () => {
						inFlight.delete(id);
						unanswered--;
						answered.push(id);
					});
				},
			},
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(6);
		expect(peak).toBe(3);
		expect(answered).not.toEqual(['tx-0', 'tx-1', 'tx-2', 'tx-3', 'tx-4', 'tx-5']);
		expect(items.map((item) => item.json.id)).toEqual([
			'tx-0',
			'tx-1',
			'tx-2',
			'tx-3',
			'tx-4',
			'tx-5',
		]);
		expect(items.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4, 5].map((item) => ({ item })),
		);
	});

	it('with Max Parallel Requests 1, sends one request at a time', async () => {
		let inFlight = 0;
		let peak = 0;
		const { items } = await op.run({
			parameters: Array.from({ length: 4 }, (_, i) =>
				getTransaction(`tx-${i}`, { requestOptions: { concurrency: 1 } }),
			),
			replies: {
				[TRANSACTION]: (request) => {
					inFlight++;
					peak = Math.max(peak, inFlight);
					// Held for a few polls, long enough for a second request to arrive if one were sent.
					let polls = 0;
					return heldUntil(
						() => ++polls > 3,
						echoTransaction(request),
						() => inFlight--,
					);
				},
			},
		});
		expect(peak).toBe(1);
		expect(items.map((item) => item.json.id)).toEqual(['tx-0', 'tx-1', 'tx-2', 'tx-3']);
	});

	it('refuses a Max Parallel Requests outside 1 to 100 before sending anything', async () => {
		const { error, requests } = await op.run({
			parameters: getTransaction('tx-1', { requestOptions: { concurrency: 0 } }),
			replies: { [TRANSACTION]: echoTransaction },
		});
		expect(error.message).toMatch(/Max Parallel Requests must be a whole number from 1 to 100/);
		expect(requests).toHaveLength(0);
	});
});

describe('item engine: every item is checked before any is sent', () => {
	it('three valid payouts and one invalid one: nothing is sent, and the error names the invalid item', async () => {
		const { error, requests } = await op.run({
			parameters: [payout(), payout(), payout(), payout('10.005')],
			replies: { [CREATE]: created },
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/\(item 3\)/);
		expect(error.message).toMatch(/Value/);
		expect(error.description).toMatch(/Nothing was sent to FacilitaPay for any item/);
		expect(error.context.itemIndex).toBe(3);
	});

	it('several invalid items are all named in one error, with their fields', async () => {
		const { error, requests } = await op.run({
			parameters: [payout('1.999'), payout(), payout('abc', { subjectId: byId('not-a-uuid') })],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toBe('Invalid input in 2 items (0, 2): nothing was sent to FacilitaPay');
		expect(error.description).toMatch(/\(item 0\)/);
		expect(error.description).toMatch(/\(item 2\)/);
		expect(error.description).toMatch(/Subject ID/);
	});

	it('with Continue On Fail, invalid items become error items and the valid ones are sent', async () => {
		const { items, requests, error } = await op.run({
			parameters: [payout(), payout('10.005'), payout('20.00')],
			continueOnFail: true,
			replies: { [CREATE]: created },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(2);
		expect(requests.map(valueOf).sort()).toEqual(['100.00', '20.00']);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.id).toBe('p-100.00');
		expect(items[1].json.error).toMatch(/\(item 1\)/);
		expect(items[2].json.id).toBe('p-20.00');
	});
});

describe('item engine: rate limits', () => {
	it('a payout refused with 429 and Retry-After is sent again after the wait, and created once', async () => {
		const { items, requests } = await op.run({
			parameters: payout(),
			replies: {
				[CREATE]: [
					reply(429, { error: 'too_many_requests' }, { 'retry-after': '2' }),
					{ data: { id: 'p1' } },
				],
			},
		});
		expect(requests).toHaveLength(2);
		expect(requests[1].body).toEqual(requests[0].body);
		expect(waits).toHaveLength(1);
		expect(waits[0]).toBeGreaterThanOrEqual(2000);
		expect(items).toHaveLength(1);
		expect(items[0].json.id).toBe('p1');
	});

	it('after a 429 with Retry-After, items not yet sent wait for it too instead of meeting the limit again', async () => {
		const { items, requests } = await op.run({
			parameters: [getTransaction('tx-1'), getTransaction('tx-2')].map(oneAtATime),
			replies: {
				[TRANSACTION]: (request, index) =>
					index === 0 ? reply(429, {}, { 'retry-after': '3' }) : echoTransaction(request),
			},
		});
		expect(requests.map((request) => request.params.id)).toEqual(['tx-1', 'tx-1', 'tx-2']);
		expect(items.map((item) => item.json.id)).toEqual(['tx-1', 'tx-2']);
		// The refused request waited its Retry-After (plus jitter); the next item waited what was left.
		expect(waits).toHaveLength(2);
		expect(waits[0]).toBeGreaterThanOrEqual(3000);
		expect(waits[1]).toBeGreaterThan(0);
		expect(waits[1]).toBeLessThanOrEqual(3000);
	});

	it('honours Retry-After given as an HTTP date', async () => {
		const at = new Date(Date.now() + 10_000).toUTCString();
		const { items } = await op.run({
			parameters: getTransaction('tx-1'),
			replies: {
				[TRANSACTION]: [reply(429, {}, { 'retry-after': at }), { data: { id: 'tx-1' } }],
			},
		});
		expect(items[0].json.id).toBe('tx-1');
		expect(waits).toHaveLength(1);
		// The date has whole seconds; well above any backoff the node would pick without it.
		expect(waits[0]).toBeGreaterThan(5000);
		expect(waits[0]).toBeLessThanOrEqual(12_000);
	});

	it('keeps trying a rate-limited request well past the attempts of other errors', async () => {
		const limited = Array.from({ length: 6 }, () => reply(429, {}, { 'retry-after': '1' }));
		const { items, requests } = await op.run({
			parameters: getTransaction('tx-1'),
			replies: { [TRANSACTION]: [...limited, { data: { id: 'tx-1' } }] },
		});
		expect(requests).toHaveLength(7);
		expect(items[0].json.id).toBe('tx-1');
	});
});

describe('money is sent at most once per execution', () => {
	it('a reset connection during a payout fails the item as an unknown outcome, in our words, and is not sent again', async () => {
		const { error, requests } = await op.run({
			parameters: payout(),
			replies: { [CREATE]: [RESET, { data: { id: 'dup' } }] },
		});
		expect(requests).toHaveLength(1);
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe(
			'Outcome unknown (item 0): Could not reach FacilitaPay: the connection was closed before FacilitaPay answered',
		);
		expect(error.message).not.toMatch(/ECONNRESET|retry the request immediately|Retry on Fail/i);
		expect(error.description).toMatch(/Transaction > Get/);
	});

	/** FacilitaPay for four payouts sent one at a time: the one of 2.00 is reset after it arrived. */
	const resetOnTwo = (request) => (valueOf(request) === '2.00' ? RESET : created(request));
	const fourPayouts = [payout('1.00'), payout('2.00'), payout('3.00'), payout('4.00')].map(
		oneAtATime,
	);

	it('a payout reset after it was sent stops the run and says what was done, unknown and not sent', async () => {
		const { error } = await op.run({
			parameters: fourPayouts,
			replies: { [CREATE]: resetOnTwo },
		});
		expect(error.message).toMatch(/^Outcome unknown \(item 1\)/);
		expect(error.description).toMatch(/Done: 0 \(ID p-1\.00\)/);
		expect(error.description).toMatch(/Unknown outcome: 1/);
		expect(error.description).toMatch(/Not sent \(the run stopped at the first failure\): 2–3/);
	});

	it("n8n's Retry On Fail (the node run again in the same execution) sends no payout twice", async () => {
		const { error, requests, run } = await op.run({
			parameters: fourPayouts,
			replies: { [CREATE]: resetOnTwo },
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 1,
		});
		// Three tries of the node; item 1 is looked up at FacilitaPay (this service cannot list it): it
		// is not sent again, nor are the items after it.
		expect(run.run.data.resultData.runData.FacilitaPay).toHaveLength(1);
		expect(error.message).toMatch(/^Outcome unknown \(item 1\): It may have been sent before/);
		expect(requests.filter((request) => request.route === CREATE).map(valueOf)).toEqual([
			'1.00',
			'2.00',
		]);
	});

	it('a re-run after a later failure returns the payouts already made instead of paying again', async () => {
		// The third payout is refused (nothing moved) on the first try only; n8n's Retry On Fail runs
		// the node again in the same execution.
		const { items, requests, error } = await op.run({
			parameters: [payout('1.00'), payout('2.00'), payout('3.00')].map(oneAtATime),
			replies: {
				[CREATE]: (request, index) =>
					index === 2
						? reply(422, { errors: { value: ['insufficient balance'] } })
						: created(request),
			},
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 1,
		});
		expect(error).toBeUndefined();
		// Only the refused payout went out again.
		expect(requests.filter((request) => request.route === CREATE).map(valueOf)).toEqual([
			'1.00',
			'2.00',
			'3.00',
			'3.00',
		]);
		expect(items.map((item) => item.json.id)).toEqual(['p-1.00', 'p-2.00', 'p-3.00']);
	});

	it('Retry On Fail sends no second PIX charge although its expiry, computed from the clock, changed', async () => {
		// Expires At left at its default, `$now` plus an hour in whole seconds: n8n waits a second
		// between the tries (its Wait Between Tries), so the second try computes a later expiry.
		const { error, requests } = await op.run({
			parameters: dynamicPixParameters({ subjectId: byId(SUBJECT_ID), value: '10.00' }),
			replies: { [CREATE]: [RESET, { data: { id: 'second-charge' } }] },
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 1000,
		});
		const charges = requests.filter((request) => request.route === CREATE);
		expect(charges).toHaveLength(1);
		expect(charges[0].body.transaction.dynamic_pix_expires_at).toMatch(/Z$|[+-]\d\d:\d\d$/);
		expect(error.message).toMatch(/^Outcome unknown \(item 0\)/);
	});

	it('a loop that runs the node again (next $runIndex) sends its items, even with the same body', async () => {
		let loops = 0;
		class LoopNode {
			description = {
				displayName: 'Loop',
				name: 'loop',
				group: ['transform'],
				version: 1,
				description: 'Sends its items back once, then out',
				defaults: { name: 'Loop' },
				inputs: ['main'],
				outputs: ['main', 'main'],
				properties: [],
			};
			async execute() {
				const items = this.getInputData();
				return loops++ === 0 ? [items, []] : [[], items];
			}
		}
		const engine = await op.engine({ extraNodeTypes: { 'test.loop': new LoopNode() } });
		const { items, requests, run } = await op.run({
			engine,
			parameters: payout('7.00'),
			replies: { [CREATE]: [{ data: { id: 'a' } }, { data: { id: 'b' } }] },
			workflow: (json) => ({
				...json,
				nodes: [
					...json.nodes,
					{
						name: 'Loop',
						id: 'loop-1',
						type: 'test.loop',
						typeVersion: 1,
						position: [600, 0],
						parameters: {},
					},
				],
				connections: {
					...json.connections,
					FacilitaPay: { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
					Loop: { main: [[{ node: 'FacilitaPay', type: 'main', index: 0 }], []] },
				},
			}),
		});
		expect(run.run.data.resultData.runData.FacilitaPay).toHaveLength(2);
		expect(requests.filter((request) => request.route === CREATE)).toHaveLength(2);
		// The same payout both times; only the identity written in meta names the node's run.
		const [first, second] = requests.map((request) => request.body.transaction);
		expect({ ...second, meta: undefined }).toEqual({ ...first, meta: undefined });
		expect(first.meta.n8n_facilitapay_ref).toMatch(/:0:0$/);
		expect(second.meta.n8n_facilitapay_ref).toMatch(/:1:0$/);
		expect(items[0].json.id).toBe('b');
	});

	it('a new execution is a new payment: the memory is per execution', async () => {
		const engine = await op.engine();
		const parameters = payout('5.00');
		const first = await op.run({
			engine,
			parameters,
			replies: { [CREATE]: { data: { id: 'a' } } },
		});
		expect(first.requests).toHaveLength(1);
		const second = await op.run({
			engine,
			parameters,
			replies: { [CREATE]: { data: { id: 'b' } } },
		});
		expect(second.requests).toHaveLength(1);
		expect(second.items[0].json.id).toBe('b');
	});

	it('reads are retried after a reset, payouts are not', async () => {
		const read = await op.run({
			parameters: getTransaction('tx-1'),
			replies: { [TRANSACTION]: [RESET, { data: { id: 'tx-1' } }] },
		});
		expect(read.requests).toHaveLength(2);
		expect(read.items[0].json.id).toBe('tx-1');
		const paid = await op.run({
			parameters: payout(),
			replies: { [CREATE]: [RESET, { data: { id: 'dup' } }] },
		});
		expect(paid.requests).toHaveLength(1);
	});

	it('a request that hangs past the timeout fails with our message, not the error code', async () => {
		const { error, requests } = await op.run({
			parameters: payout('100.00', { requestOptions: { timeout: 1000 } }),
			replies: { [CREATE]: later(1500, { data: { id: 'late' } }) },
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toBe(
			'Outcome unknown (item 0): Could not reach FacilitaPay: FacilitaPay did not answer within 1 s',
		);
	});

	it('with Continue On Fail, an unknown outcome is an error item marked outcome: unknown, and the rest go on', async () => {
		const { items } = await op.run({
			parameters: [payout('1.00'), payout('2.00')].map(oneAtATime),
			continueOnFail: true,
			replies: {
				[CREATE]: (request) =>
					valueOf(request) === '1.00'
						? reply(503, { error: 'service_unavailable' })
						: { data: { id: 'p2' } },
			},
		});
		expect(items[0].json).toMatchObject({ outcome: 'unknown', httpCode: '503' });
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.id).toBe('p2');
	});
});

it('errors thrown by operations are n8n errors with the item index', async () => {
	const { error, requests } = await op.run({
		parameters: [getTransaction('tx-1'), getTransaction('a/b')],
		replies: { [TRANSACTION]: echoTransaction },
	});
	expect(requests).toHaveLength(0);
	expect(error.name).toBe('NodeOperationError');
	expect(error.context.itemIndex).toBe(1);
});

describe('Preview Only: every item checked, exactly what would be sent, nothing sent', () => {
	it('outputs each request with card data masked, sends nothing, and hints the count and total', async () => {
		const { items, requests, hints } = await op.run({
			parameters: [
				payout('100.00', { previewOnly: true, idempotencyKey: 'order-1' }),
				payout('23.45', { previewOnly: true }),
			],
		});
		expect(requests).toHaveLength(0);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json).toMatchObject({
			preview: true,
			method: 'POST',
			path: '/transactions',
			idempotencyKey: 'order-1',
			body: {
				transaction: {
					value: '100.00',
					currency: 'USD',
					subject_id: SUBJECT_ID,
					// The identity it would be sent with, where FacilitaPay keeps it.
					meta: { n8n_facilitapay_ref: 'key:order-1' },
				},
			},
		});
		expect(items[1].json.body.transaction.meta).toEqual({
			n8n_facilitapay_ref: expect.stringMatching(/^run:[^:]+:workflow-1:[^:]+:[^:]+:0:1$/),
		});
		expect(hints).toEqual([
			expect.objectContaining({
				message: expect.stringMatching(
					/^Preview: 2 requests checked, 123\.45 USD in all\. Nothing was sent/,
				),
			}),
		]);
	});

	it('an invalid item still stops the preview with the readable error', async () => {
		const { error, requests } = await op.run({
			parameters: [payout('1.00', { previewOnly: true }), payout('1.001', { previewOnly: true })],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/\(item 1\)/);
	});

	it('hides the card number and security code of a card subscription', async () => {
		const { items, requests, error } = await op.run({
			parameters: cardSubscription({ subjectId: byId(SUBJECT_ID), previewOnly: true }),
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(0);
		expect(items[0].json.preview).toBe(true);
		const text = JSON.stringify(items[0].json);
		expect(text).not.toContain(CARD_NUMBER);
		expect(text).not.toMatch(new RegExp(`"${SECURITY_CODE}"`));
	});
});

describe('the hint after a money-moving run', () => {
	it('says how many were sent and the total, and how many were skipped as already done', async () => {
		const { hints, requests } = await op.run({
			parameters: [payout('10.00'), payout('0.05')],
			replies: { [CREATE]: created },
		});
		expect(requests).toHaveLength(2);
		expect(hints.map((h) => h.message)).toEqual(['Sent 2 requests, 10.05 USD in all.']);
	});
});
