import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { resetMoney } from '../../../nodes/FacilitaPay/money';
import { payoutParameters } from '../../fixtures/transactions';
import { connectionError, httpError } from '../helpers/serviceAnswers';

// Payouts and a FacilitaPay that keeps them as records with their meta: what the money-rule tests
// share.

/** A payout sent alone (one request at a time), so the order the service sees is the items'. */
export const payout = (value: string, extra: IDataObject = {}) =>
	payoutParameters(value, { requestOptions: { concurrency: 1 }, ...extra });
export const valueOf = (request: IHttpRequestOptions) =>
	((request.body as IDataObject).transaction as IDataObject).value as string;

let counter = 0;
export const newExecutionId = () => `${++counter}${Math.floor(Math.random() * 1e6)}`;

/** What FacilitaPay does with one payout: processes it, processes it and the answer is lost, or refuses it. */
export type Verdict = 'ok' | 'lostAnswer' | Error;

/**
 * A FacilitaPay holding transactions: `POST /transactions` makes a record (keeping `meta`, or not
 * with `meta: 'drop'`) unless `decide` refuses it; `GET /subject/:id/transactions` lists them by
 * `last_id`, 100 a page; `GET /transactions/:id` gives one. `payouts` is every payout body
 * received; `records` what it holds; `reads` every read's path.
 */
export function facilitaPay(
	options: {
		meta?: 'keep' | 'drop';
		decide?: (transaction: IDataObject, attempt: number) => Verdict;
		/** Holds each create's answer until this resolves (two runs sending at once). */
		hold?: () => Promise<void>;
		/** Holds each create before FacilitaPay processes it (both runs' lookups see nothing). */
		holdBefore?: () => Promise<void>;
		/** Answers the list read of this number (1 = the first) with a 500 once. */
		failListRead?: number;
	} = {},
) {
	let metaMode = options.meta ?? 'keep';
	let listReads = 0;
	const records: IDataObject[] = [];
	const payouts: IDataObject[] = [];
	const reads: string[] = [];
	// Another FacilitaPay account (its IDs start at tx-1 again): this process's memory of the last
	// one (the newest record of each list, answers) is not carried over.
	resetMoney();
	const reply = (request: IHttpRequestOptions) => {
		const path = String(request.url).replace(/^.*\/api\/v1/, '');
		const list = /^\/subject\/([^/]+)\/transactions$/.exec(path);
		if (request.method === 'GET' && list) {
			reads.push(path);
			if (++listReads === options.failListRead)
				throw httpError(500, { error: 'internal_server_error' });
			const own = records.filter((record) => record.subject_id === decodeURIComponent(list[1]));
			const lastId = (request.qs as IDataObject | undefined)?.last_id;
			const start = lastId ? own.findIndex((record) => record.id === lastId) + 1 : 0;
			return { data: own.slice(start, start + 100) };
		}
		const one = /^\/transactions\/([^/]+)$/.exec(path);
		if (request.method === 'GET' && one) {
			reads.push(path);
			const record = records.find((candidate) => candidate.id === decodeURIComponent(one[1]));
			if (!record) throw httpError(404, { error: 'not_found' });
			return { data: record };
		}
		if (request.method === 'POST' && path === '/transactions') {
			const transaction = (request.body as IDataObject).transaction as IDataObject;
			payouts.push(transaction);
			if (options.holdBefore)
				return options.holdBefore().then(() => create(transaction, payouts.length));
			return create(transaction, payouts.length);
		}
		throw new Error(`Unexpected request: ${request.method} ${path}`);
	};
	const create = (transaction: IDataObject, attempt: number) => {
		const verdict = options.decide?.(transaction, attempt) ?? 'ok';
		if (verdict instanceof Error) throw verdict;
		const record: IDataObject = {
			...transaction,
			id: `tx-${records.length + 1}`,
			status: 'pending',
			meta: metaMode === 'drop' ? {} : (transaction.meta ?? {}),
		};
		records.push(record);
		if (verdict === 'lostAnswer') throw connectionError('ECONNRESET');
		if (options.hold) return options.hold().then(() => ({ data: record }));
		return { data: record };
	};
	return {
		records,
		payouts,
		reads,
		/** FacilitaPay changes what it does with `meta` from now on. */
		setMeta: (mode: 'keep' | 'drop') => (metaMode = mode),
		/** The values of the payouts received, in order. */
		sent: () => payouts.map((transaction) => String(transaction.value)),
		replies: Array(5000).fill(reply),
	};
}

/** A FacilitaPay that records every payout's value and answers as `answer` says (no records kept). */
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
