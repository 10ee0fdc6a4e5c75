import { sleep } from 'n8n-workflow';

import { ANSWER_WITHIN_MS, READS_WITHIN_MS } from '../../../nodes/FacilitaPayTrigger/reads';
import { receive } from './triggerContext';
import { NOW } from './webhookClock';
import {
	approvedTransaction,
	item,
	kycStatusData,
	notification,
	paymentApproved,
	transactions,
} from './webhookEvents';

// A notification FacilitaPay's API could not confirm before the answer was due is answered 503 and
// sent again; what its reads brought back after the answer is kept for exactly that redelivery.

const slowTable = { 'tx-1': approvedTransaction };

describe('webhook: the reads of a notification answered 503 serve its redelivery', () => {
	it('the API answers after the deadline: 503 first, then the redelivery starts the workflow without reading again', async () => {
		const first = receive({
			bodyData: paymentApproved,
			workflowId: 'wf-kept',
			replies: transactions(slowTable, 9_000),
		});
		await jest.advanceTimersByTimeAsync(ANSWER_WITHIN_MS);
		const answered = await first;
		expect(answered.response.statusCode).toBe(503);
		expect(answered.responseData.workflowData).toBeUndefined();
		await jest.advanceTimersByTimeAsync(9_000 - ANSWER_WITHIN_MS);

		const redelivered = await receive({ bodyData: paymentApproved, workflowId: 'wf-kept' });
		expect(redelivered.requests).toHaveLength(0);
		expect(item(redelivered.responseData)).toMatchObject({
			verified: true,
			transaction: { id: 'tx-1', status: 'identified' },
		});
		expect(answered.requests).toHaveLength(1);
	});

	it('a redelivery arriving while the first reads are still under way waits for them', async () => {
		const first = receive({
			bodyData: paymentApproved,
			workflowId: 'wf-waits',
			replies: transactions(slowTable, READS_WITHIN_MS * 2),
		});
		await jest.advanceTimersByTimeAsync(READS_WITHIN_MS + 1_000);
		expect((await first).response.statusCode).toBe(503);
		const second = receive({ bodyData: paymentApproved, workflowId: 'wf-waits' });
		await jest.advanceTimersByTimeAsync(READS_WITHIN_MS);
		const redelivered = await second;
		expect(redelivered.requests).toHaveLength(0);
		expect(item(redelivered.responseData).verified).toBe(true);
		// Answered when the first delivery's read came back.
		expect(redelivered.response.answeredAt! - NOW.getTime()).toBe(READS_WITHIN_MS * 2);
	});

	it('what was kept is used once: a later identical delivery reads again', async () => {
		const first = receive({
			bodyData: paymentApproved,
			workflowId: 'wf-once',
			replies: transactions(slowTable, 9_000),
		});
		await jest.advanceTimersByTimeAsync(10_000);
		expect((await first).response.statusCode).toBe(503);
		const second = await receive({ bodyData: paymentApproved, workflowId: 'wf-once' });
		expect(item(second.responseData).verified).toBe(true);
		const third = await receive({
			bodyData: paymentApproved,
			workflowId: 'wf-once',
			replies: transactions(slowTable),
		});
		expect(third.requests).toHaveLength(1);
		expect(item(third.responseData).verified).toBe(true);
	});

	it('an earlier read that showed the payment still pending is read again for the redelivery', async () => {
		const identified = notification({ type: 'identified', transaction_id: 'tx-1' });
		const first = receive({
			bodyData: identified,
			workflowId: 'wf-pending',
			replies: transactions({ 'tx-1': { ...approvedTransaction, status: 'pending' } }, 9_000),
		});
		await jest.advanceTimersByTimeAsync(10_000);
		expect((await first).response.statusCode).toBe(503);
		const redelivered = await receive({
			bodyData: identified,
			workflowId: 'wf-pending',
			replies: transactions(slowTable),
		});
		expect(redelivered.requests).toHaveLength(1);
		expect(item(redelivered.responseData)).toMatchObject({
			verified: true,
			transaction: { status: 'identified' },
		});
	});

	it('kept reads belong to one notification: another event of the same payment reads for itself', async () => {
		const first = receive({
			bodyData: paymentApproved,
			workflowId: 'wf-other',
			replies: transactions(slowTable, 9_000),
		});
		await jest.advanceTimersByTimeAsync(10_000);
		expect((await first).response.statusCode).toBe(503);
		const refunded = notification({ type: 'payment_refunded', transaction_id: 'tx-1' });
		const other = await receive({
			bodyData: refunded,
			workflowId: 'wf-other',
			replies: transactions(slowTable),
		});
		expect(other.requests).toHaveLength(1);
	});

	it('a payment FacilitaPay does not know, read after the answer, is read again on redelivery (nothing is kept)', async () => {
		const first = receive({
			bodyData: paymentApproved,
			workflowId: 'wf-absent',
			replies: transactions({}, 9_000),
		});
		await jest.advanceTimersByTimeAsync(10_000);
		expect((await first).response.statusCode).toBe(503);
		const redelivered = await receive({
			bodyData: paymentApproved,
			workflowId: 'wf-absent',
			replies: transactions({}),
		});
		expect(redelivered.requests).toHaveLength(1);
		expect(redelivered.responseData.workflowData).toBeUndefined();
	});

	it('an unsigned KYC status payload keeps nothing: anyone can send one', async () => {
		const kyc = { data: { ...kycStatusData } };
		const subjects = async () => {
			await sleep(9_000);
			return { data: { ...kycStatusData, updated_at: '2025-06-02T10:00:00Z' } };
		};
		const parameters = { options: { acceptUnsignedKycStatus: true } };
		const first = receive({ bodyData: kyc, workflowId: 'wf-kyc', parameters, replies: subjects });
		await jest.advanceTimersByTimeAsync(10_000);
		expect((await first).response.statusCode).toBe(503);
		const again = receive({ bodyData: kyc, workflowId: 'wf-kyc', parameters, replies: subjects });
		await jest.advanceTimersByTimeAsync(10_000);
		expect((await again).requests).toHaveLength(1);
	});
});

describe('webhook: a burst larger than the API lets through in time', () => {
	const COUNT = 200;
	const ids = Array.from({ length: COUNT }, (_, n) => `tx-${n}`);
	const table = Object.fromEntries(ids.map((id) => [id, { ...approvedTransaction, id }]));
	const bodies = ids.map((id) => notification({ type: 'payment_approved', transaction_id: id }));

	it('200 payments, each read answered after 1 s: those the queue cannot reach in time are answered at once, and every payment is read once in all', async () => {
		const replies = transactions(table, 1_000);
		const firsts = bodies.map((bodyData) => receive({ bodyData, workflowId: 'wf-burst', replies }));
		await jest.advanceTimersByTimeAsync(ANSWER_WITHIN_MS);
		const answers = await Promise.all(firsts);
		const started = answers.filter((answer) => answer.responseData.workflowData !== undefined);
		const later = answers.filter((answer) => answer.response.statusCode === 503);
		expect(started.length + later.length).toBe(COUNT);
		expect(started.length).toBeGreaterThan(50);
		// The last payments are answered as soon as the pace of the reads shows they cannot be
		// reached, not held until the deadline.
		const last = answers[COUNT - 1].response;
		expect(last.statusCode).toBe(503);
		expect(last.answeredAt! - NOW.getTime()).toBeLessThanOrEqual(2_000);

		// Everything the queue holds is read by now; the redeliveries read nothing.
		await jest.advanceTimersByTimeAsync(COUNT * 1_000);
		const redelivered = await Promise.all(
			answers.flatMap((answer, index) =>
				answer.response.statusCode === 503
					? [receive({ bodyData: bodies[index], workflowId: 'wf-burst', replies })]
					: [],
			),
		);
		for (const again of redelivered) {
			expect(again.requests).toHaveLength(0);
			expect(item(again.responseData).verified).toBe(true);
		}
		const reads = answers.reduce((sum, answer) => sum + answer.requests.length, 0);
		expect(reads).toBe(COUNT);
	});
});
