import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { defaultRetryOptions } from '../../../nodes/FacilitaPay/transport';
import { clearDuplicateMemory } from '../../../nodes/FacilitaPayTrigger/duplicates';
import { clearGuessMemory } from '../../../nodes/FacilitaPayTrigger/guessing';
import { clearProcessLimiters } from '../../../nodes/FacilitaPayTrigger/reads';
import { httpError } from '../helpers/executeContext';
import type { Replier } from './triggerContext';
import { SECRET } from './triggerContext';

/*
 * What the webhook tests (webhook.*.test.ts) share: the webhook as n8n calls it, on a fake clock,
 * each test with fresh process memories (guesses, duplicates, limiters). The rules themselves are
 * table-tested in decision.*.test.ts.
 */

export const NOW = new Date('2025-06-02T10:30:00.000Z');

/** For every test of the calling file: the fake clock at NOW, no retry waits, fresh memories. */
export function onFakeClockWithFreshMemory() {
	beforeEach(() => {
		jest.useFakeTimers({
			now: NOW,
			doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'],
		});
		jest.spyOn(defaultRetryOptions, 'wait').mockImplementation(async () => {});
		clearGuessMemory();
		clearDuplicateMemory();
		clearProcessLimiters();
	});
	afterEach(() => {
		jest.useRealTimers();
		jest.restoreAllMocks();
	});
}

export function notification(fields: IDataObject): IDataObject {
	return { notification: { secret: SECRET, ...fields } };
}

export const paymentApproved = notification({
	type: 'payment_approved',
	transaction_id: 'tx-1',
	checkout_id: 'co-9',
});
export const approvedTransaction = {
	id: 'tx-1',
	status: 'identified',
	value: '150.00',
	currency: 'BRL',
	checkout_id: 'co-9',
};

/** The item that came out, or a failure when no execution started. */
export function item(responseData: {
	workflowData?: Array<Array<{ json: IDataObject }>>;
}): IDataObject {
	expect(responseData.workflowData).toHaveLength(1);
	expect(responseData.workflowData?.[0]).toHaveLength(1);
	return responseData.workflowData![0][0].json;
}

/** Answers GET /transactions/:id from a table (404 for the rest), after `delayMs` of fake time. */
export function transactions(table: Record<string, IDataObject>, delayMs = 0): Replier {
	return async (request: IHttpRequestOptions) => {
		if (delayMs > 0) await sleep(delayMs);
		const id = String(request.url).split('/transactions/')[1];
		return table[id] ? { data: table[id] } : httpError(404, { error: 'not_found' });
	};
}
