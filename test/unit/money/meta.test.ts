import type { IDataObject } from 'n8n-workflow';

import { instanceName, resetMoney } from '../../../nodes/FacilitaPay/money';
import { ProcessedStore } from '../../helpers/fakeExecuteContext';
import { FacilitaPay } from '../../../nodes/FacilitaPay/FacilitaPay.node';
import type { ContextOptions } from '../helpers/executeContext';
import { createContext, runNode, runNodeExpectingError } from '../helpers/executeContext';
import { skipRetryWaits } from '../helpers/retryWaits';
import { httpError } from '../helpers/serviceAnswers';
import { facilitaPay, newExecutionId, payout } from './fixtures';

skipRetryWaits();

describe("The payment's identity travels in meta, beside the user's own", () => {
	it('a payout carries meta.n8n_facilitapay_ref: its origin execution, the node, the run and the item', async () => {
		const service = facilitaPay();
		const executionId = newExecutionId();
		await runNode({
			parameters: [payout('1.00'), payout('2.00')],
			executionId,
			runIndex: 3,
			replies: service.replies,
		});
		expect(service.payouts.map((transaction) => transaction.meta)).toEqual([
			{
				n8n_facilitapay_ref: `run:${instanceName('instance-a')}:workflow-1:${executionId}:node-1:3:0`,
			},
			{
				n8n_facilitapay_ref: `run:${instanceName('instance-a')}:workflow-1:${executionId}:node-1:3:1`,
			},
		]);
	});

	it('with an Idempotency Key the identity is the key', async () => {
		const service = facilitaPay();
		await runNode({
			parameters: [payout('1.00', { idempotencyKey: 'INV-2026-0042' })],
			executionId: newExecutionId(),
			replies: service.replies,
		});
		expect(service.payouts[0].meta).toEqual({
			n8n_facilitapay_ref: 'key:INV-2026-0042',
			n8n_facilitapay_fp: expect.stringMatching(/^[\w-]{16}$/),
		});
	});

	it('writes the origin in the execution’s custom data, and a full custom data stops the run before anything is sent', async () => {
		const service = facilitaPay();
		const customData: Record<string, string> = {};
		const executionId = newExecutionId();
		await runNode({
			parameters: [payout('1.00')],
			executionId,
			customData,
			replies: service.replies,
		});
		expect(customData.facilitapay).toMatch(new RegExp(`^v2\\|${executionId}\\|k\\|`));

		const full = Object.fromEntries(Array.from({ length: 10 }, (_unused, i) => [`user_${i}`, 'x']));
		const { error } = await runNodeExpectingError({
			parameters: [payout('2.00')],
			executionId: newExecutionId(),
			customData: full,
			replies: service.replies,
		});
		expect(error.message).toMatch(/custom data of this execution is full/);
		expect(service.sent()).toEqual(['1.00']);
	});
});

describe('n8n 1.x: custom data only through $execution.customData', () => {
	/** A context whose custom data, like n8n 1.123.81's, is only on the expression proxy. */
	const run = async (options: ContextOptions, data: Record<string, string>) => {
		const { ctx } = createContext(options);
		const store = {
			get: (key: string) => data[key],
			set: (key: string, value: string) => (data[key] = value),
		};
		Object.assign(ctx, {
			customData: undefined,
			getWorkflowDataProxy: () => ({ $runIndex: 0, $execution: { customData: store } }),
		});
		return await new FacilitaPay().execute.call(ctx).then(
			([output]) => output,
			(error: Error) => error,
		);
	};

	it('the retry reads the origin there and pays nothing twice', async () => {
		const service = facilitaPay({
			decide: (transaction) => (transaction.value === '2.00' ? 'lostAnswer' : 'ok'),
		});
		const data: Record<string, string> = {};
		const parameters = [payout('1.00'), payout('2.00')];
		const failed = await run(
			{ parameters, executionId: newExecutionId(), replies: service.replies },
			data,
		);
		expect((failed as Error).message).toMatch(/^Outcome unknown \(item 1\)/);
		resetMoney();
		const retried = await run(
			{ parameters, executionId: newExecutionId(), mode: 'retry', replies: service.replies },
			data,
		);
		expect(service.sent()).toEqual(['1.00', '2.00']);
		expect(Array.isArray(retried) && retried.map((item) => item.json.id)).toEqual(['tx-1', 'tx-2']);
	});
});

describe('A FacilitaPay that does not keep meta', () => {
	it('drops it: a retried item of unknown outcome stays "Outcome unknown", never resent', async () => {
		const service = facilitaPay({
			meta: 'drop',
			decide: (transaction) => (transaction.value === '2.00' ? 'lostAnswer' : 'ok'),
		});
		const customData = {};
		const parameters = [payout('1.00'), payout('2.00')];
		await runNodeExpectingError({
			parameters,
			executionId: newExecutionId(),
			customData,
			processedStore: new ProcessedStore(),
			replies: service.replies,
		});
		resetMoney();
		const { error } = await runNodeExpectingError({
			parameters,
			executionId: newExecutionId(),
			mode: 'retry',
			customData,
			processedStore: new ProcessedStore(),
			replies: service.replies,
		});
		expect(error.message).toMatch(/^Outcome unknown \(item 0\).*does not prove "not sent"/);
		expect(service.sent()).toEqual(['1.00', '2.00']);
	});

	it('refuses it: the user reads that FacilitaPay refused the meta and why the node needs it', async () => {
		const service = facilitaPay({
			decide: () => httpError(422, { errors: { 'transaction.meta': ['is not allowed'] } }),
		});
		const { error } = await runNodeExpectingError({
			parameters: [payout('1.00')],
			executionId: newExecutionId(),
			replies: service.replies,
		});
		expect(`${error.message} ${error.description}`).toMatch(/meta/);
		expect(error.description).toMatch(/FacilitaPay refused the request's meta/);
	});
});

describe('The node as an AI tool: the model names the payment', () => {
	const tool = (
		runIndex: number,
		key: string,
		service: { replies: unknown[] },
		executionId: string,
	) =>
		runNode({
			parameters: [payout('99.90', { idempotencyKey: key }) as IDataObject],
			executionId,
			runIndex,
			nodeType: 'n8n-nodes-facilitapay.facilitaPayTool',
			replies: service.replies,
		});

	it('three monthly charges of 99.90 with three references: three are made', async () => {
		const service = facilitaPay();
		const executionId = newExecutionId();
		const prefix = newExecutionId();
		for (let month = 1; month <= 3; month++)
			await tool(month, `${prefix}-boleto-2026-0${month}`, service, executionId);
		expect(service.sent()).toEqual(['99.90', '99.90', '99.90']);
	});

	it('the same reference given again (a repeated call, another process, an hour later): paid once', async () => {
		const service = facilitaPay();
		const key = `topup-${newExecutionId()}`;
		await tool(0, key, service, newExecutionId());
		resetMoney();
		const again = await tool(1, key, service, newExecutionId());
		expect(service.sent()).toEqual(['99.90']);
		expect(again.output[0].json).toMatchObject({ alreadyDone: true, id: 'tx-1' });
	});

	it('a top-up every 55 minutes with a new reference each time: each is sent', async () => {
		const service = facilitaPay();
		const executionId = newExecutionId();
		for (let call = 0; call < 4; call++)
			await tool(call, `topup-${newExecutionId()}`, service, executionId);
		expect(service.sent()).toHaveLength(4);
	});
});
