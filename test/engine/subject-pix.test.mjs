// Subject and Dynamic PIX workflows run by n8n's own engine (n8n-core's WorkflowExecute, in
// process) against the sandbox: parameters as n8n stores them, expressions, resource locators,
// parameter defaults and the deduplication helpers are n8n's, not an imitation.
import { workflowOf } from './lib/engine.mjs';
import { useEngineSandbox } from './lib/sandbox.mjs';
import {
	chargeByPix,
	createCustomer,
	PEOPLE,
	registerBankAccount,
	SUBJECT,
	TRANSACTIONS,
} from './lib/steps.mjs';

const env = useEngineSandbox();

describe('FacilitaPay on n8n-core: Subject > Create, then Transaction > Create Dynamic PIX', () => {
	test('the PIX charge goes to the subject created one node before, through {{ $json.id }} in the Subject locator', async () => {
		const engine = await env.engine();
		const inAnHour = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
		const run = await engine.run(
			workflowOf([createCustomer(), chargeByPix({ dynamicPixExpiresAt: inAnHour })]),
		);

		expect(run.error).toBeUndefined();
		expect(run.status).toBe('success');
		const [customer] = run.nodes['Create customer'].items;
		expect(customer.json).toMatchObject({ document_number: '39053344705', status: 'approved' });
		expect(customer.pairedItem).toEqual({ item: 0 });
		const charges = run.nodes['Charge by PIX'].items;
		expect(charges).toHaveLength(1);
		expect(charges[0].json).toMatchObject({ value: '25.00', currency: 'BRL', status: 'pending' });
		expect(charges[0].pairedItem).toEqual({ item: 0 });

		const [person] = await env.received(PEOPLE);
		expect(person.body.person).toMatchObject({
			document_type: 'cpf',
			document_number: '39053344705',
		});
		const sent = await env.received(TRANSACTIONS);
		expect(sent).toHaveLength(1);
		expect(sent[0].body.transaction).toMatchObject({
			subject_id: customer.json.id,
			value: '25.00',
			use_dynamic_pix: true,
			dynamic_pix_expires_at: inAnHour,
		});
	});

	test('Expires At left out of the workflow JSON: n8n evaluates its default expression, so the QR code expires in one hour', async () => {
		const engine = await env.engine();
		const before = Date.now();
		const run = await engine.run(workflowOf([createCustomer(), chargeByPix()]));

		expect(run.error).toBeUndefined();
		const [sent] = await env.received(TRANSACTIONS);
		const expiresAt = sent.body.transaction.dynamic_pix_expires_at;
		expect(expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
		const ahead = Date.parse(expiresAt) - before;
		expect(ahead).toBeGreaterThan(59 * 60_000);
		expect(ahead).toBeLessThanOrEqual(61 * 60_000);
		expect(run.nodes['Charge by PIX'].items[0].json.status).toBe('pending');
	});
});

describe('FacilitaPay on n8n-core: Preview Only', () => {
	test('nothing is sent; each item shows its request and n8n shows the count above the output', async () => {
		const engine = await env.engine();
		const run = await engine.run(
			workflowOf([
				chargeByPix({ subjectId: { __rl: true, mode: 'id', value: SUBJECT }, previewOnly: true }),
			]),
		);

		expect(run.error).toBeUndefined();
		const [preview] = run.nodes['Charge by PIX'].items;
		expect(preview.json).toMatchObject({ preview: true, method: 'POST', path: '/transactions' });
		expect(preview.json.body.transaction).toMatchObject({ subject_id: SUBJECT, value: '25.00' });
		expect(run.nodes['Charge by PIX'].hints).toEqual([
			expect.objectContaining({ message: expect.stringMatching(/^Preview: 1 .*Nothing was sent/) }),
		]);
		expect(await env.received()).toHaveLength(0);
	});
});

describe('FacilitaPay on n8n-core: the processed-data store', () => {
	test("a request FacilitaPay keeps no findable record of (a customer's bank account) is recorded through n8n-core's checkProcessedAndRecord; the PIX (found again by its meta) and the customer are not", async () => {
		const engine = await env.engine();
		const run = await engine.run(
			workflowOf([createCustomer(), chargeByPix(), registerBankAccount()]),
		);

		expect(run.error).toBeUndefined();
		const rows = Object.fromEntries(engine.store.rows);
		// n8n keys the row by workflow and node ID (scope "node"): node-1 creates, node-2 charges by
		// PIX (its identity travels in meta, docs/money.md), node-3 registers the bank account.
		expect(Object.keys(rows)).toEqual(['engine-workflow|n:node-3']);
		expect(rows['engine-workflow|n:node-3'].mode).toBe('entries');
		expect(rows['engine-workflow|n:node-3'].data.length).toBeGreaterThan(0);
	});
});
