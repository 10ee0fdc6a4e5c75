// Issue 32 in a real n8n 2.x: a workflow that writes its own custom data under the node's key
// (`facilitapay`), here last run's value copied by a Code node, is no origin for the node: the
// payout of this run is paid, not answered "already done" with last run's record.
import { ACCOUNTS } from './lib/operation-phases.mjs';
import { importWorkflows, runWorkflow } from './lib/n8n.mjs';
import { createPerson, postedBodies, samplePerson, sandboxMark } from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e, requirePieces, sharedState } from './lib/state.mjs';
import { actionStep, chainWorkflow, codeStep } from './lib/workflows.mjs';

describeE2e('The node trusts only custom data it wrote itself (real n8n 2.x)', () => {
	let subjectId = '';
	const id = `e2e-money-scope-${Date.now() % 100000}`;
	/** Payout 12.34 after a Code node that writes `value` under facilitapay (when given). */
	const workflow = (value) =>
		chainWorkflow({
			id,
			name: 'e2e money: own custom data',
			steps: [
				codeStep(
					'Set Custom Data',
					`const value = ${JSON.stringify(value)};\nif (value) $execution.customData.set('facilitapay', value);\nreturn [{ json: { value: '12.34' } }];`,
				),
				actionStep('FacilitaPay', {
					resource: 'transaction',
					operation: 'createPayout',
					subjectId,
					value: '={{ $json.value }}',
					currency: 'USD',
					exchangeCurrency: 'BRL',
					fromBankAccountId: ACCOUNTS.usdCashOut,
					toBankAccountId: ACCOUNTS.brlCustomer,
				}),
				codeStep(
					'Capture',
					"return [{ json: { facilitapay: $execution.customData.get('facilitapay') ?? null } }];",
				),
			],
		});

	beforeAll(async () => {
		requirePieces(sharedState(), ['sandbox', 'node']);
		const seed = (Date.now() % 100000) + 41000;
		const person = samplePerson(seed, `Money Scope ${seed}`, { email: null, complete: false });
		subjectId = (await createPerson(person)).id;
	}, CLI_TIMEOUT);

	test(
		"last run's facilitapay value written again by the workflow: this run's payout is paid",
		async () => {
			const mark = await sandboxMark();
			const first = workflow('');
			await importWorkflows(first);
			const october = await runWorkflow(first, { imported: true, nodeName: 'Capture' });
			expect(october.exitCode).toBe(0);
			const value = october.items[0]?.facilitapay;
			expect(value).toMatch(/^v2\|/);

			const copied = workflow(value);
			await importWorkflows(copied);
			const november = await runWorkflow(copied, { imported: true });
			expect(november.exitCode).toBe(0);
			expect(november.items[0]).toMatchObject({ value: '12.34' });
			expect(november.items[0].alreadyDone).toBeUndefined();
			const sent = (await postedBodies(mark, { route: 'POST /api/v1/transactions' })).map(
				(body) => body?.transaction?.value,
			);
			expect(sent).toEqual(['12.34', '12.34']);
		},
		CLI_TIMEOUT,
	);
});
