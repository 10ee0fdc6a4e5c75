import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

/** Payouts and a FacilitaPay that counts them: what the money-rule tests share. */
export const SUBJECT_ID = '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c';
export const payout = (value: string, extra: IDataObject = {}) => ({
	resource: 'transaction',
	operation: 'createPayout',
	subjectId: SUBJECT_ID,
	fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000003',
	toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000006',
	currency: 'USD',
	exchangeCurrency: 'BRL',
	value,
	requestOptions: { concurrency: 1 },
	...extra,
});
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
