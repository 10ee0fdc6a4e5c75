import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import type { FindSent } from '../../../nodes/FacilitaPay/transport/money';
import { MoneyRun } from '../../../nodes/FacilitaPay/transport/money';
import { SentMemory } from '../../../nodes/FacilitaPay/transport/sentMemory';
import { ProcessedStore } from '../../helpers/fakeExecuteContext';
import { createContext, runNode, runNodeExpectingError } from '../helpers/executeContext';
import { connectionError, httpError } from '../helpers/serviceAnswers';
import { skipRetryWaits } from '../helpers/retryWaits';
import { BRL_NO_PIX_KEY, dynamicPixParameters } from '../../fixtures/transactions';
import { newExecution, newExecutionId, payout, service, valueOf } from './moneyFixtures';

skipRetryWaits();

describe("n8n's Retry button: a retried execution pays nothing twice", () => {
	it('items done before the failure come out as already done and are not sent; the failed and unsent ones are', async () => {
		const store = new ProcessedStore();
		const facilitaPay = service((value, seen) =>
			value === '3.00' && seen === 1
				? httpError(422, { errors: { to_bank_account_id: ['is blocked'] } })
				: { data: { id: `p-${value}` } },
		);
		const parameters = ['1.00', '2.00', '3.00', '4.00'].map((value) => payout(value));
		const failed = await runNodeExpectingError(newExecution(store, facilitaPay, { parameters }));
		expect(failed.error.message).toMatch(/\(item 2\)/);
		expect(failed.error.description).toMatch(
			/Not sent \(the run stopped at the first failure\): 3/,
		);
		expect(failed.error.description).toMatch(/Retrying this execution from n8n/);

		const retried = await runNode(newExecution(store, facilitaPay, { parameters, mode: 'retry' }));
		expect(facilitaPay.sent).toEqual(['1.00', '2.00', '3.00', '3.00', '4.00']);
		expect(retried.output.map((item) => item.json.alreadyDone ?? false)).toEqual([
			true,
			true,
			false,
			false,
		]);
		expect(retried.output[0].json.alreadyDoneNote).toMatch(/already sent it/);
		expect(retried.output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
	});

	it('a PIX charge whose expiry came from the clock is still recognised in the retry', async () => {
		const store = new ProcessedStore();
		const pix = (expiry: string, value: string) =>
			dynamicPixParameters({
				toBankAccountId: BRL_NO_PIX_KEY,
				exchangeCurrency: 'BRL',
				value,
				dynamicPixExpiresAt: expiry,
				requestOptions: { concurrency: 1 },
			});
		const soon = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
		const sent: string[] = [];
		const reply = (request: IHttpRequestOptions) => {
			const value = valueOf(request);
			sent.push(value);
			if (value === '2.00' && sent.length === 2) throw httpError(422, { errors: { value: ['x'] } });
			return { data: { id: `pix-${value}`, dynamic_pix_code: '' } };
		};
		await runNodeExpectingError({
			parameters: [pix(soon(60), '1.00'), pix(soon(60), '2.00')],
			executionId: newExecutionId(),
			processedStore: store,
			replies: Array(5).fill(reply),
		});
		await runNode({
			parameters: [pix(soon(61), '1.00'), pix(soon(61), '2.00')],
			executionId: newExecutionId(),
			mode: 'retry',
			processedStore: store,
			replies: Array(5).fill(reply),
		});
		expect(sent).toEqual(['1.00', '2.00', '2.00']);
	});

	it('a normal new execution of the same items sends them again (only a retry, a key or a tool call dedupes)', async () => {
		const store = new ProcessedStore();
		const facilitaPay = service();
		for (let run = 0; run < 2; run++)
			await runNode(newExecution(store, facilitaPay, { parameters: [payout('5.00')] }));
		expect(facilitaPay.sent).toEqual(['5.00', '5.00']);
	});
});

describe('MoneyRun in a retried execution: unknown outcomes are looked up first', () => {
	const item = (value: string) => ({
		itemIndex: 0,
		request: {
			method: 'POST' as const,
			path: '/transactions',
			body: { transaction: { value } },
			retry: 'sendOnce' as const,
			itemIndex: 0,
		},
	});
	const context = (store: ProcessedStore, mode: string) =>
		createContext({ parameters: {}, executionId: newExecutionId(), mode, processedStore: store })
			.ctx as IExecuteFunctions;

	async function attempted(store: ProcessedStore) {
		const ctx = context(store, 'manual');
		const run = await MoneyRun.begin(ctx, [item('9.00')], { memory: new SentMemory() });
		expect((await run.before(item('9.00'))).kind).toBe('send');
		run.failed(item('9.00'), Object.assign(new Error('reset'), {}));
		await run.finish();
	}

	it.each([
		[{ found: { id: 'tx-9' } }, 'alreadyDone'],
		[{ notFound: true }, 'send'],
	] as const)('the lookup answering %j gives %s', async (answer, kind) => {
		const store = new ProcessedStore();
		// An attempt whose outcome nobody learned: the process died, or the answer never came.
		const ctx = context(store, 'manual');
		const first = await MoneyRun.begin(ctx, [item('9.00')], { memory: new SentMemory() });
		await first.before(item('9.00'));
		await first.finish();

		const lookups: number[] = [];
		const findSent: FindSent = async (_request, sinceMs) => {
			lookups.push(sinceMs);
			return answer;
		};
		const retry = await MoneyRun.begin(context(store, 'retry'), [item('9.00')], {
			findSent,
			memory: new SentMemory(),
		});
		const decision = await retry.before(item('9.00'));
		expect(decision.kind).toBe(kind);
		expect(lookups).toHaveLength(1);
		// From the hour of the first attempt, not from the start of yesterday.
		expect(lookups[0]).toBeLessThanOrEqual(Date.now());
		expect(lookups[0]).toBeGreaterThan(Date.now() - 2 * 60 * 60 * 1000);
		if (decision.kind === 'alreadyDone') expect(decision.json.id).toBe('tx-9');
	});

	it('when FacilitaPay cannot tell, the item fails as an unknown outcome and nothing is sent', async () => {
		const store = new ProcessedStore();
		const ctx = context(store, 'manual');
		const first = await MoneyRun.begin(ctx, [item('9.00')], { memory: new SentMemory() });
		await first.before(item('9.00'));
		await first.finish();
		const retry = await MoneyRun.begin(context(store, 'retry'), [item('9.00')], {
			findSent: async () => ({ cannotTell: 'the subject has no transactions listed' }),
			memory: new SentMemory(),
		});
		await expect(retry.before(item('9.00'))).rejects.toMatchObject({
			message: expect.stringMatching(
				/^Outcome unknown \(item 0\): .*cannot|no transactions listed/,
			),
			context: expect.objectContaining({ outcome: 'unknown' }),
		});
	});

	it('a request that failed clearly is sent in the retry without a lookup', async () => {
		const store = new ProcessedStore();
		const ctx = context(store, 'manual');
		const first = await MoneyRun.begin(ctx, [item('9.00')], { memory: new SentMemory() });
		await first.before(item('9.00'));
		first.failed(item('9.00'), httpError(422, {}));
		await first.finish();
		await attempted(new ProcessedStore());
		let looked = false;
		const retry = await MoneyRun.begin(context(store, 'retry'), [item('9.00')], {
			findSent: async () => {
				looked = true;
				return { notFound: true };
			},
			memory: new SentMemory(),
		});
		expect((await retry.before(item('9.00'))).kind).toBe('send');
		expect(looked).toBe(false);
	});

	it('reads the ledger once for all items of the retry, and writes in few calls', async () => {
		const store = new ProcessedStore();
		const items = Array.from({ length: 200 }, (_, i) => ({ ...item(`${i}.00`), itemIndex: i }));
		const ctx = context(store, 'manual');
		const first = await MoneyRun.begin(ctx, items, { memory: new SentMemory() });
		await Promise.all(
			items.map(async (entry) => {
				await first.before(entry);
				first.sent(entry, { data: { id: entry.itemIndex } });
			}),
		);
		await first.finish();
		expect(store.calls).toBeLessThan(10);
		store.calls = 0;
		await MoneyRun.begin(context(store, 'retry'), items, { memory: new SentMemory() });
		expect(store.calls).toBe(2);
	});
});

describe('Idempotency Key', () => {
	it('a key done in an earlier execution is not sent again; the item says so', async () => {
		const store = new ProcessedStore();
		const facilitaPay = service();
		const parameters = [payout('7.00', { idempotencyKey: 'order-1001' })];
		const first = await runNode(newExecution(store, facilitaPay, { parameters }));
		const second = await runNode(newExecution(store, facilitaPay, { parameters }));
		expect(facilitaPay.sent).toEqual(['7.00']);
		expect(first.output[0].json.id).toBe('p-7.00');
		expect(second.output[0].json).toMatchObject({
			alreadyDone: true,
			idempotencyKey: 'order-1001',
		});
		expect(second.output[0].json.alreadyDoneNote).toMatch(/order-1001.*24 hours/);
	});

	it('a key whose request was refused (4xx) may be sent again', async () => {
		const store = new ProcessedStore();
		const facilitaPay = service((value, seen) =>
			seen === 1 ? httpError(422, { errors: { value: ['too low'] } }) : { data: { id: 'ok' } },
		);
		const parameters = [payout('7.00', { idempotencyKey: 'order-1002' })];
		await runNodeExpectingError(newExecution(store, facilitaPay, { parameters }));
		const second = await runNode(newExecution(store, facilitaPay, { parameters }));
		expect(facilitaPay.sent).toEqual(['7.00', '7.00']);
		expect(second.output[0].json.id).toBe('ok');
	});

	it('a key whose earlier request has no known outcome is not sent again, and the item says the outcome is unknown', async () => {
		const store = new ProcessedStore();
		const facilitaPay = service(() => connectionError('ECONNRESET'));
		const parameters = [payout('7.50', { idempotencyKey: 'order-1003' })];
		await runNodeExpectingError(newExecution(store, facilitaPay, { parameters }));
		const second = await runNodeExpectingError(newExecution(store, facilitaPay, { parameters }));
		expect(facilitaPay.sent).toEqual(['7.50']);
		expect(second.error.message).toMatch(
			/^Outcome unknown \(item 0\): a request with the idempotency key "order-1003"/,
		);
	});

	it('two items of one run with the same key: the second is not sent', async () => {
		const store = new ProcessedStore();
		const facilitaPay = service();
		const { output } = await runNode({
			parameters: [
				payout('8.00', { idempotencyKey: 'same' }),
				payout('8.00', { idempotencyKey: 'same' }),
			],
			executionId: newExecutionId(),
			processedStore: store,
			replies: facilitaPay.replies,
		});
		expect(facilitaPay.sent).toEqual(['8.00']);
		expect(output[1].json.alreadyDone).toBe(true);
	});
});

describe('the node as an AI tool', () => {
	const tool = 'n8n-nodes-facilitapay.facilitaPayTool';

	it('the same payout called twice within the hour is sent once; the second call says already done', async () => {
		const store = new ProcessedStore();
		const facilitaPay = service();
		const calls = [];
		for (let runIndex = 0; runIndex < 2; runIndex++)
			calls.push(
				await runNode({
					parameters: [payout('12.00')],
					executionId: newExecutionId(),
					runIndex,
					nodeType: tool,
					processedStore: store,
					replies: facilitaPay.replies,
				}),
			);
		expect(facilitaPay.sent).toEqual(['12.00']);
		expect(calls[1].output[0].json).toMatchObject({ alreadyDone: true, id: 'p-12.00' });
	});

	it('a Retry On Fail try of a tool call (n8n gives it a new run index) does not send a payout whose outcome is unknown', async () => {
		const store = new ProcessedStore();
		const facilitaPay = service(() => connectionError('ECONNRESET'));
		for (let runIndex = 0; runIndex < 3; runIndex++) {
			const { error } = await runNodeExpectingError({
				parameters: [payout('13.00')],
				executionId: newExecutionId(),
				runIndex,
				nodeType: tool,
				processedStore: store,
				replies: facilitaPay.replies,
			});
			expect(error.message).toMatch(/^Outcome unknown \(item 0\)/);
		}
		expect(facilitaPay.sent).toEqual(['13.00']);
	});

	it('the same call in another process (no shared memory) is not sent again either: the ledger says it was done', async () => {
		const store = new ProcessedStore();
		const facilitaPay = service();
		const call = async (memory: SentMemory) => {
			const fake = createContext({
				parameters: [payout('12.50')],
				executionId: newExecutionId(),
				nodeType: tool,
				processedStore: store,
				replies: facilitaPay.replies,
			});
			const items = [
				{
					itemIndex: 0,
					request: {
						method: 'POST' as const,
						path: '/transactions',
						body: { transaction: { value: '12.50' } },
						retry: 'sendOnce' as const,
						itemIndex: 0,
					},
				},
			];
			const run = await MoneyRun.begin(fake.ctx as IExecuteFunctions, items, {
				memory,
				findSent: async () => ({ found: { id: 'p-12.50' } }),
			});
			const decision = await run.before(items[0]);
			if (decision.kind === 'send') run.sent(items[0], { data: { id: 'p-12.50' } });
			await run.finish();
			return decision;
		};
		expect((await call(new SentMemory())).kind).toBe('send');
		const second = await call(new SentMemory());
		expect(second).toMatchObject({
			kind: 'alreadyDone',
			json: { id: 'p-12.50', alreadyDone: true },
		});
	});

	it('a different payout from the same tool is sent', async () => {
		const store = new ProcessedStore();
		const facilitaPay = service();
		for (const value of ['14.00', '15.00'])
			await runNode({
				parameters: [payout(value)],
				executionId: newExecutionId(),
				nodeType: tool,
				processedStore: store,
				replies: facilitaPay.replies,
			});
		expect(facilitaPay.sent).toEqual(['14.00', '15.00']);
	});
});
