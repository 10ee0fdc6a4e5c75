// The FacilitaPay Trigger's registration in a real n8n 2.x: publishing the workflow registers
// n8n's webhook URL with the sandbox (POST /enable_webhooks) and a notification starts it without
// the secret; a KYC payload nested too deep is refused; and "Listen for test event" is refused up
// front rather than take the account's notifications away from the production workflow.
// The other trigger files: trigger-events, trigger-open-cases, trigger-duplicates.
import { setupOwner } from '../../scripts/n8n-runtime.mjs';
import {
	CLI_TIMEOUT,
	activateAndWaitForRegistration,
	createPerson,
	createWorkflowViaApi,
	deactivateWorkflow,
	describeE2e,
	postRaw,
	samplePerson,
	sandboxControl,
	sandboxMark,
	sandboxRequests,
	testE2e,
	TRIGGER,
	triggerItems,
	useTriggerSandbox,
	waitFor,
	waitForExecutions,
	workflowWithTrigger,
} from './lib/n8n-e2e.mjs';

describeE2e('FacilitaPay Trigger registration in a real n8n 2.x', () => {
	testE2e(
		'activation registers the webhook, and a Subject Approved notification starts the workflow without the secret',
		['sandbox', 'trigger'],
		async (state) => {
			// Verify With API off: the sandbox event names a subject that does not exist.
			const workflow = await createWorkflowViaApi(
				workflowWithTrigger({
					parameters: {
						events: ['*'],
						options: { verifyWithApi: false, acceptUnsignedKycStatus: true },
					},
				}),
				state,
			);

			const registrations = await activateAndWaitForRegistration(workflow.id, state);
			expect(registrations).toHaveLength(1);
			const webhook = (await sandboxControl('GET', '/webhook', undefined, state)).data;
			expect(webhook.enabled).toBe(true);
			expect(webhook.url).toMatch(new RegExp(`^${state.n8nUrl}/webhook/`));

			await sandboxControl(
				'POST',
				'/events',
				{ type: 'subject_approved', subject_id: 'e2e-subject-1' },
				state,
			);

			const [execution] = await waitForExecutions(workflow.id, 1, state);
			const items = triggerItems(execution);
			expect(items).toEqual([
				// Proven by FacilitaPay's notification log (the subject itself is not in the sandbox).
				expect.objectContaining({
					type: 'subject_approved',
					subject_id: 'e2e-subject-1',
					verified: true,
					notificationRecord: expect.objectContaining({ id: expect.any(String) }),
				}),
			]);
			expect(execution.mode).toBe('trigger');
			expect(JSON.stringify(items)).not.toContain(webhook.secret);

			// Issue 13: an unsigned KYC payload nested 100,000 levels deep is answered 4xx and starts
			// nothing; a plain one starts the workflow with the documented fields only.
			let deep = '{"id":"x"}';
			for (let i = 0; i < 100_000; i++) deep = `{"n":${deep}}`;
			const nested = await postRaw(
				webhook.url,
				`{"data":{"id":"kyc-deep","status":"approved","references":[${deep}]}}`,
			);
			expect(nested.status).toBeGreaterThanOrEqual(400);
			expect(nested.status).toBeLessThan(500);
			const plain = await postRaw(webhook.url, {
				data: {
					id: 'kyc-plain',
					status: 'approved',
					social_name: 'Ana',
					injected: { value: '1.00' },
				},
			});
			expect(plain.status).toBe(200);
			expect(plain.json).toEqual({ message: 'Received' });
			// Neither is in FacilitaPay's notification log for this URL: a stranger's payload starts
			// nothing, whatever it says (issue 31; before, the option let it in unverified).
			await new Promise((resolve) => setTimeout(resolve, 5_000));
			const executions = await waitForExecutions(workflow.id, 1, state);
			expect(executions).toHaveLength(1);
			expect(JSON.stringify(executions.map((e) => triggerItems(e)))).not.toContain('kyc-');
			await deactivateWorkflow(workflow.id, state);
		},
	);

	describe('"Listen for test event" never leaves production deaf', () => {
		const account = useTriggerSandbox({
			id: 'facilitapay-trigger-test-listen-sandbox',
			name: 'FacilitaPay Trigger Test Listening Sandbox',
		});

		test(
			'activate, listen (refused up front, nothing registered), stop, send an event: the production workflow runs',
			async () => {
				const { workflow } = await account.publish({ events: ['*'] });
				const production = (await sandboxControl('GET', '/webhook', undefined, account.state)).data;
				expect(production.url).toMatch(/\/webhook\//);

				// "Listen for test event", as the editor asks for it.
				const { client } = await setupOwner(account.state.n8nUrl);
				const mark = await sandboxMark(account.state);
				const listen = await client.call('POST', `/rest/workflows/${workflow.id}/run`, {
					triggerToStartFrom: { name: TRIGGER },
				});
				expect(listen.ok).toBe(false);
				expect(listen.text).toMatch(/would take this FacilitaPay account's notifications away/);
				expect(
					await sandboxRequests({ after: mark, pathPrefix: '/enable_webhooks' }, account.state),
				).toHaveLength(0);
				// Stop listening, as the editor's Stop button does.
				await client.call('DELETE', `/rest/test-webhook/${workflow.id}`);

				// The account still points at production, and an event starts the production workflow.
				expect(
					(await sandboxControl('GET', '/webhook', undefined, account.state)).data,
				).toMatchObject({
					url: production.url,
					secret: production.secret,
					enabled: true,
				});
				const seed = (Date.now() % 100000) + 21000;
				const subject = await createPerson(
					samplePerson(seed, `Listen Person ${seed}`),
					account.state,
				);
				const sent = await sandboxControl(
					'POST',
					`/subjects/${subject.id}/reprove`,
					{ items: ['proof_of_address_rejected'] },
					account.state,
				);
				expect(sent.data.status).toBe('reproved');
				const [execution] = await account.next();
				// Started by the trigger's reader of the notification log, not by the request.
				expect(execution.mode).toBe('trigger');
				expect(triggerItems(execution)).toEqual([
					expect.objectContaining({ type: 'subject_reproved', verified: true }),
				]);
				console.log(
					`test listening: answered HTTP ${listen.status} (${listen.text.slice(0, 160)}); production URL kept; the next event ran the production workflow (execution ${execution.id}, mode ${execution.mode})`,
				);
			},
			CLI_TIMEOUT,
		);
	});

	describe('"Listen for test event" on an unpublished workflow', () => {
		const account = useTriggerSandbox({
			id: 'facilitapay-trigger-listen-ok-sandbox',
			name: 'FacilitaPay Trigger Listen Sandbox',
		});

		test(
			"the delivery to the test URL starts the test execution, which shows FacilitaPay's record of it (n8n runs the node's trigger() in manual mode)",
			async () => {
				const state = account.state;
				const base = workflowWithTrigger({ parameters: { events: ['*'] }, typeVersion: 2 });
				base.nodes[0].credentials = { facilitaPayApi: account.sb.credentials };
				const workflow = await createWorkflowViaApi(base, state);
				const { client } = await setupOwner(state.n8nUrl);
				const mark = await sandboxMark(state);
				const listen = await client.call('POST', `/rest/workflows/${workflow.id}/run`, {
					triggerToStartFrom: { name: TRIGGER },
				});
				expect(listen.ok).toBe(true);
				const [registration] = await waitFor(
					async () => {
						const found = await sandboxRequests(
							{ after: mark, method: 'POST', pathPrefix: '/enable_webhooks' },
							state,
						);
						return found.length > 0 ? found : null;
					},
					{ what: 'the test registration' },
				);
				expect(registration.body.url).toMatch(/\/webhook-test\//);
				const sent = await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_approved', subject_id: 'listen-subject-1' },
					state,
				);
				expect(sent.data.notification).toMatchObject({ last_response_status: 200 });
				const [execution] = await waitForExecutions(workflow.id, 1, state);
				expect(execution.mode).toBe('manual');
				expect(triggerItems(execution)).toEqual([
					expect.objectContaining({
						type: 'subject_approved',
						subject_id: 'listen-subject-1',
						verified: true,
						notificationRecord: expect.objectContaining({ id: sent.data.notification.id }),
					}),
				]);
				console.log(
					`test listening: the test execution ${execution.id} (mode ${execution.mode}) showed the record ${sent.data.notification.id}`,
				);
			},
			CLI_TIMEOUT,
		);
	});
});
