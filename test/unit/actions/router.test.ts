import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { FacilitaPay } from '../../../nodes/FacilitaPay/FacilitaPay.node';
import { addDecimal } from '../../../nodes/FacilitaPay/actions/common/moneySummary';
import { CARD_NUMBER, cardSubscription, SECURITY_CODE } from './subscription/fixtures';
import { defaultRetryOptions } from '../../../nodes/FacilitaPay/transport';
import { AdaptiveLimiter } from '../../../nodes/FacilitaPay/transport/limiter';
import { SentMemory } from '../../../nodes/FacilitaPay/transport/sentMemory';
import {
	connectionError,
	createContext,
	httpError,
	runNode,
	runNodeExpectingError,
} from '../helpers/executeContext';

const waits: number[] = [];
beforeEach(() => {
	waits.length = 0;
	jest.spyOn(defaultRetryOptions, 'wait').mockImplementation(async (ms: number) => {
		waits.push(ms);
	});
});
afterEach(() => jest.restoreAllMocks());

const SUBJECT_ID = '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c';
const payout = (value = '100.00', extra: IDataObject = {}) => ({
	resource: 'transaction',
	operation: 'createPayout',
	subjectId: SUBJECT_ID,
	fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000003',
	toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000006',
	currency: 'USD',
	exchangeCurrency: 'BRL',
	value,
	...extra,
});
const getTransaction = (id: string, extra: IDataObject = {}) => ({
	resource: 'transaction',
	operation: 'get',
	transactionId: id,
	simplify: false,
	...extra,
});

/** A reply that the test answers later, in an order it chooses. */
function deferred() {
	let resolve: (value: unknown) => void = () => {};
	const promise = new Promise((r) => (resolve = r));
	return { promise, resolve };
}
/** Lets every promise chain that is ready run (no timers: the lint forbids them in every .ts file). */
const tick = async () => {
	for (let k = 0; k < 50; k++) await Promise.resolve();
};

let executionCounter = 0;
const newExecutionId = () => `exec-${++executionCounter}-${Math.random()}`;

describe('item engine: parallel, order kept', () => {
	it('sends up to Max Parallel Requests at once and keeps output order and pairing', async () => {
		const answers = Array.from({ length: 6 }, deferred);
		let inFlight = 0;
		let peak = 0;
		const fake = createContext({
			parameters: Array.from({ length: 6 }, (_, i) =>
				getTransaction(`tx-${i}`, { requestOptions: { concurrency: 3 } }),
			),
			replies: Array.from({ length: 6 }, (_, i) => async (request: IHttpRequestOptions) => {
				inFlight++;
				peak = Math.max(peak, inFlight);
				await answers[i].promise;
				inFlight--;
				return { data: { id: String(request.url).split('/').pop() } };
			}),
		});
		const run = new FacilitaPay().execute.call(fake.ctx);
		await tick();
		expect(fake.requests).toHaveLength(3);
		// Answer in reverse order: output order must not follow it.
		for (const i of [2, 1, 0, 5, 4, 3]) {
			answers[i].resolve(undefined);
			await tick();
		}
		const [output] = await run;
		expect(peak).toBe(3);
		expect(output.map((item) => item.json.id)).toEqual([
			'tx-0',
			'tx-1',
			'tx-2',
			'tx-3',
			'tx-4',
			'tx-5',
		]);
		expect(output.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4, 5].map((item) => ({ item })),
		);
	});

	it('with Max Parallel Requests 1, sends one request at a time', async () => {
		let inFlight = 0;
		let peak = 0;
		const { output } = await runNode({
			parameters: Array.from({ length: 4 }, (_, i) =>
				getTransaction(`tx-${i}`, { requestOptions: { concurrency: 1 } }),
			),
			replies: Array.from({ length: 4 }, (_, i) => async () => {
				inFlight++;
				peak = Math.max(peak, inFlight);
				await tick();
				inFlight--;
				return { data: { id: `tx-${i}` } };
			}),
		});
		expect(peak).toBe(1);
		expect(output).toHaveLength(4);
	});

	it('refuses a Max Parallel Requests outside 1 to 100 before sending anything', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: getTransaction('tx-1', { requestOptions: { concurrency: 0 } }),
			replies: [{ data: { id: 'tx-1' } }],
		});
		expect(error.message).toMatch(/Max Parallel Requests must be a whole number from 1 to 100/);
		expect(requests).toHaveLength(0);
	});

	it('every request carries the timeout (30 s by default, or the option)', async () => {
		const { requests } = await runNode({
			parameters: [getTransaction('tx-1'), getTransaction('tx-2')],
			replies: [{ data: { id: 'tx-1' } }, { data: { id: 'tx-2' } }],
		});
		expect(requests.map((r) => r.timeout)).toEqual([30000, 30000]);
		const custom = await runNode({
			parameters: getTransaction('tx-1', { requestOptions: { timeout: 5000 } }),
			replies: [{ data: { id: 'tx-1' } }],
		});
		expect(custom.requests[0].timeout).toBe(5000);
	});
});

describe('item engine: every item is checked before any is sent', () => {
	it('three valid payouts and one invalid one: nothing is sent, and the error names the invalid item', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: [payout(), payout(), payout(), payout('10.005')],
			replies: [{ data: { id: 'p1' } }, { data: { id: 'p2' } }, { data: { id: 'p3' } }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/\(item 3\)/);
		expect(error.message).toMatch(/Value/);
		expect(error.description).toMatch(/Nothing was sent to FacilitaPay for any item/);
		expect(error.context.itemIndex).toBe(3);
	});

	it('several invalid items are all named in one error, with their fields', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: [payout('1.999'), payout(), payout('abc', { subjectId: 'not-a-uuid' })],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toBe('Invalid input in 2 items (0, 2): nothing was sent to FacilitaPay');
		expect(error.description).toMatch(/\(item 0\)/);
		expect(error.description).toMatch(/\(item 2\)/);
		expect(error.description).toMatch(/Subject ID/);
	});

	it('with Continue On Fail, invalid items become error items and the valid ones are sent', async () => {
		const { output, requests } = await runNode({
			parameters: [payout(), payout('10.005'), payout('20.00')],
			continueOnFail: true,
			replies: [{ data: { id: 'p0' } }, { data: { id: 'p2' } }],
		});
		expect(requests).toHaveLength(2);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json.id).toBe('p0');
		expect(output[1].json.error).toMatch(/\(item 1\)/);
		expect(output[2].json.id).toBe('p2');
	});
});

describe('item engine: rate limits', () => {
	it('a payout refused with 429 and Retry-After is sent again after the wait, and created once', async () => {
		const { output, requests } = await runNode({
			parameters: payout(),
			executionId: newExecutionId(),
			replies: [
				httpError(429, { error: 'too_many_requests' }, { 'retry-after': '2' }),
				{ data: { id: 'p1' } },
			],
		});
		expect(requests).toHaveLength(2);
		expect(waits).toHaveLength(1);
		expect(waits[0]).toBeGreaterThanOrEqual(2000);
		expect(output).toHaveLength(1);
		expect(output[0].json.id).toBe('p1');
	});

	it('after a 429 with Retry-After, items not yet sent wait for it too instead of meeting the limit again', async () => {
		const { output, requests } = await runNode({
			parameters: [getTransaction('tx-1'), getTransaction('tx-2')].map((p) => ({
				...p,
				requestOptions: { concurrency: 1 },
			})),
			replies: [
				httpError(429, {}, { 'retry-after': '3' }),
				{ data: { id: 'tx-1' } },
				{ data: { id: 'tx-2' } },
			],
		});
		expect(requests).toHaveLength(3);
		expect(output.map((item) => item.json.id)).toEqual(['tx-1', 'tx-2']);
		// The refused request waited its Retry-After (plus jitter); the next item waited what was left.
		expect(waits).toHaveLength(2);
		expect(waits[0]).toBeGreaterThanOrEqual(3000);
		expect(waits[1]).toBeGreaterThan(2000);
		expect(waits[1]).toBeLessThanOrEqual(3000);
	});

	it('honours Retry-After given as an HTTP date', async () => {
		const at = new Date(Date.now() + 5000).toUTCString();
		await runNode({
			parameters: getTransaction('tx-1'),
			replies: [httpError(429, {}, { 'retry-after': at }), { data: { id: 'tx-1' } }],
		});
		expect(waits).toHaveLength(1);
		expect(waits[0]).toBeGreaterThan(3000);
		expect(waits[0]).toBeLessThanOrEqual(6000);
	});

	it('keeps trying a rate-limited request well past the attempts of other errors', async () => {
		const limited = Array.from({ length: 6 }, () => httpError(429, {}, { 'retry-after': '1' }));
		const { output, requests } = await runNode({
			parameters: getTransaction('tx-1'),
			replies: [...limited, { data: { id: 'tx-1' } }],
		});
		expect(requests).toHaveLength(7);
		expect(output[0].json.id).toBe('tx-1');
	});
});

describe('money is sent at most once per execution', () => {
	it('a reset connection during a payout fails the item as an unknown outcome, in our words, and is not sent again', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: payout(),
			executionId: newExecutionId(),
			replies: [connectionError('ECONNRESET'), { data: { id: 'dup' } }],
		});
		expect(requests).toHaveLength(1);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'Outcome unknown (item 0): Could not reach FacilitaPay: the connection was closed before FacilitaPay answered',
		);
		expect(error.message).not.toMatch(/ECONNRESET|retry the request immediately|Retry on Fail/i);
		expect(error.description).toMatch(/Transaction > Get/);
	});

	it("n8n's Retry On Fail (the node run again in the same execution) sends no payout twice", async () => {
		const executionId = newExecutionId();
		const sent: string[] = [];
		const service = (request: IHttpRequestOptions) => {
			const value = ((request.body as IDataObject).transaction as IDataObject).value as string;
			sent.push(value);
			if (value === '2.00') throw connectionError('ECONNRESET');
			return { data: { id: `p-${value}` } };
		};
		const parameters = [payout('1.00'), payout('2.00'), payout('3.00'), payout('4.00')].map(
			(p) => ({
				...p,
				requestOptions: { concurrency: 1 },
			}),
		);
		// First try: item 0 done, item 1 reset after sending, items 2 and 3 not started.
		const first = await runNodeExpectingError({
			parameters,
			executionId,
			replies: Array(8).fill(service),
		});
		expect(first.error.message).toMatch(/^Outcome unknown \(item 1\)/);
		expect(first.error.description).toMatch(/Done: 0 \(ID p-1\.00\)/);
		expect(first.error.description).toMatch(/Unknown outcome: 1/);
		expect(first.error.description).toMatch(
			/Not sent \(the run stopped at the first failure\): 2–3/,
		);
		// Second and third tries, as Retry On Fail makes them: same execution, a new run of the node.
		for (let attempt = 0; attempt < 2; attempt++) {
			const again = await runNodeExpectingError({
				parameters,
				executionId,
				replies: Array(8).fill(service),
			});
			expect(again.error.message).toMatch(
				/^Outcome unknown \(item 1\): this request was already sent in this execution/,
			);
			expect(again.requests).toHaveLength(0);
		}
		expect(sent).toEqual(['1.00', '2.00']);
	});

	it('a re-run after a later failure returns the payouts already made instead of paying again', async () => {
		const executionId = newExecutionId();
		let calls = 0;
		const service = (request: IHttpRequestOptions) => {
			calls++;
			const value = ((request.body as IDataObject).transaction as IDataObject).value as string;
			// The third payout is refused (nothing moved) on the first try only.
			if (value === '3.00' && calls === 3)
				throw httpError(422, { errors: { value: ['insufficient balance'] } });
			return { data: { id: `p-${value}` } };
		};
		const parameters = [payout('1.00'), payout('2.00'), payout('3.00')].map((p) => ({
			...p,
			requestOptions: { concurrency: 1 },
		}));
		const first = await runNodeExpectingError({
			parameters,
			executionId,
			replies: Array(6).fill(service),
		});
		expect(first.error.message).toMatch(/\(item 2\)/);
		const second = await runNode({ parameters, executionId, replies: Array(6).fill(service) });
		// Only the refused payout went out again.
		expect(second.requests).toHaveLength(1);
		expect(second.output.map((item) => item.json.id)).toEqual(['p-1.00', 'p-2.00', 'p-3.00']);
	});

	it('Retry On Fail sends no second PIX charge although its expiry, computed from the clock, changed', async () => {
		const executionId = newExecutionId();
		const expiry = (minutes: number) =>
			new Date(Date.now() + minutes * 60_000).toISOString().slice(0, 19) + 'Z';
		const pix = (dynamicPixExpiresAt: string) => ({
			resource: 'transaction',
			operation: 'createDynamicPix',
			subjectId: SUBJECT_ID,
			fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
			toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000004',
			exchangeCurrency: 'USD',
			value: '10.00',
			dynamicPixExpiresAt,
		});
		const first = await runNodeExpectingError({
			parameters: pix(expiry(60)),
			executionId,
			runIndex: 0,
			replies: [connectionError('ECONNRESET')],
		});
		expect(first.requests).toHaveLength(1);
		// n8n runs the node again (same $runIndex); `$now` plus an hour is now a little later.
		const again = await runNodeExpectingError({
			parameters: pix(expiry(61)),
			executionId,
			runIndex: 0,
			replies: [{ data: { id: 'second-charge' } }],
		});
		expect(again.requests).toHaveLength(0);
		expect(again.error.message).toMatch(/^Outcome unknown \(item 0\)/);
	});

	it('a loop that runs the node again (next $runIndex) sends its items, even with the same body', async () => {
		const executionId = newExecutionId();
		await runNode({
			parameters: payout('7.00'),
			executionId,
			runIndex: 0,
			replies: [{ data: { id: 'a' } }],
		});
		const next = await runNode({
			parameters: payout('7.00'),
			executionId,
			runIndex: 1,
			replies: [{ data: { id: 'b' } }],
		});
		expect(next.requests).toHaveLength(1);
		expect(next.output[0].json.id).toBe('b');
	});

	it('a new execution is a new payment: the memory is per execution', async () => {
		const parameters = payout('5.00');
		await runNode({ parameters, executionId: newExecutionId(), replies: [{ data: { id: 'a' } }] });
		const { requests } = await runNode({
			parameters,
			executionId: newExecutionId(),
			replies: [{ data: { id: 'b' } }],
		});
		expect(requests).toHaveLength(1);
	});

	it('reads are retried after a reset, payouts are not', async () => {
		const read = await runNode({
			parameters: getTransaction('tx-1'),
			replies: [connectionError('ECONNRESET'), { data: { id: 'tx-1' } }],
		});
		expect(read.requests).toHaveLength(2);
	});

	it('a request that hangs past the timeout fails with our message, not the error code', async () => {
		const timeout = Object.assign(new Error('timeout of 30000ms exceeded'), {
			code: 'ECONNABORTED',
		});
		const { error, requests } = await runNodeExpectingError({
			parameters: payout(),
			executionId: newExecutionId(),
			replies: [
				new NodeApiError(createContext({ parameters: {} }).ctx.getNode(), timeout as never),
			],
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toBe(
			'Outcome unknown (item 0): Could not reach FacilitaPay: FacilitaPay did not answer within 30 s',
		);
	});

	it('with Continue On Fail, an unknown outcome is an error item marked outcome: unknown, and the rest go on', async () => {
		const { output } = await runNode({
			parameters: [payout('1.00'), payout('2.00')].map((p) => ({
				...p,
				requestOptions: { concurrency: 1 },
			})),
			executionId: newExecutionId(),
			continueOnFail: true,
			replies: [httpError(503, { error: 'service_unavailable' }), { data: { id: 'p2' } }],
		});
		expect(output[0].json).toMatchObject({ outcome: 'unknown', httpCode: '503' });
		expect(output[1].json.id).toBe('p2');
	});
});

describe('AdaptiveLimiter (AIMD)', () => {
	it('halves on a burst of 429s once, and grows back by about one per round of successes', async () => {
		const limiter = new AdaptiveLimiter(8);
		expect(limiter.allowed).toBe(8);
		const tickets = [];
		for (let i = 0; i < 8; i++) tickets.push(await limiter.acquire());
		// Eight refusals of requests that were all in flight before the first halving: one halving.
		for (const ticket of tickets) limiter.release('limited', ticket);
		expect(limiter.allowed).toBe(4);
		// A refusal of a request started after that halving halves again.
		limiter.release('limited', await limiter.acquire());
		expect(limiter.allowed).toBe(2);
		for (let i = 0; i < 2; i++) limiter.release('ok', await limiter.acquire());
		expect(limiter.allowed).toBe(2);
		for (let i = 0; i < 3; i++) limiter.release('ok', await limiter.acquire());
		expect(limiter.allowed).toBe(3);
	});

	it('never lets more than the window in flight, and never less than one', async () => {
		const limiter = new AdaptiveLimiter(2);
		const first = await limiter.acquire();
		const second = await limiter.acquire();
		let third = false;
		const waiting = limiter.acquire().then(() => (third = true));
		await tick();
		expect(third).toBe(false);
		limiter.release('limited', first);
		limiter.release('limited', second);
		await waiting;
		expect(third).toBe(true);
		expect(limiter.allowed).toBe(1);
		expect(limiter.peakInFlight).toBe(2);
	});

	it('serves a retry before requests that were never tried, so no item is starved', async () => {
		const limiter = new AdaptiveLimiter(1);
		const held = await limiter.acquire();
		const order: string[] = [];
		const fresh = limiter.acquire().then((ticket) => {
			order.push('new');
			limiter.release('ok', ticket);
		});
		const retry = limiter.acquire(true).then((ticket) => {
			order.push('retry');
			limiter.release('ok', ticket);
		});
		limiter.release('ok', held);
		await Promise.all([fresh, retry]);
		expect(order).toEqual(['retry', 'new']);
	});

	it('after a 429 with Retry-After, says how long new requests must still wait', () => {
		let now = 1_000;
		const limiter = new AdaptiveLimiter(4, () => now);
		expect(limiter.pauseLeft()).toBe(0);
		limiter.pauseFor(2_000);
		now = 1_500;
		expect(limiter.pauseLeft()).toBe(1_500);
		limiter.pauseFor(500);
		expect(limiter.pauseLeft()).toBe(1_500);
		now = 3_500;
		expect(limiter.pauseLeft()).toBe(0);
	});
});

describe('SentMemory (the memory behind Retry On Fail): bounded by time and bytes', () => {
	it('keeps every entry for its hour, however many there are, and forgets it after', () => {
		let now = 0;
		const memory = new SentMemory(1024, 1000, () => now);
		for (let i = 0; i < 50_000; i++)
			memory.set(`k${i}`, { state: 'done', answer: { id: `p${i}` } });
		expect(memory.size).toBe(50_000);
		expect(memory.get('k0')?.state).toBe('done');
		now = 1001;
		expect(memory.get('k0')).toBeUndefined();
		memory.set('fresh', { state: 'sending' });
		expect(memory.size).toBe(1);
	});

	it('past its byte budget, keeps only the record ID of an answer instead of forgetting the payout', () => {
		const memory = new SentMemory(100, 60_000, () => 0);
		memory.set('small', { state: 'done', answer: { id: 'a' } });
		memory.set('big', { state: 'done', answer: { id: 'b', text: 'x'.repeat(500) } });
		expect(memory.get('small')).toEqual({ state: 'done', answer: { id: 'a' } });
		expect(memory.get('big')).toEqual({ state: 'done', recordId: 'b' });
		expect(memory.bytes).toBeLessThan(100 + 2 * 200 + 1);
	});

	it('50,000 remembered payouts take about 10 MB', () => {
		const memory = new SentMemory(0, 60_000, () => 0);
		for (let i = 0; i < 50_000; i++)
			memory.set(`exec\u0000node\u00000\u0000${i}\u0000POST /transactions`, {
				state: 'done',
				answer: { data: { id: `0b5e7c2a-1f3d-4a8e-9c61-${String(i).padStart(12, '0')}` } },
			});
		expect(memory.size).toBe(50_000);
		expect(memory.bytes).toBeLessThanOrEqual(10_000_000);
	});
});

it('errors thrown by operations are n8n errors with the item index', async () => {
	const { error } = await runNodeExpectingError({
		parameters: [getTransaction('tx-1'), getTransaction('a/b')],
	});
	expect(error).toBeInstanceOf(NodeOperationError);
	expect(error.context.itemIndex).toBe(1);
});

describe('Preview Only: every item checked, exactly what would be sent, nothing sent', () => {
	it('outputs each request with card data masked, sends nothing, and hints the count and total', async () => {
		const hints: IDataObject[] = [];
		const fake = createContext({
			parameters: [
				payout('100.00', { previewOnly: true, idempotencyKey: 'order-1' }),
				payout('23.45', { previewOnly: true }),
			],
			executionId: newExecutionId(),
		});
		(fake.ctx as unknown as IDataObject).addExecutionHints = (...added: IDataObject[]) =>
			hints.push(...added);
		const [output] = await new FacilitaPay().execute.call(fake.ctx);
		expect(fake.requests).toHaveLength(0);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output[0].json).toMatchObject({
			preview: true,
			method: 'POST',
			path: '/transactions',
			idempotencyKey: 'order-1',
			body: { transaction: { value: '100.00', currency: 'USD', subject_id: SUBJECT_ID } },
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
		const { error, requests } = await runNodeExpectingError({
			parameters: [payout('1.00', { previewOnly: true }), payout('1.001', { previewOnly: true })],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/\(item 1\)/);
	});

	it('hides the card number and security code of a card subscription', async () => {
		const { output } = await runNode({
			parameters: { ...cardSubscription(), previewOnly: true },
		});
		const text = JSON.stringify(output[0].json);
		expect(text).not.toContain(CARD_NUMBER);
		expect(text).not.toMatch(new RegExp(`"${SECURITY_CODE}"`));
	});
});

describe('the hint after a money-moving run', () => {
	it('says how many were sent and the total, and how many were skipped as already done', async () => {
		const hints: IDataObject[] = [];
		const fake = createContext({
			parameters: [payout('10.00'), payout('0.05')],
			executionId: newExecutionId(),
			replies: [{ data: { id: 'a' } }, { data: { id: 'b' } }],
		});
		(fake.ctx as unknown as IDataObject).addExecutionHints = (...added: IDataObject[]) =>
			hints.push(...added);
		await new FacilitaPay().execute.call(fake.ctx);
		expect(hints.map((h) => h.message)).toEqual(['Sent 2 requests, 10.05 USD in all.']);
	});
});

describe('money totals are added as decimal strings, never floats', () => {
	it.each([
		['0.10', '0.20', '0.30'],
		['15000', '1', '15001'],
		['999999999999.99', '0.01', '1000000000000.00'],
		['1.5', '0.25', '1.75'],
	])('%s + %s = %s', (a, b, sum) => {
		expect(addDecimal(a, b)).toBe(sum);
	});
});

describe('AdaptiveLimiter pacing: once the service refused with 429, starts are spaced to its rate', () => {
	it('learns a little under the rate it was answered at, spaces starts to it, and raises it slowly', async () => {
		let now = 0;
		const limiter = new AdaptiveLimiter(20, () => now);
		expect(limiter.paceDelay()).toBe(0);
		// 20 answers in the last second, then a 429.
		for (let k = 0; k < 20; k++) {
			const ticket = await limiter.acquire();
			now += 40;
			limiter.release('ok', ticket);
		}
		const refused = await limiter.acquire();
		limiter.release('limited', refused);
		expect(limiter.requestsPerSecond).toBe(18);
		expect([limiter.paceDelay(), limiter.paceDelay(), limiter.paceDelay()].map(Math.round)).toEqual(
			[0, 56, 111],
		);
		// A second without a 429: a little faster.
		now += 1500;
		const ok = await limiter.acquire();
		limiter.release('ok', ok);
		expect(limiter.requestsPerSecond).toBeGreaterThan(18);
	});

	it('learns nothing from a 429 that comes with almost no answers before it (the limit was used up elsewhere)', async () => {
		const limiter = new AdaptiveLimiter(20, () => 0);
		const ticket = await limiter.acquire();
		limiter.release('limited', ticket);
		expect(limiter.requestsPerSecond).toBeUndefined();
		expect(limiter.paceDelay()).toBe(0);
	});
});
