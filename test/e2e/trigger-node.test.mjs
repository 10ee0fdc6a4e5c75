// The FacilitaPay Trigger in a real n8n 2.x: activating the workflow registers n8n's webhook URL
// with the sandbox (POST /enable_webhooks); notifications the sandbox sends start it, forged ones
// are refused without an execution, and deactivation forgets the secret.
import {
	CLI_TIMEOUT,
	activateWorkflow,
	createWorkflowViaApi,
	deactivateWorkflow,
	describeE2e,
	getWorkflowViaApi,
	listExecutions,
	nodeOutput,
	postRaw,
	requirePieces,
	sandboxApi,
	sandboxControl,
	sandboxMark,
	sandboxRequests,
	sharedState,
	startPrivateSandbox,
	validCpf,
	waitFor,
	workflowWithTrigger,
} from './lib/n8n-e2e.mjs';

const TRIGGER = 'FacilitaPay Trigger';

/** Activates and waits for the trigger's registration request (2.x publishes asynchronously). */
async function activateAndWaitForRegistration(workflowId, state) {
	const mark = await sandboxMark(state);
	await activateWorkflow(workflowId, state);
	return waitFor(
		async () => {
			const found = await sandboxRequests({ after: mark, method: 'POST', pathPrefix: '/enable_webhooks' }, state);
			return found.length > 0 ? found : null;
		},
		{ what: 'the trigger to call POST /enable_webhooks' },
	);
}

/** The workflow's finished executions, oldest first, once there are exactly `count` of them. */
async function waitForExecutions(workflowId, count, state) {
	const executions = await waitFor(
		async () => {
			const list = await listExecutions({ workflowId }, state);
			return list.length >= count && list.every((e) => e.finished !== false || e.status === 'success') ? list : null;
		},
		{ what: `${count} execution(s) of workflow ${workflowId}` },
	);
	return [...executions].reverse();
}

describeE2e('FacilitaPay Trigger in a real n8n 2.x', () => {
	test(
		'activation registers the webhook, and a Subject Approved notification starts the workflow without the secret',
		async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'trigger']);
			const workflow = await createWorkflowViaApi(workflowWithTrigger({ parameters: { events: ['*'] } }), state);

			const registrations = await activateAndWaitForRegistration(workflow.id, state);
			expect(registrations).toHaveLength(1);
			const webhook = (await sandboxControl('GET', '/webhook', undefined, state)).data;
			expect(webhook.enabled).toBe(true);
			expect(webhook.url).toMatch(new RegExp(`^${state.n8nUrl}/webhook/`));

			await sandboxControl('POST', '/events', { type: 'subject_approved', subject_id: 'e2e-subject-1' }, state);

			const [execution] = await waitForExecutions(workflow.id, 1, state);
			const items = nodeOutput(execution, TRIGGER);
			expect(items).toEqual([expect.objectContaining({ type: 'subject_approved', subject_id: 'e2e-subject-1' })]);
			expect(JSON.stringify(items)).not.toContain(webhook.secret);
			await deactivateWorkflow(workflow.id, state);
		},
		CLI_TIMEOUT,
	);

	describe('with a selection of events, against a sandbox of its own', () => {
		/** @type {Awaited<ReturnType<typeof startPrivateSandbox>>} */
		let sb;
		/** @type {any} */
		let workflow;
		/** @type {{url: string, secret: string}} */
		let webhook;
		let subjectId = '';
		/** Executions expected so far (each step adds what it should). */
		let expected = 0;

		beforeAll(async () => {
			requirePieces(sharedState(), ['sandbox', 'trigger']);
			sb = await startPrivateSandbox({ id: 'facilitapay-trigger-sandbox', name: 'FacilitaPay Trigger Sandbox' });
		}, CLI_TIMEOUT);

		afterAll(async () => {
			if (workflow) await deactivateWorkflow(workflow.id, sb.state).catch(() => undefined);
			await sb?.close();
		});

		test(
			'activation with Events = Identified, Payment Failed, Subject Reproved registers n8n’s production URL with the sandbox',
			async () => {
				const base = workflowWithTrigger({ parameters: { events: ['identified', 'payment_failed', 'subject_reproved'] } });
				base.nodes[0].credentials = { facilitaPayApi: sb.credentials };
				workflow = await createWorkflowViaApi(base, sb.state);

				const registrations = await activateAndWaitForRegistration(workflow.id, sb.state);

				expect(registrations).toHaveLength(1);
				webhook = (await sandboxControl('GET', '/webhook', undefined, sb.state)).data;
				expect(webhook).toMatchObject({ enabled: true, url: `${sb.state.n8nUrl}/webhook/wh-${base.id}/webhook` });
				expect(registrations[0].body).toEqual({ url: webhook.url });
				// Only a digest of the secret is kept in the workflow.
				const saved = await waitFor(
					async () => {
						const wf = await getWorkflowViaApi(workflow.id, sb.state);
						return wf.staticData?.[`node:${TRIGGER}`]?.secretDigest ? wf : null;
					},
					{ what: 'the registration in the workflow static data' },
				);
				expect(JSON.stringify(saved.staticData)).not.toContain(`"${webhook.secret}"`);
			},
			CLI_TIMEOUT,
		);

		test(
			'a paid dynamic PIX, a declined card checkout and a reproved subject each start ONE execution with the event, without the secret',
			async () => {
				expect(webhook).toBeDefined();
				const seed = (Date.now() % 100000) + 3000;
				const person = {
					document_type: 'cpf',
					document_number: validCpf(seed),
					social_name: `Trigger Person ${seed}`,
					fiscal_country: 'BR',
					address_street: 'Rua Augusta',
					address_number: '500',
					address_neighborhood: 'Consolação',
					address_city: 'São Paulo',
					address_state: 'SP',
					address_postal_code: '01304000',
					address_country: 'BR',
					email: `trigger.${seed}@example.com`,
					phone_country_code: '55',
					phone_area_code: '11',
					phone_number: '912345678',
				};
				const subject = await sandboxApi('POST', '/subject/people', { person }, sb.state);
				expect(subject.status).toBeLessThan(300);
				subjectId = subject.json.data.id;

				// 1. The customer pays a dynamic PIX → identified.
				const pix = await sandboxApi(
					'POST',
					'/transactions',
					{
						transaction: {
							subject_id: subjectId,
							from_bank_account_id: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
							to_bank_account_id: '0b5e7c2a-1f3d-4a8e-9c61-000000000004',
							currency: 'BRL',
							exchange_currency: 'USD',
							value: '120.00',
							use_dynamic_pix: true,
						},
					},
					sb.state,
				);
				expect(pix.status).toBeLessThan(300);
				await sandboxControl('POST', `/transactions/${pix.json.data.id}/pay`, { success: true }, sb.state);
				expected += 1;
				let executions = await waitForExecutions(workflow.id, expected, sb.state);
				const identified = nodeOutput(executions[expected - 1], TRIGGER);
				expect(identified).toEqual([expect.objectContaining({ type: 'identified', transaction_id: pix.json.data.id })]);

				// 2. A card attempt on a checkout page is declined → payment_failed.
				const checkout = await sandboxApi(
					'POST',
					'/transactions/checkout',
					{
						subject_id: subjectId,
						to_bank_account_id: '0b5e7c2a-1f3d-4a8e-9c61-000000000004',
						currency: 'BRL',
						exchange_currency: 'USD',
						value: '75.00',
					},
					sb.state,
				);
				expect(checkout.status).toBeLessThan(300);
				const checkoutId = checkout.json.data.checkout_id ?? checkout.json.data.id;
				await sandboxControl('POST', `/transactions/${checkoutId}/pay`, { success: false }, sb.state);
				expected += 1;
				executions = await waitForExecutions(workflow.id, expected, sb.state);
				expect(nodeOutput(executions[expected - 1], TRIGGER)).toEqual([
					expect.objectContaining({ type: 'payment_failed', checkout_id: checkoutId, transaction_id: expect.any(String) }),
				]);

				// 3. The back office reproves the subject → subject_reproved.
				await sandboxControl('POST', `/subjects/${subjectId}/reprove`, { items: ['proof_of_address_rejected'] }, sb.state);
				expected += 1;
				executions = await waitForExecutions(workflow.id, expected, sb.state);
				expect(nodeOutput(executions[expected - 1], TRIGGER)).toEqual([
					expect.objectContaining({ type: 'subject_reproved', subject_id: subjectId, items: ['proof_of_address_rejected'] }),
				]);

				// Exactly one execution per event, and the secret is in none of them.
				expect(executions).toHaveLength(expected);
				for (const execution of executions) {
					const [item] = nodeOutput(execution, TRIGGER);
					expect(item).not.toHaveProperty('secret');
					expect(JSON.stringify(item)).not.toContain(`"secret"`);
				}
			},
			CLI_TIMEOUT,
		);

		test(
			'forged notifications are refused (401 wrong or missing secret, 400/422 not JSON, 401 no notification wrapper) and an event not selected starts nothing',
			async () => {
				expect(webhook).toBeDefined();
				const wrongSecret = String((Number(webhook.secret) + 1) % 10000).padStart(4, '0');
				const forged = {
					wrongSecret: await postRaw(webhook.url, { notification: { type: 'identified', secret: wrongSecret, transaction_id: 'forged-1' } }),
					missingSecret: await postRaw(webhook.url, { notification: { type: 'identified', transaction_id: 'forged-2' } }),
					notJson: await postRaw(webhook.url, 'this is not JSON {', { contentType: 'text/plain' }),
					notJsonDeclaredJson: await postRaw(webhook.url, '{"notification": {"type": "identified", ', { contentType: 'application/json' }),
					noWrapper: await postRaw(webhook.url, { type: 'identified', secret: webhook.secret, transaction_id: 'forged-3' }),
				};
				expect(forged.wrongSecret.status).toBe(401);
				expect(forged.wrongSecret.json).toEqual({ message: 'Missing or wrong secret' });
				expect(forged.missingSecret.status).toBe(401);
				expect(forged.missingSecret.json).toEqual({ message: 'Missing or wrong secret' });
				expect(forged.notJson.status).toBe(400);
				expect(forged.notJson.json?.message).toMatch(/not JSON/);
				// Broken JSON declared as application/json never reaches the node: n8n's own body
				// parser answers 422 (n8n 2.41.1) and starts nothing.
				expect(forged.notJsonDeclaredJson.status).toBe(422);
				expect(forged.notJsonDeclaredJson.json?.message).toBe('Failed to parse request body');
				expect(forged.noWrapper.status).toBe(401);
				expect(forged.noWrapper.json).toEqual({ message: 'Not a FacilitaPay notification' });

				// Signed by the sandbox but not in the selection: answered 200, nothing starts.
				const approved = await sandboxControl('POST', '/events', { type: 'subject_approved', subject_id: subjectId }, sb.state);
				expect(approved.data.notification).toMatchObject({ last_response_status: 200 });

				// A selected event afterwards is the barrier: when its execution is there, any
				// execution the requests above could have started would be there too.
				await sandboxControl('POST', '/events', { type: 'subject_reproved', subject_id: subjectId, items: ['barrier'] }, sb.state);
				expected += 1;
				const executions = await waitForExecutions(workflow.id, expected, sb.state);
				expect(executions).toHaveLength(expected);
				expect(nodeOutput(executions[expected - 1], TRIGGER)).toEqual([
					expect.objectContaining({ type: 'subject_reproved', items: ['barrier'] }),
				]);
				const all = JSON.stringify(executions.map((e) => nodeOutput(e, TRIGGER)));
				expect(all).not.toContain('forged-');
				expect(all).not.toContain('subject_approved');
			},
			CLI_TIMEOUT,
		);

		test(
			'deactivation forgets the secret: the account stays enabled, a notification then starts nothing, and after reactivation the old secret is refused',
			async () => {
				expect(webhook).toBeDefined();
				const mark = await sandboxMark(sb.state);
				await deactivateWorkflow(workflow.id, sb.state);
				await waitFor(
					async () => {
						const wf = await getWorkflowViaApi(workflow.id, sb.state);
						return !wf.staticData?.[`node:${TRIGGER}`]?.secretDigest;
					},
					{ what: 'the trigger to forget its registration' },
				);
				// Disable Notifications on Deactivation is off: the account is left as it is.
				expect(await sandboxRequests({ after: mark, pathPrefix: '/disable_webhooks' }, sb.state)).toHaveLength(0);
				expect((await sandboxControl('GET', '/webhook', undefined, sb.state)).data).toMatchObject({ enabled: true, url: webhook.url });

				const sent = await sandboxControl('POST', '/events', { type: 'subject_reproved', subject_id: subjectId, items: ['after'] }, sb.state);
				expect(sent.data.notification.last_response_status).toBe(404);
				expect(await listExecutions({ workflowId: workflow.id }, sb.state)).toHaveLength(expected);

				// Activated again: a new registration, a new secret; the old one no longer opens the door.
				const oldSecret = webhook.secret;
				await activateAndWaitForRegistration(workflow.id, sb.state);
				const renewed = (await sandboxControl('GET', '/webhook', undefined, sb.state)).data;
				expect(renewed.url).toBe(webhook.url);
				if (renewed.secret !== oldSecret) {
					const replay = await postRaw(webhook.url, { notification: { type: 'subject_reproved', secret: oldSecret, subject_id: 'old-secret' } });
					expect(replay.status).toBe(401);
				}
				await sandboxControl('POST', '/events', { type: 'subject_reproved', subject_id: subjectId, items: ['renewed'] }, sb.state);
				expected += 1;
				const executions = await waitForExecutions(workflow.id, expected, sb.state);
				expect(executions).toHaveLength(expected);
				expect(nodeOutput(executions[expected - 1], TRIGGER)).toEqual([expect.objectContaining({ items: ['renewed'] })]);
				expect(JSON.stringify(executions.map((e) => nodeOutput(e, TRIGGER)))).not.toContain('old-secret');
			},
			CLI_TIMEOUT,
		);
	});
});
