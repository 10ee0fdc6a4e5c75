import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { FacilitaPay } from '../../../nodes/FacilitaPay/FacilitaPay.node';
import { CARD_NUMBER, cardSubscription, SECURITY_CODE } from './subscription/fixtures';
import { createContext, runNode, runNodeExpectingError } from '../helpers/executeContext';
import { connectionError, httpError } from '../helpers/serviceAnswers';
import { skipRetryWaits } from '../helpers/retryWaits';
import { SUBJECT_ID } from '../../fixtures/subjects';
import {
	getTransactionParameters as getTransaction,
	payoutParameters as payout,
} from '../../fixtures/transactions';

const waits = skipRetryWaits();

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
		const customData = {};
		const first = await runNodeExpectingError({
			parameters,
			executionId,
			customData,
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
				customData,
				replies: Array(8).fill(service),
			});
			// Item 1 is looked up at FacilitaPay (this service cannot list it): not sent again.
			expect(again.error.message).toMatch(
				/^Outcome unknown \(item 1\): It may have been sent before/,
			);
			expect(again.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
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
		const customData = {};
		const first = await runNodeExpectingError({
			parameters: pix(expiry(60)),
			executionId,
			runIndex: 0,
			customData,
			replies: [connectionError('ECONNRESET')],
		});
		expect(first.requests).toHaveLength(1);
		// n8n runs the node again (same $runIndex); `$now` plus an hour is now a little later.
		const again = await runNodeExpectingError({
			parameters: pix(expiry(61)),
			executionId,
			runIndex: 0,
			customData,
			replies: [{ data: { id: 'second-charge' } }],
		});
		expect(again.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
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
		expect(((output[1].json.body as IDataObject).transaction as IDataObject).meta).toEqual({
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
