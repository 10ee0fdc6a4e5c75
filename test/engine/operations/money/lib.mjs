// What the money-rule tests on n8n's engine share: payouts as a user fills them in, and a
// FacilitaPay scripted by route that keeps payouts as records with their meta (a subject's list read
// by `last_id`, 100 a page; one transaction by its ID), as the service does.
import { createRequire } from 'node:module';
import { nodeRequire } from '../../lib/nodeRequire.mjs';
import path from 'node:path';
import { ROOT } from '../../lib/engine.mjs';
import { later, reply, RESET } from '../../lib/operations.mjs';

const require = createRequire(import.meta.url);
const { SUBJECT_ID } = require('../../../fixtures/subjects.js');
const { payoutParameters } = require('../../../fixtures/transactions.js');

export { SUBJECT_ID };
export const OTHER_SUBJECT = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';

export const LIST = 'GET /subject/:id/transactions';
export const ONE = 'GET /transactions/:id';
export const CREATE = 'POST /transactions';

/** The node's process memory as n8n has it loaded (dist/): its `sentMemory`, `instanceName`. */
export const money = () => nodeRequire(path.join(ROOT, 'dist/nodes/FacilitaPay/money/index.js'));

/** A payout sent alone (one request at a time), so the order the service sees is the items'. */
export const payout = (value, extra = {}) => {
	const parameters = payoutParameters(value, { requestOptions: { concurrency: 1 }, ...extra });
	return { ...parameters, subjectId: locator(parameters.subjectId) };
};

/** A resource locator by ID, as the editor saves one. */
export const locator = (value) => ({ __rl: true, mode: 'id', value });

/** FacilitaPay refuses a payout (422). */
export const refused = () => reply(422, { errors: { value: ['insufficient balance'] } });

/**
 * A reply given once `ready()` holds (looked at every few milliseconds), made then by `make()`:
 * what FacilitaPay answers while a test holds it (both runs are sending before either is answered).
 */
export function whenReady(ready, make) {
	const waiting = later(2, null);
	let made;
	let polls = 0;
	Object.defineProperty(waiting, 'then', {
		get: () => {
			// A test that failed elsewhere must not keep the process alive: held 30 s at most.
			if (++polls > 15_000) return reply(599, { error: 'held too long by the test' });
			if (!ready()) return waiting;
			made ??= { value: make() };
			return made.value;
		},
	});
	return waiting;
}

/**
 * A FacilitaPay holding transactions. `decide(transaction, attempt)` says what it does with the
 * n-th payout it receives: 'ok' (a record, answered), 'lostAnswer' (a record, the connection reset
 * before the answer), 'lost' (no record, the connection reset), 'late' (a gateway's 504 at once,
 * after `lateAnswerMs`; the record written `lateCommitMs` later, default 3 s), or a `reply()`
 * (refused).
 * `holdBefore()`: a payout is processed only once it returns true; `holdAnswer()`: its answer waits
 * until it returns true. `failListRead`: the list read of that number (1 = the first) is answered 500.
 *
 * `replies` is the script by route; `payouts` every payout body received, `records` what it holds,
 * `reads` every read's path, `onPayout` callbacks called as each payout arrives.
 */
export function facilitaPay(options = {}) {
	let metaMode = options.meta ?? 'keep';
	let listReads = 0;
	let failListRead = options.failListRead;
	let failedListReads = 0;
	const records = [];
	const payouts = [];
	const reads = [];
	const arrivals = [];
	const late = [];
	const create = (transaction, attempt) => {
		const verdict = options.decide?.(transaction, attempt) ?? 'ok';
		if (verdict === 'lost') return RESET;
		if (verdict === 'late') {
			// A gateway answers 504 (after `lateAnswerMs`); FacilitaPay writes the payout
			// `lateCommitMs` after it arrived.
			late.push(
				new Promise((resolve) =>
					setTimeout(() => {
						records.push({
							...transaction,
							id: `tx-${records.length + 1}`,
							status: 'pending',
							meta: metaMode === 'drop' ? {} : (transaction.meta ?? {}),
						});
						resolve();
					}, options.lateCommitMs ?? 3000),
				),
			);
			return later(
				options.lateAnswerMs ?? 0,
				reply(504, '<html><body><h1>504 Gateway Time-out</h1></body></html>', {
					'content-type': 'text/html',
				}),
			);
		}
		if (verdict !== 'ok' && verdict !== 'lostAnswer') return verdict;
		const record = {
			...transaction,
			id: `tx-${records.length + 1}`,
			status: 'pending',
			meta: metaMode === 'drop' ? {} : (transaction.meta ?? {}),
		};
		records.push(record);
		if (verdict === 'lostAnswer') return RESET;
		if (options.holdAnswer) return whenReady(options.holdAnswer, () => ({ data: record }));
		return { data: record };
	};
	const replies = {
		[LIST]: (request) => {
			reads.push(request.path);
			if (++listReads === failListRead) {
				failedListReads++;
				return reply(500, { error: 'internal_server_error' });
			}
			const own = records.filter((record) => record.subject_id === request.params.id);
			const lastId = request.query.last_id;
			const start = lastId ? own.findIndex((record) => record.id === lastId) + 1 : 0;
			return { data: own.slice(start, start + 100) };
		},
		[ONE]: (request) => {
			reads.push(request.path);
			const record = records.find((candidate) => candidate.id === request.params.id);
			return record ? { data: record } : reply(404, { error: 'not_found' });
		},
		[CREATE]: (request) => {
			const { transaction } = request.body;
			payouts.push(transaction);
			const attempt = payouts.length;
			for (const arrived of arrivals) arrived(transaction);
			if (options.holdBefore)
				return whenReady(options.holdBefore, () => create(transaction, attempt));
			return create(transaction, attempt);
		},
	};
	return {
		records,
		payouts,
		reads,
		replies,
		/** Resolves once every late payout ('late') was written. */
		lateWritten: () => Promise.all(late),
		/** FacilitaPay shows a record canceled (the user canceled it, Transaction > Cancel). */
		cancel: (id) => {
			const record = records.find((candidate) => candidate.id === id);
			record.status = 'canceled';
			record.canceled_reason = 'canceled by the partner';
		},
		/** The n-th list read from now on (1 = the next) is answered 500 once. */
		failListRead: (n) => (failListRead = listReads + n),
		/** How many list reads were answered 500. */
		failedListReads: () => failedListReads,
		/** FacilitaPay changes what it does with `meta` from now on. */
		setMeta: (mode) => (metaMode = mode),
		/** The values of the payouts received, in order. */
		sent: () => payouts.map((transaction) => String(transaction.value)),
		/** Resolves when the next payout arrives (before FacilitaPay processes it). */
		nextPayout: () =>
			new Promise((resolve) => {
				const arrived = (transaction) => {
					arrivals.splice(arrivals.indexOf(arrived), 1);
					resolve(transaction);
				};
				arrivals.push(arrived);
			}),
	};
}

/** `[alreadyDone, id]` of each item out. */
export const doneAndIds = (items) =>
	items.map((item) => [item.json.alreadyDone ?? false, item.json.id]);

/**
 * A tiny node type that sends its items back into FacilitaPay until FacilitaPay has run `times`
 * times in one execution (FacilitaPay's `$runIndex` 0 … times-1), as a user's loop does.
 */
export class LoopNode {
	constructor() {
		this.description = {
			displayName: 'Loop',
			name: 'loop',
			group: ['transform'],
			version: 1,
			description: 'Back into FacilitaPay',
			defaults: { name: 'Loop' },
			inputs: ['main'],
			outputs: ['main', 'main'],
			properties: [{ displayName: 'Times', name: 'times', type: 'number', default: 1 }],
		};
	}

	async execute() {
		const items = this.getInputData();
		const times = this.getNodeParameter('times', 0);
		const { $runIndex } = this.getWorkflowDataProxy(0);
		return $runIndex < times - 1 ? [items, []] : [[], items];
	}
}

/** `op.run({ workflow: loopBack(4) })`: FacilitaPay → Loop → FacilitaPay, 4 runs of FacilitaPay. */
export const loopBack = (times) => (workflow) => ({
	...workflow,
	nodes: [
		...workflow.nodes,
		{
			id: 'loop',
			name: 'Loop',
			type: 'test.loop',
			typeVersion: 1,
			position: [660, 0],
			parameters: { times },
		},
	],
	connections: {
		...workflow.connections,
		FacilitaPay: { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
		Loop: { main: [[{ node: 'FacilitaPay', type: 'main', index: 0 }], []] },
	},
});

/**
 * "Retry" of a failed execution as n8n runs it: a new execution in mode "retry" carrying the
 * failed one's custom data, with `parameters`, against the same FacilitaPay (`extra`: more options
 * of op.run, such as its engine).
 */
export const retry = (op, failed, parameters, service, extra = {}) =>
	op.run({
		...extra,
		parameters,
		mode: 'retry',
		customData: failed.customData,
		replies: service.replies,
	});

/**
 * Two FacilitaPay accounts behind one scripted server, told apart by the Host the credential's
 * Base URL names (127.0.0.1: "sandbox", localhost: "production"): each route goes to the
 * account's own script.
 */
export function byHost(accounts) {
	const routes = new Set(Object.values(accounts).flatMap((replies) => Object.keys(replies)));
	return Object.fromEntries(
		[...routes].map((route) => [
			route,
			(request, index) => {
				const host = String(request.headers.host ?? '').split(':')[0];
				const script = accounts[host]?.[route];
				if (script === undefined) return reply(599, { error: `no account at ${host}` });
				return typeof script === 'function' ? script(request, index) : script;
			},
		]),
	);
}
