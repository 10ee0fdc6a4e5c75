import type { IDataObject } from 'n8n-workflow';

import { clearGuessMemory } from '../../../nodes/FacilitaPayTrigger/guessing';
import { SECRET, receive, registeredStaticData } from './triggerContext';
import { NOW } from './webhookClock';
import { approvedTransaction, item, notification, paymentApproved } from './webhookEvents';

// The trigger's webhook() and the guessing lock: 20 wrong secrets in 10 minutes lock it.

describe('webhook: the guessing lock (20 wrong secrets in 10 minutes)', () => {
	const wrong = (n: number) =>
		notification({ type: 'identified', transaction_id: 'tx-1', secret: String(1000 + n) });

	async function guess(times: number, staticData: IDataObject, workflowId: string) {
		const statuses: number[] = [];
		for (let n = 0; n < times; n++) {
			statuses.push(
				(await receive({ bodyData: wrong(n), staticData, workflowId })).response.statusCode!,
			);
		}
		return statuses;
	}

	it('19 wrong secrets get 401, the 20th starts the lock (503) and is logged once', async () => {
		const staticData = registeredStaticData();
		const statuses = await guess(19, staticData, 'wf-lock');
		expect(statuses).toEqual(Array(19).fill(401));
		const { response, logger } = await receive({
			bodyData: wrong(99),
			staticData,
			workflowId: 'wf-lock',
		});
		expect(response.statusCode).toBe(503);
		expect(logger.warn).toHaveBeenCalledTimes(1);
		const after = await receive({ bodyData: wrong(100), staticData, workflowId: 'wf-lock' });
		expect(after.logger.warn).not.toHaveBeenCalled();
	});

	it('while locked, a right and a wrong secret get the same status and body for every kind of event, with no API call', async () => {
		const staticData = registeredStaticData();
		await guess(20, staticData, 'wf-oracle');
		const wire = {
			type: 'wire_created',
			wire_id: 'w',
			transaction_ids: Array.from({ length: 30 }, (_, n) => `t${n}`),
		};
		const bodies = [
			wire,
			{ type: 'payment_approved', transaction_id: 'tx-1' },
			{ type: 'non_identified_bank_transaction', bank_transaction: { id: 'b' } },
			{ type: 'subject_approved', subject_id: 'c-1' },
		];
		for (const fields of bodies) {
			const answers = [];
			for (const secret of [SECRET, '9999']) {
				const { response, requests, responseData } = await receive({
					bodyData: notification({ ...fields, secret }),
					staticData,
					workflowId: 'wf-oracle',
					replies: () => ({ data: approvedTransaction }),
				});
				expect(requests).toHaveLength(0);
				expect(responseData.workflowData).toBeUndefined();
				answers.push({ status: response.statusCode, body: response.body });
			}
			expect(answers[0]).toEqual(answers[1]);
			expect(answers[0]).toEqual({
				status: 503,
				body: { message: 'Not accepted now; send the notification again later' },
			});
		}
	});

	it('the lock ends when the window passes, and survives a restart through the static data', async () => {
		const staticData = registeredStaticData();
		await guess(20, staticData, 'wf-end');
		clearGuessMemory();
		const body = notification({
			type: 'non_identified_bank_transaction',
			bank_transaction: { id: 'b' },
		});
		expect(
			(await receive({ bodyData: body, staticData, workflowId: 'wf-end' })).response.statusCode,
		).toBe(503);
		jest.setSystemTime(NOW.getTime() + 10 * 60 * 1000 + 1);
		expect(
			item((await receive({ bodyData: body, staticData, workflowId: 'wf-end' })).responseData)
				.verified,
		).toBe(false);
	});

	it('parallel requests that each read the static data before any was saved still count (process memory)', async () => {
		const pristine = registeredStaticData();
		for (let n = 0; n < 20; n++) {
			await receive({ bodyData: wrong(n), staticData: { ...pristine }, workflowId: 'wf-parallel' });
		}
		const { response } = await receive({
			bodyData: paymentApproved,
			staticData: { ...pristine },
			workflowId: 'wf-parallel',
		});
		expect(response.statusCode).toBe(503);
	});
});
