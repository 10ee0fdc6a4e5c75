// The FacilitaPay Trigger in a real n8n 2.x: activating the workflow registers n8n's webhook URL
// with the sandbox (POST /enable_webhooks); notifications the sandbox sends start it, forged ones
// are refused without an execution, and deactivation forgets the secret.
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { setupOwner } from '../../scripts/n8n-runtime.mjs';
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

/** The measured figures of issue 11, printed at the end of the file's run. */
const figures = {
	forgedWrongSecret: 0,
	forgedRightSecretFalseContent: 0,
	executionsFromForgeries: 0,
	trueEventsSent: 0,
	trueEventsDelivered: 0,
	/** True events with nothing to verify, refused with 503 during the guessing lock: FacilitaPay redelivers them. */
	trueEventsDeferred: 0,
};
afterAll(() => {
	console.log(`issue 11 figures: ${JSON.stringify(figures)}`);
	const dir = process.env.FACILITAPAY_E2E_DIR ?? '/tmp';
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'trigger-figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
});

/** Activates and waits for the trigger's registration request (2.x publishes asynchronously). */
async function activateAndWaitForRegistration(workflowId, state) {
	const mark = await sandboxMark(state);
	await activateWorkflow(workflowId, state);
	return waitFor(
		async () => {
			const found = await sandboxRequests(
				{ after: mark, method: 'POST', pathPrefix: '/enable_webhooks' },
				state,
			);
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
			return list.length >= count &&
				list.every((e) => e.finished !== false || e.status === 'success')
				? list
				: null;
		},
		{ what: `${count} execution(s) of workflow ${workflowId}` },
	);
	return [...executions].reverse();
}

/** A complete Brazilian person for the sandbox (card payments need address, e-mail, phone). */
function personFor(seed, label) {
	return {
		document_type: 'cpf',
		document_number: validCpf(seed),
		social_name: `${label} Person ${seed}`,
		fiscal_country: 'BR',
		address_street: 'Rua Augusta',
		address_number: '500',
		address_neighborhood: 'Consolação',
		address_city: 'São Paulo',
		address_state: 'SP',
		address_postal_code: '01304000',
		address_country: 'BR',
		email: `${label.toLowerCase()}.${seed}@example.com`,
		phone_country_code: '55',
		phone_area_code: '11',
		phone_number: '912345678',
	};
}

describeE2e('FacilitaPay Trigger in a real n8n 2.x', () => {
	test(
		'activation registers the webhook, and a Subject Approved notification starts the workflow without the secret',
		async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'trigger']);
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
			const items = nodeOutput(execution, TRIGGER);
			expect(items).toEqual([
				expect.objectContaining({
					type: 'subject_approved',
					subject_id: 'e2e-subject-1',
					verified: false,
				}),
			]);
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
			const executions = await waitForExecutions(workflow.id, 2, state);
			expect(executions).toHaveLength(2);
			// Verify With API is off here, so only the option lets it in, unverified; what the spec
			// does not list stays apart.
			expect(nodeOutput(executions[1], TRIGGER)).toEqual([
				expect.objectContaining({
					type: 'kyc_status',
					verified: false,
					subject_id: 'kyc-plain',
					data: { id: 'kyc-plain', status: 'approved', social_name: 'Ana' },
					unverifiedFields: { data: { injected: { value: '1.00' } } },
				}),
			]);
			expect(JSON.stringify(executions.map((e) => nodeOutput(e, TRIGGER)))).not.toContain(
				'kyc-deep',
			);
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
		/** A dynamic PIX nobody paid: still pending. */
		let pendingPixId = '';
		/** Executions expected so far (each step adds what it should). */
		let expected = 0;

		beforeAll(async () => {
			requirePieces(sharedState(), ['sandbox', 'trigger']);
			sb = await startPrivateSandbox({
				id: 'facilitapay-trigger-sandbox',
				name: 'FacilitaPay Trigger Sandbox',
			});
		}, CLI_TIMEOUT);

		afterAll(async () => {
			if (workflow) await deactivateWorkflow(workflow.id, sb.state).catch(() => undefined);
			await sb?.close();
		});

		test(
			'activation with Events = Identified, Payment Failed, Subject Reproved registers n8n’s production URL with the sandbox',
			async () => {
				const base = workflowWithTrigger({
					parameters: { events: ['identified', 'payment_failed', 'subject_reproved'] },
				});
				base.nodes[0].credentials = { facilitaPayApi: sb.credentials };
				workflow = await createWorkflowViaApi(base, sb.state);

				const registrations = await activateAndWaitForRegistration(workflow.id, sb.state);

				expect(registrations).toHaveLength(1);
				webhook = (await sandboxControl('GET', '/webhook', undefined, sb.state)).data;
				expect(webhook).toMatchObject({
					enabled: true,
					url: `${sb.state.n8nUrl}/webhook/wh-${base.id}/webhook`,
				});
				expect(registrations[0].body).toEqual({ url: webhook.url });
				// Only a keyed HMAC of the secret is kept in the workflow.
				const saved = await waitFor(
					async () => {
						const wf = await getWorkflowViaApi(workflow.id, sb.state);
						return wf.staticData?.[`node:${TRIGGER}`]?.secretHmac ? wf : null;
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
							from_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
							to_bank_account_id: ACCOUNT_IDS.usdDestination,
							currency: 'BRL',
							exchange_currency: 'USD',
							value: '120.00',
							use_dynamic_pix: true,
						},
					},
					sb.state,
				);
				expect(pix.status).toBeLessThan(300);
				await sandboxControl(
					'POST',
					`/transactions/${pix.json.data.id}/pay`,
					{ success: true },
					sb.state,
				);
				expected += 1;
				let executions = await waitForExecutions(workflow.id, expected, sb.state);
				const identified = nodeOutput(executions[expected - 1], TRIGGER);
				expect(identified).toEqual([
					expect.objectContaining({
						type: 'identified',
						transaction_id: pix.json.data.id,
						verified: true,
						transaction: expect.objectContaining({
							id: pix.json.data.id,
							status: 'identified',
							value: '120.00',
						}),
					}),
				]);
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;

				// 2. A card attempt on a checkout page is declined → payment_failed.
				const checkout = await sandboxApi(
					'POST',
					'/transactions/checkout',
					{
						subject_id: subjectId,
						to_bank_account_id: ACCOUNT_IDS.usdDestination,
						currency: 'BRL',
						exchange_currency: 'USD',
						value: '75.00',
					},
					sb.state,
				);
				expect(checkout.status).toBeLessThan(300);
				const checkoutId = checkout.json.data.checkout_id ?? checkout.json.data.id;
				await sandboxControl(
					'POST',
					`/transactions/${checkoutId}/pay`,
					{ success: false },
					sb.state,
				);
				expected += 1;
				executions = await waitForExecutions(workflow.id, expected, sb.state);
				expect(nodeOutput(executions[expected - 1], TRIGGER)).toEqual([
					expect.objectContaining({
						type: 'payment_failed',
						checkout_id: checkoutId,
						transaction_id: expect.any(String),
						verified: true,
						transaction: expect.objectContaining({ status: 'canceled' }),
					}),
				]);
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;
				pendingPixId = (
					await sandboxApi(
						'POST',
						'/transactions',
						{
							transaction: {
								subject_id: subjectId,
								from_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
								to_bank_account_id: ACCOUNT_IDS.usdDestination,
								currency: 'BRL',
								exchange_currency: 'USD',
								value: '9999.00',
								use_dynamic_pix: true,
							},
						},
						sb.state,
					)
				).json.data.id;

				// 3. The back office reproves the subject → subject_reproved.
				await sandboxControl(
					'POST',
					`/subjects/${subjectId}/reprove`,
					{ items: ['proof_of_address_rejected'] },
					sb.state,
				);
				expected += 1;
				executions = await waitForExecutions(workflow.id, expected, sb.state);
				expect(nodeOutput(executions[expected - 1], TRIGGER)).toEqual([
					expect.objectContaining({
						type: 'subject_reproved',
						subject_id: subjectId,
						items: ['proof_of_address_rejected'],
						verified: true,
						subject: expect.objectContaining({ id: subjectId, status: 'reproved' }),
					}),
				]);
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;

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
					wrongSecret: await postRaw(webhook.url, {
						notification: { type: 'identified', secret: wrongSecret, transaction_id: 'forged-1' },
					}),
					missingSecret: await postRaw(webhook.url, {
						notification: { type: 'identified', transaction_id: 'forged-2' },
					}),
					notJson: await postRaw(webhook.url, 'this is not JSON {', { contentType: 'text/plain' }),
					notJsonDeclaredJson: await postRaw(
						webhook.url,
						'{"notification": {"type": "identified", ',
						{ contentType: 'application/json' },
					),
					noWrapper: await postRaw(webhook.url, {
						type: 'identified',
						secret: webhook.secret,
						transaction_id: 'forged-3',
					}),
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
				figures.forgedWrongSecret += 2;

				// More guesses (the trigger tolerates 20 within 10 minutes before it locks).
				for (let n = 2; n < 12; n++) {
					const guess = String((Number(webhook.secret) + n) % 10000).padStart(4, '0');
					const answer = await postRaw(webhook.url, {
						notification: {
							type: 'identified',
							secret: guess,
							transaction_id: `forged-guess-${n}`,
						},
					});
					expect(answer.status).toBe(401);
					figures.forgedWrongSecret += 1;
				}

				// The RIGHT secret (the sandbox itself delivers these), false content. Proven false by
				// the API (an unknown transaction): answered 200, no execution, no redelivery.
				expect(pendingPixId).not.toBe('');
				const unknownTransaction = '0b5e7c2a-1f3d-4a8e-9c61-00000000dead';
				for (const event of [
					{ type: 'identified', transaction_id: unknownTransaction },
					{ type: 'payment_failed', transaction_id: unknownTransaction },
				]) {
					const sent = await sandboxControl('POST', '/events', event, sb.state);
					expect(sent.data.notification).toMatchObject({ last_response_status: 200 });
					figures.forgedRightSecretFalseContent += 1;
				}
				// Not proven false, a doubt redelivery may settle: the pending PIX claimed as paid is
				// answered 503 (FacilitaPay sends it again; listed as failed if it never settles).
				const claimedPaid = await sandboxControl(
					'POST',
					'/events',
					{ type: 'identified', transaction_id: pendingPixId },
					sb.state,
				);
				expect(claimedPaid.data.notification).toMatchObject({
					last_response_status: 503,
					next_attempt_at: expect.any(String),
				});
				figures.forgedRightSecretFalseContent += 1;
				// Posted straight with the right secret and a made-up value: the same 503, no execution.
				const rightSecretForgery = await postRaw(webhook.url, {
					notification: {
						type: 'identified',
						secret: webhook.secret,
						transaction_id: pendingPixId,
						value: '9999.00',
					},
				});
				expect(rightSecretForgery.status).toBe(503);
				expect(rightSecretForgery.json).toEqual({
					message: 'Not accepted now; send the notification again later',
				});
				figures.forgedRightSecretFalseContent += 1;
				// A subject the people endpoint does not know may be a company: not a proof, so it
				// starts the workflow, with verified: false.
				await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_reproved', subject_id: 'maybe-a-company', items: ['x'] },
					sb.state,
				);
				expected += 1;
				const company = await waitForExecutions(workflow.id, expected, sb.state);
				expect(nodeOutput(company[expected - 1], TRIGGER)).toEqual([
					expect.objectContaining({
						type: 'subject_reproved',
						subject_id: 'maybe-a-company',
						verified: false,
						verification: expect.objectContaining({
							objects: [expect.objectContaining({ object: 'subject', found: false })],
						}),
					}),
				]);

				// Signed by the sandbox but not in the selection: answered 200, nothing starts.
				const approved = await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_approved', subject_id: subjectId },
					sb.state,
				);
				expect(approved.data.notification).toMatchObject({ last_response_status: 200 });

				// A selected event afterwards is the barrier: when its execution is there, any
				// execution the requests above could have started would be there too.
				await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_reproved', subject_id: subjectId, items: ['barrier'] },
					sb.state,
				);
				expected += 1;
				const executions = await waitForExecutions(workflow.id, expected, sb.state);
				expect(executions).toHaveLength(expected);
				expect(nodeOutput(executions[expected - 1], TRIGGER)).toEqual([
					expect.objectContaining({ type: 'subject_reproved', items: ['barrier'] }),
				]);
				const all = JSON.stringify(executions.map((e) => nodeOutput(e, TRIGGER)));
				expect(all).not.toContain('forged-');
				expect(all).not.toContain('subject_approved');
				expect(all).not.toContain(pendingPixId);
				expect(all).not.toContain(unknownTransaction);
				figures.executionsFromForgeries += executions.filter((e) => {
					const [item] = nodeOutput(e, TRIGGER);
					return (
						String(item?.transaction_id ?? item?.subject_id ?? '').startsWith('forged') ||
						item?.transaction_id === pendingPixId ||
						item?.transaction_id === unknownTransaction
					);
				}).length;
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;
			},
			CLI_TIMEOUT,
		);

		test(
			"deactivation forgets the secret; after reactivation FacilitaPay's redelivery with the PREVIOUS secret is accepted (verified), a forgery with it is not",
			async () => {
				expect(webhook).toBeDefined();
				const mark = await sandboxMark(sb.state);
				await deactivateWorkflow(workflow.id, sb.state);
				await waitFor(
					async () => {
						const wf = await getWorkflowViaApi(workflow.id, sb.state);
						return !wf.staticData?.[`node:${TRIGGER}`]?.secretHmac;
					},
					{ what: 'the trigger to forget its registration' },
				);
				// Disable Notifications on Deactivation is off: the account is left as it is.
				expect(
					await sandboxRequests({ after: mark, pathPrefix: '/disable_webhooks' }, sb.state),
				).toHaveLength(0);
				expect((await sandboxControl('GET', '/webhook', undefined, sb.state)).data).toMatchObject({
					enabled: true,
					url: webhook.url,
				});

				// Sent while the workflow is inactive: n8n answers 404, FacilitaPay will redeliver it later
				// with the secret it was sent with.
				const sent = await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_reproved', subject_id: subjectId, items: ['after'] },
					sb.state,
				);
				expect(sent.data.notification.last_response_status).toBe(404);
				expect(await listExecutions({ workflowId: workflow.id }, sb.state)).toHaveLength(expected);
				figures.trueEventsSent += 1;

				// Activated again: a new registration, a new secret.
				const oldSecret = webhook.secret;
				await activateAndWaitForRegistration(workflow.id, sb.state);
				const renewed = (await sandboxControl('GET', '/webhook', undefined, sb.state)).data;
				expect(renewed.url).toBe(webhook.url);
				expect(renewed.secret).not.toBe(oldSecret);

				// A forgery with the previous secret naming a transaction FacilitaPay does not know:
				// proven false, nothing starts.
				const replay = await postRaw(webhook.url, {
					notification: {
						type: 'identified',
						secret: oldSecret,
						transaction_id: '0b5e7c2a-1f3d-4a8e-9c61-00000000beef',
						note: 'old-secret',
					},
				});
				expect(replay.status).toBe(200);
				expect(replay.json).toEqual({
					message: 'Not started: FacilitaPay does not confirm this event',
				});
				figures.forgedRightSecretFalseContent += 1;

				// FacilitaPay's redelivery (1 minute later on its clock) still carries the previous secret.
				await sandboxControl('POST', '/clock/advance', { minutes: 1 }, sb.state);
				await sandboxControl('POST', '/deliveries/wait', {}, sb.state);
				expected += 1;
				let executions = await waitForExecutions(workflow.id, expected, sb.state);
				expect(nodeOutput(executions[expected - 1], TRIGGER)).toEqual([
					expect.objectContaining({ type: 'subject_reproved', items: ['after'], verified: true }),
				]);
				figures.trueEventsDelivered += 1;

				// And new events carry the new secret.
				await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_reproved', subject_id: subjectId, items: ['renewed'] },
					sb.state,
				);
				expected += 1;
				executions = await waitForExecutions(workflow.id, expected, sb.state);
				expect(executions).toHaveLength(expected);
				expect(nodeOutput(executions[expected - 1], TRIGGER)).toEqual([
					expect.objectContaining({ items: ['renewed'] }),
				]);
				expect(JSON.stringify(executions.map((e) => nodeOutput(e, TRIGGER)))).not.toContain(
					'old-secret',
				);
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;
			},
			CLI_TIMEOUT,
		);
	});

	describe('what the spec leaves open, played by a sandbox of its own', () => {
		/** @type {Awaited<ReturnType<typeof startPrivateSandbox>>} */
		let sb;
		/** @type {any} */
		let workflow;
		let subjectId = '';
		let count = 0;

		beforeAll(async () => {
			requirePieces(sharedState(), ['sandbox', 'trigger']);
			sb = await startPrivateSandbox({
				id: 'facilitapay-trigger-open-sandbox',
				name: 'FacilitaPay Trigger Open Cases Sandbox',
			});
			const base = workflowWithTrigger({ parameters: { events: ['*'] } });
			base.nodes[0].credentials = { facilitaPayApi: sb.credentials };
			workflow = await createWorkflowViaApi(base, sb.state);
			await activateAndWaitForRegistration(workflow.id, sb.state);
			const seed = (Date.now() % 100000) + 11000;
			const subject = await sandboxApi(
				'POST',
				'/subject/people',
				{ person: personFor(seed, 'Open') },
				sb.state,
			);
			subjectId = subject.json.data.id;
		}, CLI_TIMEOUT);

		afterAll(async () => {
			if (workflow) await deactivateWorkflow(workflow.id, sb.state).catch(() => undefined);
			await sb?.close();
		});

		test(
			'a card payment approved while FacilitaPay still shows it pending starts the workflow (verified: false, saying so); its identification later starts it verified',
			async () => {
				await sandboxControl('POST', '/play', { card_identification: 'later' }, sb.state);
				const checkout = await sandboxApi(
					'POST',
					'/transactions/checkout',
					{
						subject_id: subjectId,
						to_bank_account_id: ACCOUNT_IDS.usdDestination,
						currency: 'BRL',
						exchange_currency: 'USD',
						value: '80.00',
					},
					sb.state,
				);
				const paid = await sandboxControl(
					'POST',
					`/transactions/${checkout.json.data.id}/pay`,
					{ success: true },
					sb.state,
				);
				expect(paid.data.status).toBe('pending');
				count += 1;
				let executions = await waitForExecutions(workflow.id, count, sb.state);
				expect(nodeOutput(executions[count - 1], TRIGGER)).toEqual([
					expect.objectContaining({
						type: 'payment_approved',
						transaction_id: paid.data.id,
						verified: false,
						transaction: expect.objectContaining({ status: 'pending', value: '80.00' }),
						verification: expect.objectContaining({
							summary: expect.stringMatching(/still pending/),
						}),
					}),
				]);
				await sandboxControl('POST', `/transactions/${paid.data.id}/identify`, {}, sb.state);
				count += 1;
				executions = await waitForExecutions(workflow.id, count, sb.state);
				expect(nodeOutput(executions[count - 1], TRIGGER)).toEqual([
					expect.objectContaining({ type: 'identified', verified: true }),
				]);
				figures.trueEventsSent += 2;
				figures.trueEventsDelivered += 2;
			},
			CLI_TIMEOUT,
		);

		test.each([40, 200])(
			'a wire grouping %i transactions: exchange_created and wire_created each start one verified execution naming all of them, answered within 8 s',
			async (size) => {
				const started = Date.now();
				const grouped = await sandboxControl(
					'POST',
					'/wires/grouped',
					{ subject_id: subjectId, count: size },
					sb.state,
				);
				const deliveredWithin = Date.now() - started;
				const ids = grouped.data.transaction_ids;
				count += 2;
				const executions = await waitForExecutions(workflow.id, count, sb.state);
				for (const execution of executions.slice(-2)) {
					const [item] = nodeOutput(execution, TRIGGER);
					expect(item).toMatchObject({ verified: true, transaction_ids: ids });
					expect(item.transactions.map((/** @type {any} */ t) => t.id)).toEqual(ids);
				}
				expect(
					executions.slice(-2).map((execution) => nodeOutput(execution, TRIGGER)[0].type),
				).toEqual(['exchange_created', 'wire_created']);
				// Both notifications delivered one after the other at the first attempt, each within 8 s.
				const records = (
					await sandboxApi('GET', '/notifications?order_by=desc&per_page=2', undefined, sb.state)
				).json.data;
				expect(records.map((/** @type {any} */ r) => r.attempts)).toEqual([1, 1]);
				expect(deliveredWithin).toBeLessThan(16_000);
				console.log(
					`wire of ${size} transactions: both notifications answered in ${deliveredWithin} ms in all`,
				);
				figures.trueEventsSent += 2;
				figures.trueEventsDelivered += 2;
			},
			CLI_TIMEOUT,
		);

		test(
			'a field the spec does not list (a failure reason on payment_failed) reaches the workflow under unverifiedFields',
			async () => {
				await sandboxControl(
					'POST',
					'/webhooks/delivery',
					{ extra_fields: { payment_failed: { failure_reason: 'insufficient_funds' } } },
					sb.state,
				);
				const checkout = await sandboxApi(
					'POST',
					'/transactions/checkout',
					{
						subject_id: subjectId,
						to_bank_account_id: ACCOUNT_IDS.usdDestination,
						currency: 'BRL',
						exchange_currency: 'USD',
						value: '81.00',
					},
					sb.state,
				);
				await sandboxControl(
					'POST',
					`/transactions/${checkout.json.data.id}/pay`,
					{ success: false },
					sb.state,
				);
				count += 1;
				const executions = await waitForExecutions(workflow.id, count, sb.state);
				expect(nodeOutput(executions[count - 1], TRIGGER)).toEqual([
					expect.objectContaining({
						type: 'payment_failed',
						verified: true,
						unverifiedFields: { failure_reason: 'insufficient_funds' },
					}),
				]);
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;
			},
			CLI_TIMEOUT,
		);
	});

	describe('"Listen for test event" never leaves production deaf', () => {
		/** @type {Awaited<ReturnType<typeof startPrivateSandbox>>} */
		let sb;
		/** @type {any} */
		let workflow;

		beforeAll(async () => {
			requirePieces(sharedState(), ['sandbox', 'trigger']);
			sb = await startPrivateSandbox({
				id: 'facilitapay-trigger-test-listen-sandbox',
				name: 'FacilitaPay Trigger Test Listening Sandbox',
			});
		}, CLI_TIMEOUT);

		afterAll(async () => {
			if (workflow) await deactivateWorkflow(workflow.id, sb.state).catch(() => undefined);
			await sb?.close();
		});

		test(
			'activate, listen (refused up front, nothing registered), stop, send an event: the production workflow runs',
			async () => {
				const base = workflowWithTrigger({ parameters: { events: ['*'] } });
				base.nodes[0].credentials = { facilitaPayApi: sb.credentials };
				workflow = await createWorkflowViaApi(base, sb.state);
				await activateAndWaitForRegistration(workflow.id, sb.state);
				const production = (await sandboxControl('GET', '/webhook', undefined, sb.state)).data;
				expect(production.url).toMatch(/\/webhook\//);

				// "Listen for test event", as the editor asks for it.
				const { client } = await setupOwner(sb.state.n8nUrl);
				const mark = await sandboxMark(sb.state);
				const listen = await client.call('POST', `/rest/workflows/${workflow.id}/run`, {
					triggerToStartFrom: { name: TRIGGER },
				});
				expect(listen.ok).toBe(false);
				expect(listen.text).toMatch(/would take this FacilitaPay account's notifications away/);
				expect(
					await sandboxRequests({ after: mark, pathPrefix: '/enable_webhooks' }, sb.state),
				).toHaveLength(0);
				// Stop listening, as the editor's Stop button does.
				await client.call('DELETE', `/rest/test-webhook/${workflow.id}`);

				// The account still points at production, and an event starts the production workflow.
				expect((await sandboxControl('GET', '/webhook', undefined, sb.state)).data).toMatchObject({
					url: production.url,
					secret: production.secret,
					enabled: true,
				});
				const subject = await sandboxApi(
					'POST',
					'/subject/people',
					{ person: personFor((Date.now() % 100000) + 21000, 'Listen') },
					sb.state,
				);
				const sent = await sandboxControl(
					'POST',
					`/subjects/${subject.json.data.id}/reprove`,
					{ items: ['proof_of_address_rejected'] },
					sb.state,
				);
				expect(sent.data.status).toBe('reproved');
				const [execution] = await waitForExecutions(workflow.id, 1, sb.state);
				expect(execution.mode).toBe('webhook');
				expect(nodeOutput(execution, TRIGGER)).toEqual([
					expect.objectContaining({ type: 'subject_reproved', verified: true }),
				]);
				console.log(
					`test listening: answered HTTP ${listen.status} (${listen.text.slice(0, 160)}); production URL kept; the next event ran the production workflow (execution ${execution.id}, mode ${execution.mode})`,
				);
			},
			CLI_TIMEOUT,
		);
	});

	describe('Drop Duplicates, against a sandbox of its own', () => {
		/** @type {Awaited<ReturnType<typeof startPrivateSandbox>>} */
		let sb;
		/** @type {any} */
		let workflow;

		beforeAll(async () => {
			requirePieces(sharedState(), ['sandbox', 'trigger']);
			sb = await startPrivateSandbox({
				id: 'facilitapay-trigger-dup-sandbox',
				name: 'FacilitaPay Trigger Dup Sandbox',
			});
		}, CLI_TIMEOUT);

		afterAll(async () => {
			if (workflow) await deactivateWorkflow(workflow.id, sb.state).catch(() => undefined);
			await sb?.close();
		});

		test(
			'the same event delivered twice starts one execution; a different one starts another',
			async () => {
				const base = workflowWithTrigger({
					parameters: { events: ['*'], options: { dropDuplicates: true } },
				});
				base.nodes[0].credentials = { facilitaPayApi: sb.credentials };
				workflow = await createWorkflowViaApi(base, sb.state);
				await activateAndWaitForRegistration(workflow.id, sb.state);

				const seed = (Date.now() % 100000) + 7000;
				const subject = await sandboxApi(
					'POST',
					'/subject/people',
					{
						person: {
							document_type: 'cpf',
							document_number: validCpf(seed),
							social_name: `Dup Person ${seed}`,
							fiscal_country: 'BR',
							address_street: 'Rua Augusta',
							address_number: '500',
							address_neighborhood: 'Consolação',
							address_city: 'São Paulo',
							address_state: 'SP',
							address_postal_code: '01304000',
							address_country: 'BR',
							email: `dup.${seed}@example.com`,
							phone_country_code: '55',
							phone_area_code: '11',
							phone_number: '912345678',
						},
					},
					sb.state,
				);
				expect(subject.status).toBeLessThan(300);
				const subjectId = subject.json.data.id;

				await sandboxControl(
					'POST',
					`/subjects/${subjectId}/reprove`,
					{ items: ['proof_of_address_rejected'] },
					sb.state,
				);
				let executions = await waitForExecutions(workflow.id, 1, sb.state);
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;

				// FacilitaPay delivers at least once: the same event again (as a redelivery would be).
				const again = await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_reproved', subject_id: subjectId, items: ['proof_of_address_rejected'] },
					sb.state,
				);
				expect(again.data.notification).toMatchObject({ last_response_status: 200 });

				// A different event afterwards is the barrier.
				await sandboxControl('POST', `/subjects/${subjectId}/approve`, {}, sb.state);
				executions = await waitForExecutions(workflow.id, 2, sb.state);
				expect(executions).toHaveLength(2);
				expect(executions.map((e) => nodeOutput(e, TRIGGER)[0].type)).toEqual([
					'subject_reproved',
					'subject_approved',
				]);
				expect(nodeOutput(executions[1], TRIGGER)[0]).toMatchObject({
					verified: true,
					subject: { status: 'approved' },
				});
				// What Drop Duplicates remembers is saved with the workflow (hashed keys, no IDs), so it
				// outlives a restart of n8n: the trigger answers before n8n prepares the execution, which
				// is when n8n saves the static data a webhook changed.
				// During a burst the static data is written at most every 2 s; the next call catches up.
				await new Promise((resolve) => setTimeout(resolve, 2_100));
				const hookUrl = (await sandboxControl('GET', '/webhook', undefined, sb.state)).data.url;
				expect((await postRaw(hookUrl, 'not JSON', { contentType: 'text/plain' })).status).toBe(
					400,
				);
				const saved = await waitFor(
					async () => {
						const wf = await getWorkflowViaApi(workflow.id, sb.state);
						const events = wf.staticData?.[`node:${TRIGGER}`]?.emittedEvents ?? {};
						return Object.keys(events).length === 2 ? wf : null;
					},
					{ what: 'both remembered events in the static data' },
				);
				const remembered = saved.staticData?.[`node:${TRIGGER}`]?.emittedEvents ?? {};
				expect(Object.keys(remembered)).toHaveLength(2);
				expect(JSON.stringify(remembered)).not.toContain(subjectId);
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;
			},
			CLI_TIMEOUT,
		);

		test(
			'after 20 wrong secrets every notification gets the same 503, whatever its secret: the lock tells nothing, and true events are sent again, not lost',
			async () => {
				expect(workflow).toBeDefined();
				const hook = (await sandboxControl('GET', '/webhook', undefined, sb.state)).data;
				const answers = [];
				for (let n = 1; n <= 20; n++) {
					const guess = String((Number(hook.secret) + n) % 10000).padStart(4, '0');
					answers.push(
						(
							await postRaw(hook.url, {
								notification: {
									type: 'non_identified_bank_transaction',
									secret: guess,
									bank_transaction: { id: `forged-bt-${n}`, value: '5000.00' },
								},
							})
						).status,
					);
					figures.forgedWrongSecret += 1;
				}
				expect(answers.slice(0, 19)).toEqual(Array(19).fill(401));
				expect(answers[19]).toBe(503);

				// A wire naming 30 transactions, with the right and with a wrong secret: same answer.
				const subjects = await sandboxApi('GET', '/subject/people', undefined, sb.state);
				const subjectId = subjects.json.data[0].id;
				const wire = {
					type: 'wire_created',
					wire_id: 'w-lock',
					transaction_ids: Array.from({ length: 30 }, (_, n) => `t-${n}`),
				};
				const wrong = String((Number(hook.secret) + 50) % 10000).padStart(4, '0');
				const right = await postRaw(hook.url, { notification: { ...wire, secret: hook.secret } });
				const guessed = await postRaw(hook.url, { notification: { ...wire, secret: wrong } });
				expect({ status: right.status, body: right.text }).toEqual({
					status: guessed.status,
					body: guessed.text,
				});
				expect(right.status).toBe(503);

				// True events, verifiable or not, are refused for now; FacilitaPay sends them again.
				for (const event of [
					{
						type: 'non_identified_bank_transaction',
						bank_transaction: { id: 'bt-true', value: '10.00', currency: 'BRL' },
					},
					{ type: 'document_required', subject_id: subjectId, required_documents: ['x'] },
				]) {
					const sent = await sandboxControl('POST', '/events', event, sb.state);
					expect(sent.data.notification).toMatchObject({
						last_response_status: 503,
						next_attempt_at: expect.any(String),
					});
					figures.trueEventsDeferred += 1;
				}
				expect(await listExecutions({ workflowId: workflow.id }, sb.state)).toHaveLength(2);
				expect(
					JSON.stringify(
						(await listExecutions({ workflowId: workflow.id }, sb.state)).map((e) =>
							nodeOutput(e, TRIGGER),
						),
					),
				).not.toContain('forged-bt');
			},
			CLI_TIMEOUT,
		);
	});
});
