import type { IDataObject } from 'n8n-workflow';

import { httpError } from '../helpers/serviceAnswers';
import { receive, registeredStaticData } from './triggerContext';
import { NOW } from './webhookClock';
import { approvedTransaction, item, notification, paymentApproved } from './webhookEvents';

// The trigger's webhook() and duplicate notifications (Drop Duplicates, overlapping deliveries).

describe('webhook: duplicates', () => {
	const on = { options: { dropDuplicates: true } };

	it('an identical notification arriving while the first is checked starts nothing and is asked again later; once started, it is a duplicate', async () => {
		const staticData = registeredStaticData();
		let answerFirst: (value: unknown) => void = () => {};
		const first = receive({
			parameters: on,
			bodyData: paymentApproved,
			staticData,
			workflowId: 'wf-overlap',
			replies: async () => await new Promise((resolve) => (answerFirst = resolve)),
		});
		await jest.advanceTimersByTimeAsync(1);
		const overlapping = await receive({
			parameters: on,
			bodyData: paymentApproved,
			staticData: registeredStaticData(),
			workflowId: 'wf-overlap',
		});
		expect(overlapping.response.statusCode).toBe(503);
		expect(overlapping.requests).toHaveLength(0);
		expect(overlapping.responseData.workflowData).toBeUndefined();

		answerFirst({ data: approvedTransaction });
		expect(item((await first).responseData).verified).toBe(true);
		const later = await receive({
			parameters: on,
			bodyData: paymentApproved,
			staticData,
			workflowId: 'wf-overlap',
		});
		expect(later.response).toMatchObject({
			statusCode: 200,
			body: { message: 'Received' },
		});
		expect(later.requests).toHaveLength(0);
	});

	it('the same wire corrected twice (AC03, then AC14) is two events', async () => {
		const staticData = registeredStaticData();
		const correction = (code: string) =>
			notification({
				type: 'wire_waiting_correction',
				wire_id: 'w-1',
				transaction_ids: ['tx-1'],
				error_code: code,
				error_description: code,
				bank_account_owner_id: 'p-1',
				bank_account_id: 'ba-1',
			});
		const wired = { data: { id: 'tx-1', status: 'exchanged' } };
		for (const code of ['AC03', 'AC14']) {
			const { responseData } = await receive({
				parameters: on,
				bodyData: correction(code),
				staticData,
				replies: [wired],
			});
			expect(item(responseData).error_code).toBe(code);
		}
	});

	it('a notification not started (FacilitaPay down) is not remembered: its redelivery starts', async () => {
		const staticData = registeredStaticData();
		await receive({
			parameters: on,
			bodyData: paymentApproved,
			staticData,
			replies: [httpError(503, ''), httpError(503, '')],
		});
		const again = await receive({
			parameters: on,
			bodyData: paymentApproved,
			staticData,
			replies: [{ data: approvedTransaction }],
		});
		expect(item(again.responseData).verified).toBe(true);
	});

	it('during a burst the static data is written at most every 2 s (n8n saves it to its database after each call that changes it); the next call catches up', async () => {
		const staticData = registeredStaticData();
		const event = (n: number) => notification({ type: 'subject_approved', subject_id: `p-${n}` });
		const approved = (n: number) => () => ({
			data: { id: `p-${n}`, status: 'approved', updated_at: '2025-06-02T10:00:00' },
		});
		await receive({
			parameters: on,
			bodyData: event(1),
			staticData,
			workflowId: 'wf-save',
			replies: approved(1),
		});
		expect(Object.keys(staticData.emittedEvents as IDataObject)).toHaveLength(1);
		jest.setSystemTime(NOW.getTime() + 500);
		await receive({
			parameters: on,
			bodyData: event(2),
			staticData,
			workflowId: 'wf-save',
			replies: approved(2),
		});
		expect(Object.keys(staticData.emittedEvents as IDataObject)).toHaveLength(1);
		// Dropped all the same: the process remembers it (the subject unchanged since).
		const again = await receive({
			parameters: on,
			bodyData: event(2),
			staticData,
			workflowId: 'wf-save',
			replies: approved(2),
		});
		expect(again.response.body).toEqual({ message: 'Received' });
		expect(again.responseData.workflowData).toBeUndefined();
		jest.setSystemTime(NOW.getTime() + 2_500);
		await receive({
			bodyData: { notification: 'not an object' },
			staticData,
			workflowId: 'wf-save',
		});
		expect(Object.keys(staticData.emittedEvents as IDataObject)).toHaveLength(2);
	});

	it('memory stays bounded: at most 1000 events are remembered', async () => {
		const { rememberEmitted, DUPLICATES_KEPT } = await import(
			'../../../nodes/FacilitaPayTrigger/duplicates'
		);
		const staticData: IDataObject = {};
		for (let n = 0; n < 1500; n++) rememberEmitted(staticData, `key-${n}`, NOW.getTime() + n * 10);
		expect(Object.keys(staticData.emittedEvents as IDataObject)).toHaveLength(DUPLICATES_KEPT);
	});
});
