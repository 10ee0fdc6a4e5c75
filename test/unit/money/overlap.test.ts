import { sleep } from 'n8n-workflow';

import { resetMoney, sentMemory } from '../../../nodes/FacilitaPay/money';
import { ProcessedStore } from '../../helpers/fakeExecuteContext';
import { runNode, runNodeExpectingError } from '../helpers/executeContext';
import { skipRetryWaits } from '../helpers/retryWaits';
import { httpError } from '../helpers/serviceAnswers';
import { SUBJECT_ID } from '../../fixtures/subjects';
import { facilitaPay, newExecutionId, payout } from './fixtures';

skipRetryWaits();

// Issue 32, "Paid twice": each case as a user plays it, on the node with a FacilitaPay that keeps
// meta and lists a subject's transactions 100 a page.

const OTHER_SUBJECT = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const refused = () => httpError(422, { errors: { value: ['insufficient balance'] } });

/** A gate the service's answers wait on: both runs are sending before either is answered. */
function gate() {
	let open = () => {};
	const opened = new Promise<void>((resolve) => (open = resolve));
	return { open, hold: async () => await opened };
}

describe('Paid twice (issue 32): overlapping runs of one key pay once', () => {
	it.each([
		['a subject with earlier n8n payments', true],
		["a subject's first payment", false],
	])(
		'one Idempotency Key in two executions at once (%s): one payment; the other execution gets its record',
		async (_case, earlier) => {
			const answers = gate();
			const service = facilitaPay({ hold: answers.hold });
			const store = new ProcessedStore();
			if (earlier) {
				answers.open();
				await runNode({
					parameters: [payout('9.00', { idempotencyKey: 'ORDER-8' })],
					executionId: newExecutionId(),
					processedStore: store,
					replies: service.replies,
				});
			}
			const run = () =>
				runNode({
					parameters: [payout('120.00', { idempotencyKey: 'ORDER-9001' })],
					executionId: newExecutionId(),
					processedStore: store,
					replies: service.replies,
				});
			const both = Promise.all([run(), run()]);
			// Let both runs reach FacilitaPay before the first answer.
			for (let turn = 0; turn < 50; turn++) await Promise.resolve();
			answers.open();
			const [first, second] = await both;
			expect(service.sent().filter((value) => value === '120.00')).toHaveLength(1);
			const outputs = [first.output[0].json, second.output[0].json];
			expect(outputs.map((json) => json.id)).toEqual([
				outputs[0].id,
				outputs[0].id, // the same record
			]);
			expect(outputs.filter((json) => json.alreadyDone === true)).toHaveLength(1);
		},
	);
});

describe('Paid twice (issue 32): one key on two queue-mode workers at once', () => {
	/** Two executions of one key on two workers (each its own process memory), started together. */
	const overlap = async (stores: [ProcessedStore, ProcessedStore]) => {
		const processing = gate();
		const service = facilitaPay({ holdBefore: processing.hold });
		const run = (worker: string, processedStore: ProcessedStore) =>
			runNode({
				parameters: [payout('120.00', { idempotencyKey: 'WEBHOOK-77' })],
				executionId: newExecutionId(),
				processedStore,
				worker,
				replies: service.replies,
			}).then(
				({ output }) => output[0].json,
				(error: Error & { description?: string }) => error,
			);
		const both = Promise.all([run('worker-1', stores[0]), run('worker-2', stores[1])]);
		// Let both go as far as they can before FacilitaPay processes anything.
		for (let turn = 0; turn < 100; turn++) await sleep(0);
		processing.open();
		return { service, results: await both };
	};

	it("n8n's store shared by the workers saw the first attempt: the later execution stops before sending", async () => {
		const store = new ProcessedStore();
		const { service, results } = await overlap([store, store]);
		expect(service.sent()).toEqual(['120.00']);
		const stopped = results.find((result) => result instanceof Error) as Error;
		expect(stopped.message).toMatch(/^Outcome unknown \(item 0\): It was sent before/);
	});

	it("both got past n8n's store (its writes are not atomic): each execution ends with an error naming both transactions and how to cancel one, never silently", async () => {
		const { service, results } = await overlap([new ProcessedStore(), new ProcessedStore()]);
		expect(service.sent()).toEqual(['120.00', '120.00']);
		const done: string[] = [];
		for (const error of results as Array<Error & { description?: string }>) {
			const named = error.message.match(
				/^Done \(ID (tx-[12])\) \(item 0\), but 2 payments carry n8n_facilitapay_ref "key:WEBHOOK-77" at FacilitaPay: (tx-[12]) and (tx-[12])\. Two runs sent it at the same time/,
			);
			expect(named).not.toBeNull();
			// Each execution names its own payment first.
			expect(named![2]).toBe(named![1]);
			expect(new Set([named![2], named![3]])).toEqual(new Set(['tx-1', 'tx-2']));
			done.push(named![1]);
			expect(error.description).toMatch(/Transaction > Cancel/);
		}
		expect(done.sort()).toEqual(['tx-1', 'tx-2']);
	});
});

describe('Paid twice (issue 32): a retry settles each item where it was sent', () => {
	it('Subject ID edited, n8n restarted, "Retry with currently saved workflow": the done items are found at the old subject, only the failed one is sent (to the new subject)', async () => {
		const service = facilitaPay({
			decide: (transaction, attempt) =>
				transaction.value === '3.00' && attempt === 3 ? refused() : 'ok',
		});
		const customData = {};
		const values = ['1.00', '2.00', '3.00'];
		await runNodeExpectingError({
			parameters: values.map((value) => payout(value)),
			executionId: newExecutionId(),
			customData,
			processedStore: new ProcessedStore(),
			replies: service.replies,
		});
		resetMoney();
		const retried = await runNode({
			parameters: values.map((value) => payout(value, { subjectId: OTHER_SUBJECT })),
			executionId: newExecutionId(),
			mode: 'retry',
			customData,
			processedStore: new ProcessedStore(),
			replies: service.replies,
		});
		expect(service.sent()).toEqual(['1.00', '2.00', '3.00', '3.00']);
		expect(service.payouts.map((payout) => payout.subject_id)).toEqual([
			expect.not.stringMatching(OTHER_SUBJECT),
			expect.not.stringMatching(OTHER_SUBJECT),
			expect.not.stringMatching(OTHER_SUBJECT),
			OTHER_SUBJECT,
		]);
		expect(retried.output.map((item) => [item.json.alreadyDone ?? false, item.json.id])).toEqual([
			[true, 'tx-1'],
			[true, 'tx-2'],
			[false, 'tx-3'],
		]);
	});

	it('FacilitaPay stops keeping meta: a payout whose answer was lost is not resent on the strength of older records carrying identities', async () => {
		const service = facilitaPay({
			decide: (transaction) => (transaction.value === '2.00' ? 'lostAnswer' : 'ok'),
		});
		// Earlier executions: records carrying identities, made while meta was kept.
		for (const value of ['10.00', '11.00'])
			await runNode({
				parameters: [payout(value)],
				executionId: newExecutionId(),
				replies: service.replies,
			});
		service.setMeta('drop');
		const customData = {};
		await runNodeExpectingError({
			parameters: [payout('2.00')],
			executionId: newExecutionId(),
			customData,
			replies: service.replies,
		});
		resetMoney();
		const { error } = await runNodeExpectingError({
			parameters: [payout('2.00')],
			executionId: newExecutionId(),
			mode: 'retry',
			customData,
			replies: service.replies,
		});
		expect(error.message).toMatch(/^Outcome unknown \(item 0\).*does not prove "not sent"/);
		expect(service.sent()).toEqual(['10.00', '11.00', '2.00']);
	});

	it('Retry On Fail after a lost answer, the process memory gone, reads only what came after the chain began: 3 reads, not the 12 pages of the subject', async () => {
		const service = facilitaPay({
			decide: (transaction) => (transaction.value === '2.00' ? 'lostAnswer' : 'ok'),
		});
		// 1,150 earlier transactions of the subject, carrying other identities.
		for (let i = 0; i < 1150; i++)
			service.records.push({
				id: `old-${i}`,
				subject_id: SUBJECT_ID,
				value: '5.00',
				meta: { n8n_facilitapay_ref: `run:x:y:${i}:n:0:0` },
			});
		// This process knows the subject's newest transaction (it paid it earlier).
		sentMemory.setCursor(`facilitaPayApi\u0000/subject/${SUBJECT_ID}/transactions`, 'old-1149');
		const customData = {};
		const executionId = newExecutionId();
		await runNodeExpectingError({
			parameters: [payout('1.00'), payout('2.00')],
			executionId,
			customData,
			replies: service.replies,
		});
		service.reads.length = 0;
		resetMoney();
		const again = await runNode({
			parameters: [payout('1.00'), payout('2.00')],
			executionId,
			customData,
			replies: service.replies,
		});
		expect(again.output.map((item) => item.json.alreadyDone)).toEqual([true, true]);
		expect(service.sent()).toEqual(['1.00', '2.00']);
		// The point (old-1149) by its ID, the page after it, the empty page that ends it.
		expect(service.reads).toHaveLength(3);
	});
});

describe('Reads bounded (issue 32): a key is looked up in what this process has not read yet', () => {
	it('keyed payouts to a subject with 1,150 earlier transactions: the first reads the list once (13 pages), the next ones only what came since', async () => {
		const service = facilitaPay();
		for (let i = 0; i < 1150; i++)
			service.records.push({
				id: `old-${i}`,
				subject_id: SUBJECT_ID,
				value: '5.00',
				meta: { n8n_facilitapay_ref: `key:OLD-${i}` },
			});
		const pay = async (key: string) =>
			await runNode({
				parameters: [payout('30.00', { idempotencyKey: key })],
				executionId: newExecutionId(),
				processedStore: new ProcessedStore(),
				replies: service.replies,
			});
		await pay('ORDER-1');
		// 12 pages and the empty one that ends the list; after the answer, the re-read that checks
		// no other execution paid the same key (the page with the new record, the empty page).
		expect(service.reads).toHaveLength(15);
		service.reads.length = 0;
		await pay('ORDER-2');
		// The lookup: one empty page after the newest record known (ORDER-1's, from its re-read);
		// the re-read after the answer: the page with ORDER-2's record and the empty page.
		expect(service.reads).toHaveLength(3);
		service.reads.length = 0;
		// A key used long ago (OLD-7) is still found: this process knows the list from its start.
		const old = await pay('OLD-7');
		expect(old.output[0].json).toMatchObject({ alreadyDone: true, id: 'old-7' });
		expect(service.sent()).toEqual(['30.00', '30.00']);
		// What came since (one empty page), and the old record read by its ID; nothing sent.
		expect(service.reads).toEqual([
			expect.stringMatching(/\/transactions$/),
			'/transactions/old-7',
		]);
	});
});
