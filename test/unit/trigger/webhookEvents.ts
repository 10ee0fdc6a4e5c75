import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { httpError } from '../helpers/serviceAnswers';
import type { Replier } from './triggerContext';
import { SECRET } from './triggerContext';

/*
 * The notifications and API objects the webhook tests (webhook.*.test.ts) send and read, and how
 * they read what was started. The rules themselves are table-tested in decision.*.test.ts.
 */

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

/** The KYC status payload of an approved person (no secret: it comes unsigned). */
export const kycStatusData = {
	id: 'sub-1',
	status: 'approved',
	document_type: 'cpf',
	document_number: '39053344705',
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

/** Answers GET /notifications with these records (none: a fresh account); nothing else is expected. */
export function records(list: IDataObject[] = [], other?: Replier): Replier {
	return async (request: IHttpRequestOptions) => {
		if (String(request.url).includes('/notifications')) return { data: list };
		if (other) return await other(request);
		throw new Error(`Unexpected request: ${request.method} ${request.url}`);
	};
}
