import type { IDataObject } from 'n8n-workflow';

import {
	ANSWER_WITHIN_MS,
	READS_PER_NOTIFICATION,
	accountOf,
	processLimiter,
} from '../../../nodes/FacilitaPayTrigger/reads';
import { httpError } from '../helpers/serviceAnswers';
import type { Replier } from './triggerContext';
import { credentials, receive } from './triggerContext';
import { NOW } from './webhookClock';
import {
	approvedTransaction,
	item,
	notification,
	paymentApproved,
	transactions,
} from './webhookEvents';

// The trigger's webhook() under load: large events read in parallel but bounded, a hard time bound,
// a sender that stopped waiting, and one 429-aware limiter for the whole process.

describe('webhook: large events are read in parallel, bounded', () => {
	it.each([40, 200])(
		'a wire naming %i transactions: every one read, at most 8 at a time, answered well within 8 s',
		async (count) => {
			const ids = Array.from({ length: count }, (_, n) => `t${n}`);
			const table = Object.fromEntries(
				ids.map((id) => [id, { id, status: 'wired', value: '1.00' }]),
			);
			const pending = receive({
				bodyData: notification({ type: 'wire_created', wire_id: 'w-1', transaction_ids: ids }),
				replies: transactions(table, 50),
			});
			await jest.advanceTimersByTimeAsync(ANSWER_WITHIN_MS);
			const { responseData, response, http } = await pending;
			expect(http.requests).toHaveLength(count);
			expect(http.maxInFlight).toBe(READS_PER_NOTIFICATION);
			const started = item(responseData);
			expect(started.verified).toBe(true);
			expect((started.transactions as IDataObject[]).map((entry) => entry.id)).toEqual(ids);
			// 50 ms a read, 8 at a time.
			expect(response.answeredAt! - NOW.getTime()).toBe(Math.ceil(count / 8) * 50);
		},
	);

	it('a forged wire stops reading at the first transaction FacilitaPay does not know', async () => {
		const ids = Array.from({ length: 200 }, (_, n) => `forged${n}`);
		const { response, http } = await receive({
			bodyData: notification({ type: 'wire_created', wire_id: 'w-1', transaction_ids: ids }),
			replies: transactions({}),
		});
		expect(response.statusCode).toBe(200);
		expect(http.requests.length).toBeLessThanOrEqual(READS_PER_NOTIFICATION);
	});
});

describe('webhook: a hard time bound', () => {
	it('FacilitaPay hanging: answered 503 within 8 s, nothing started', async () => {
		const pending = receive({
			bodyData: paymentApproved,
			replies: async () => await new Promise(() => {}),
		});
		await jest.advanceTimersByTimeAsync(ANSWER_WITHIN_MS);
		const { response, responseData } = await pending;
		expect(response.statusCode).toBe(503);
		expect(response.answeredAt! - NOW.getTime()).toBeLessThanOrEqual(ANSWER_WITHIN_MS);
		expect(responseData.workflowData).toBeUndefined();
	});

	it('429 with Retry-After: 30 on every read: answered 503 within 8 s (the rate-limit waits obey the deadline)', async () => {
		jest.restoreAllMocks(); // real waiting, on the fake clock
		const pending = receive({
			bodyData: paymentApproved,
			replies: () => httpError(429, { error: 'too_many_requests' }, { 'retry-after': '30' }),
		});
		await jest.advanceTimersByTimeAsync(ANSWER_WITHIN_MS);
		const { response, requests } = await pending;
		expect(response.statusCode).toBe(503);
		expect(response.answeredAt! - NOW.getTime()).toBeLessThanOrEqual(ANSWER_WITHIN_MS);
		expect(requests.length).toBeLessThanOrEqual(3);
	});
});

describe('webhook: a sender that stopped waiting', () => {
	it('when the sender gave up while the API was read (n8n was busy), nothing starts: its redelivery will, once', async () => {
		const request = { socket: { destroyed: false } };
		const late = await receive({
			bodyData: paymentApproved,
			request,
			workflowId: 'wf-late',
			replies: () => {
				request.socket.destroyed = true;
				return { data: approvedTransaction };
			},
		});
		expect(late.responseData.workflowData).toBeUndefined();
		expect(late.logger.warn).toHaveBeenCalledWith(expect.stringMatching(/stopped waiting/));
		const redelivered = await receive({
			bodyData: paymentApproved,
			workflowId: 'wf-late',
			replies: [{ data: approvedTransaction }],
		});
		expect(item(redelivered.responseData).verified).toBe(true);
	});

	it('a request whose sender is already gone reads nothing', async () => {
		const { requests, responseData } = await receive({
			bodyData: paymentApproved,
			request: { socket: { destroyed: true } },
		});
		expect(requests).toHaveLength(0);
		expect(responseData.workflowData).toBeUndefined();
	});
});

describe('webhook: one 429-aware limiter for the whole process', () => {
	it("a 429 met by one notification's read pauses the reads of the next notification too", async () => {
		jest.restoreAllMocks();
		const limiter = processLimiter(accountOf(credentials as never));
		let calls = 0;
		const replies: Replier = () => {
			calls += 1;
			return calls === 1
				? httpError(429, { error: 'too_many_requests' }, { 'retry-after': '2' })
				: { data: approvedTransaction };
		};
		const first = receive({ bodyData: paymentApproved, replies });
		await jest.advanceTimersByTimeAsync(10);
		expect(limiter.pauseLeft()).toBeGreaterThan(1_900);
		const secondBody = notification({
			type: 'payment_approved',
			transaction_id: 'tx-1',
			checkout_id: 'co-9',
			n: 2,
		});
		const second = receive({
			bodyData: secondBody,
			replies: () => ({ data: approvedTransaction }),
		});
		await jest.advanceTimersByTimeAsync(1_000);
		expect(await Promise.race([second.then(() => 'answered'), Promise.resolve('waiting')])).toBe(
			'waiting',
		);
		await jest.advanceTimersByTimeAsync(2_000);
		const [a, b] = await Promise.all([first, second]);
		expect(item(a.responseData).verified).toBe(true);
		expect(item(b.responseData).verified).toBe(true);
		expect(b.response.answeredAt! - NOW.getTime()).toBeGreaterThanOrEqual(2_000);
	});
});
