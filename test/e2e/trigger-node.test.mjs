// The FacilitaPay Trigger in a real n8n 2.x: activating the workflow registers n8n's webhook URL
// with the sandbox (POST /enable_webhooks), and a notification the sandbox sends starts it.
import {
	CLI_TIMEOUT,
	activateWorkflow,
	createWorkflowViaApi,
	describeE2e,
	listExecutions,
	nodeOutput,
	requirePieces,
	sandboxControl,
	sandboxMark,
	sandboxRequests,
	sharedState,
	waitFor,
	workflowWithTrigger,
} from './lib/n8n-e2e.mjs';

describeE2e('FacilitaPay Trigger in a real n8n 2.x', () => {
	test(
		'activation registers the webhook, and a Subject Approved notification starts the workflow without the secret',
		async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'trigger']);
			const mark = await sandboxMark(state);
			const workflow = await createWorkflowViaApi(workflowWithTrigger({ parameters: { events: ['*'] } }), state);

			await activateWorkflow(workflow.id, state);

			// n8n 2.x publishes asynchronously (an outbox processed right after the API answers):
			// wait for the trigger's registration request, not only for the API's answer.
			const registrations = await waitFor(
				async () => {
					const found = await sandboxRequests({ after: mark, method: 'POST', pathPrefix: '/enable_webhooks' }, state);
					return found.length > 0 ? found : null;
				},
				{ what: 'the trigger to call POST /enable_webhooks' },
			);
			expect(registrations).toHaveLength(1);
			const webhook = (await sandboxControl('GET', '/webhook', undefined, state)).data;
			expect(webhook.enabled).toBe(true);
			expect(webhook.url).toMatch(new RegExp(`^${state.n8nUrl}/webhook/`));

			await sandboxControl('POST', '/events', { type: 'subject_approved', subject_id: 'e2e-subject-1' }, state);

			const [execution] = await waitFor(
				async () => {
					const executions = await listExecutions({ workflowId: workflow.id }, state);
					return executions.length > 0 && executions[0].finished !== false ? executions : null;
				},
				{ what: `an execution of workflow ${workflow.id}` },
			);
			const items = nodeOutput(execution, 'FacilitaPay Trigger');
			expect(items).toEqual([expect.objectContaining({ type: 'subject_approved', subject_id: 'e2e-subject-1' })]);
			expect(JSON.stringify(items)).not.toContain(webhook.secret);
		},
		CLI_TIMEOUT,
	);
});
