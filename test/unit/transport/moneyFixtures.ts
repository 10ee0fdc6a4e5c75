import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import type { ProcessedStore } from '../../helpers/fakeExecuteContext';
import { payoutParameters } from '../../fixtures/transactions';
import type { ContextOptions } from '../helpers/executeContext';

// Payouts and a FacilitaPay that counts them: what the money-rule tests share.

/** A payout sent alone (one request at a time), so the order the service sees is the items'. */
export const payout = (value: string, extra: IDataObject = {}) =>
	payoutParameters(value, { requestOptions: { concurrency: 1 }, ...extra });
export const valueOf = (request: IHttpRequestOptions) =>
	((request.body as IDataObject).transaction as IDataObject).value as string;

let counter = 0;
export const newExecutionId = () => `money-exec-${++counter}-${Math.random()}`;

/**
 * The context of a new execution (its own id) of a workflow that shares n8n's deduplication store
 * `store` with its other executions, against the FacilitaPay `facilitaPay`.
 */
export const newExecution = (
	store: ProcessedStore,
	facilitaPay: { replies: unknown[] },
	options: ContextOptions,
): ContextOptions => ({
	executionId: newExecutionId(),
	processedStore: store,
	replies: facilitaPay.replies,
	...options,
});

/** A FacilitaPay that records every payout it receives and answers as `answer` says. */
export function service(
	answer: (value: string, seen: number) => unknown = (value) => ({ data: { id: `p-${value}` } }),
) {
	const sent: string[] = [];
	const reply = (request: IHttpRequestOptions) => {
		const value = valueOf(request);
		sent.push(value);
		const result = answer(value, sent.filter((v) => v === value).length);
		if (result instanceof Error) throw result;
		return result;
	};
	return { sent, replies: Array(40).fill(reply) };
}
