import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { payoutParameters } from '../../fixtures/transactions';

// Payouts and a FacilitaPay that counts them: what the money-rule tests share.

/** A payout sent alone (one request at a time), so the order the service sees is the items'. */
export const payout = (value: string, extra: IDataObject = {}) =>
	payoutParameters(value, { requestOptions: { concurrency: 1 }, ...extra });
export const valueOf = (request: IHttpRequestOptions) =>
	((request.body as IDataObject).transaction as IDataObject).value as string;

let counter = 0;
export const newExecutionId = () => `money-exec-${++counter}-${Math.random()}`;

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
