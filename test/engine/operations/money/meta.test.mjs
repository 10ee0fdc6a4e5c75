// The payment's identity in meta on n8n's engine: what each payout carries, the origin in the
// execution's custom data (n8n-core's), a FacilitaPay that drops or refuses meta, the AI tool.
import { reply, resetNodeMemory, useOperations } from '../../lib/operations.mjs';
import { CREATE, facilitaPay, loopBack, LoopNode, money, payout, retry } from './lib.mjs';

const op = useOperations();

describe("The payment's identity travels in meta, beside the user's own", () => {
	it('a payout carries meta.n8n_facilitapay_ref: its origin execution, the node, the run and the item', async () => {
		const service = facilitaPay();
		const engine = await op.engine({ extraNodeTypes: { 'test.loop': new LoopNode() } });
		const { error, items, customData } = await op.run({
			engine,
			parameters: [payout('1.00'), payout('2.00')],
			instanceId: 'instance-a',
			workflow: loopBack(4),
			replies: service.replies,
		});
		expect(error).toBeUndefined();
		// Four runs of the node in one execution ($runIndex 0 … 3), two items each.
		expect(service.sent()).toEqual([
			'1.00',
			'2.00',
			'1.00',
			'2.00',
			'1.00',
			'2.00',
			'1.00',
			'2.00',
		]);
		const [executionId] = customData.facilitapay.split('|').slice(1, 2);
		const prefix = `run:${money().instanceName('instance-a')}:workflow-1:${executionId}:node-1`;
		expect(service.payouts.map((transaction) => transaction.meta)).toEqual(
			[0, 1, 2, 3].flatMap((run) => [
				{ n8n_facilitapay_ref: `${prefix}:${run}:0` },
				{ n8n_facilitapay_ref: `${prefix}:${run}:1` },
			]),
		);
		expect(items.map((item) => item.json.id)).toEqual(['tx-7', 'tx-8']);
	});

	it('with an Idempotency Key the identity is the key', async () => {
		const service = facilitaPay();
		await op.run({
			parameters: [payout('1.00', { idempotencyKey: 'INV-2026-0042' })],
			replies: service.replies,
		});
		expect(service.payouts[0].meta).toEqual({
			n8n_facilitapay_ref: 'key:INV-2026-0042',
			n8n_facilitapay_fp: expect.stringMatching(/^[\w-]{16}$/),
		});
	});

	it('writes the origin in the execution’s custom data, and a full custom data stops the run before anything is sent', async () => {
		const service = facilitaPay();
		const first = await op.run({ parameters: [payout('1.00')], replies: service.replies });
		expect(first.error).toBeUndefined();
		expect(first.customData.facilitapay).toMatch(/^v2\|\d+\|k\|/);

		// The workflow itself used n8n's 10 custom data keys.
		const full = Object.fromEntries(Array.from({ length: 10 }, (_unused, i) => [`user_${i}`, 'x']));
		const { error, requests } = await op.run({
			parameters: [payout('2.00')],
			customData: full,
			replies: service.replies,
		});
		expect(error.message).toMatch(/custom data of this execution is full/);
		expect(requests.filter((request) => request.route === CREATE)).toHaveLength(0);
		expect(service.sent()).toEqual(['1.00']);
	});
});

describe('A FacilitaPay that does not keep meta', () => {
	it('drops it: a retried item of unknown outcome stays "Outcome unknown", never resent', async () => {
		const service = facilitaPay({
			meta: 'drop',
			decide: (transaction) => (transaction.value === '2.00' ? 'lostAnswer' : 'ok'),
		});
		const parameters = [payout('1.00'), payout('2.00')];
		const failed = await op.run({ parameters, replies: service.replies });
		expect(failed.error.message).toMatch(/^Outcome unknown \(item 1\)/);
		// The Retry button, n8n restarted (its process memory and store empty).
		resetNodeMemory();
		const { error, items } = await retry(op, failed, parameters, service);
		expect(error.message).toMatch(/^Outcome unknown \(item 0\).*does not prove "not sent"/);
		expect(items).toHaveLength(0);
		expect(service.sent()).toEqual(['1.00', '2.00']);
	});

	it('refuses it: the user reads that FacilitaPay refused the meta and why the node needs it', async () => {
		const service = facilitaPay({
			decide: () => reply(422, { errors: { 'transaction.meta': ['is not allowed'] } }),
		});
		const { error } = await op.run({ parameters: [payout('1.00')], replies: service.replies });
		expect(`${error.message} ${error.description}`).toMatch(/meta/);
		expect(error.description).toMatch(/FacilitaPay refused the request's meta/);
		expect(service.sent()).toEqual(['1.00']);
	});
});

describe('The node as an AI tool: the model names the payment', () => {
	const tool = (options) =>
		op.run({
			nodeType: 'facilitaPayTool',
			...options,
			parameters: [payout('99.90', options.parameters)],
		});

	it('three monthly charges of 99.90 with three references: three are made', async () => {
		const service = facilitaPay();
		const engine = await op.engine({ extraNodeTypes: { 'test.loop': new LoopNode() } });
		// Three calls in one execution ($runIndex 0, 1, 2), each with the month's reference.
		const { error } = await tool({
			engine,
			parameters: { idempotencyKey: "={{ 'boleto-2026-0' + ($runIndex + 1) }}" },
			workflow: loopBack(3),
			replies: service.replies,
		});
		expect(error).toBeUndefined();
		expect(service.sent()).toEqual(['99.90', '99.90', '99.90']);
		expect(service.payouts.map((transaction) => transaction.meta.n8n_facilitapay_ref)).toEqual([
			'key:boleto-2026-01',
			'key:boleto-2026-02',
			'key:boleto-2026-03',
		]);
	});

	it('the same reference given again (a repeated call, another process, an hour later): paid once', async () => {
		const service = facilitaPay();
		const first = await tool({
			parameters: { idempotencyKey: 'topup-1' },
			replies: service.replies,
		});
		expect(first.items[0].json.id).toBe('tx-1');
		resetNodeMemory();
		const again = await tool({
			parameters: { idempotencyKey: 'topup-1' },
			replies: service.replies,
		});
		expect(service.sent()).toEqual(['99.90']);
		expect(again.items[0].json).toMatchObject({ alreadyDone: true, id: 'tx-1' });
	});

	it('a top-up every 55 minutes with a new reference each time: each is sent', async () => {
		const service = facilitaPay();
		const engine = await op.engine();
		for (let call = 0; call < 4; call++)
			await tool({
				engine,
				parameters: { idempotencyKey: `topup-${call}` },
				replies: service.replies,
			});
		expect(service.sent()).toHaveLength(4);
	});
});
