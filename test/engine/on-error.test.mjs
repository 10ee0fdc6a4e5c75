// Failing items on n8n's own engine: On Error (continue, error output, stop) as n8n-core applies
// it to the node's items and errors. See docs/testing-engine.md for the error-output defect.
import { TRIGGER_NAME, workflowOf } from './lib/engine.mjs';
import { useEngineSandbox } from './lib/sandbox.mjs';
import { createCustomer, PEOPLE } from './lib/steps.mjs';

const env = useEngineSandbox();

describe('FacilitaPay on n8n-core: a bad CPF among the items', () => {
	/** Two customers pinned on the trigger, as a user pins test data; the second CPF is wrong. */
	const twoCustomers = (step) =>
		workflowOf([step], {
			pinData: {
				[TRIGGER_NAME]: [
					{ json: { cpf: '390.533.447-05', name: 'Maria da Silva' } },
					{ json: { cpf: '231.002.999-00', name: 'João Souza' } },
				],
			},
		});

	test('On Error "Continue": the good customer is created and the bad one becomes an error item', async () => {
		const engine = await env.engine();
		const run = await engine.run(
			twoCustomers(createCustomer('={{ $json.cpf }}', { onError: 'continueRegularOutput' })),
		);

		expect(run.status).toBe('success');
		const items = run.nodes['Create customer'].items;
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({ document_number: '39053344705' });
		expect(items[1].json.error).toMatch(/Invalid Document Number \(item 1\)/);
		expect(items[1].pairedItem).toEqual({ item: 1 });
		const sent = await env.received(PEOPLE);
		expect(sent.map((request) => request.body.person.document_number)).toEqual(['39053344705']);
	});

	// Found by the engine (docs/testing-engine.md): n8n moves an item to the error output only when
	// its json has no keys but error/message/details; the node puts the other fields under details.
	test('On Error "Continue (using error output)": n8n routes the bad customer to the error output, its facts under details', async () => {
		const engine = await env.engine();
		const run = await engine.run(
			twoCustomers(createCustomer('={{ $json.cpf }}', { onError: 'continueErrorOutput' })),
		);

		const [success, failure] = run.nodes['Create customer'].outputs;
		expect(success.map((item) => item.json.document_number)).toEqual(['39053344705']);
		expect(failure).toHaveLength(1);
		expect(failure[0].json.error).toMatch(/Invalid Document Number \(item 1\)/);
		expect(failure[0].json.details).toMatchObject({ description: expect.any(String) });
		expect(failure[0].json).toMatchObject({ cpf: '231.002.999-00', name: 'João Souza' });
		expect(failure[0].pairedItem).toEqual({ item: 1 });
		expect(await env.received(PEOPLE)).toHaveLength(1);
	});

	test('On Error "Stop Workflow": the execution fails with the message n8n shows, and nothing is sent', async () => {
		const engine = await env.engine();
		const run = await engine.run(twoCustomers(createCustomer('={{ $json.cpf }}')));

		expect(run.status).toBe('error');
		expect(run.error.message).toMatch(/Invalid Document Number \(item 1\)/);
		expect(run.nodes['Create customer'].error.message).toBe(run.error.message);
		expect(await env.received(PEOPLE)).toHaveLength(0);
	});
});
