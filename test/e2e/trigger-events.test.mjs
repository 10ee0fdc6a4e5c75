// The FacilitaPay Trigger in a real n8n 2.x, with a selection of events, against a sandbox of its
// own: publishing registers n8n's production URL with the sandbox (POST /enable_webhooks); the
// notifications the sandbox sends start it, verified, forged ones are refused without an execution,
// and unpublishing forgets the secret while FacilitaPay's redelivery with it is still accepted.
// The other trigger files: trigger-registration, trigger-open-cases, trigger-duplicates.
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import {
	CLI_TIMEOUT,
	createPerson,
	deactivateWorkflow,
	describeE2e,
	guessedSecret,
	listExecutions,
	postRaw,
	samplePerson,
	createCheckout,
	createDynamicPix,
	triggerItems,
	sandboxApi,
	sandboxControl,
	sandboxMark,
	sandboxRequests,
	activateAndWaitForRegistration,
	triggerFigures,
	useTriggerSandbox,
	waitForRegistrationSaved,
} from './lib/n8n-e2e.mjs';

const figures = triggerFigures();

describeE2e(
	'FacilitaPay Trigger in a real n8n 2.x, with a selection of events, against a sandbox of its own',
	() => {
		const account = useTriggerSandbox({
			id: 'facilitapay-trigger-sandbox',
			name: 'FacilitaPay Trigger Sandbox',
		});
		/** @type {{url: string, secret: string}} */
		let webhook;
		let subjectId = '';
		/** A dynamic PIX nobody paid: still pending. */
		let pendingPixId = '';

		test(
			'activation with Events = Identified, Payment Approved, Payment Failed, Subject Reproved registers n8n’s production URL with the sandbox',
			async () => {
				const { base, registrations } = await account.publish({
					events: ['identified', 'payment_approved', 'payment_failed', 'subject_reproved'],
				});

				expect(registrations).toHaveLength(1);
				webhook = (await sandboxControl('GET', '/webhook', undefined, account.state)).data;
				expect(webhook).toMatchObject({
					enabled: true,
					url: `${account.state.n8nUrl}/webhook/wh-${base.id}/webhook`,
				});
				expect(registrations[0].body).toEqual({ url: webhook.url });
				// Only a keyed HMAC of the secret is kept in the workflow.
				const saved = await waitForRegistrationSaved(account.workflow.id, account.state);
				expect(JSON.stringify(saved.staticData)).not.toContain(`"${webhook.secret}"`);
			},
			CLI_TIMEOUT,
		);

		test(
			'a paid dynamic PIX, a declined card checkout, a declined and an approved card payment and a reproved subject each start ONE execution per event, without the secret',
			async () => {
				expect(webhook).toBeDefined();
				const seed = (Date.now() % 100000) + 3000;
				subjectId = (
					await createPerson(samplePerson(seed, `Trigger Person ${seed}`), account.state)
				).id;

				/** A card charged directly: POST /transactions with from_credit_card. */
				const chargeCard = (cardNumber, value) =>
					sandboxApi(
						'POST',
						'/transactions',
						{
							transaction: {
								subject_id: subjectId,
								to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
								currency: 'BRL',
								exchange_currency: 'BRL',
								value,
								from_credit_card: {
									card_number: cardNumber,
									card_expiration_date: '12/2034',
									card_security_code: '123',
									card_brand: 'visa',
									fullname: 'Maria da Silva',
								},
							},
						},
						account.state,
					);

				// 1. The customer pays a dynamic PIX → identified.
				const pix = await createDynamicPix(subjectId, '120.00', account.state);
				await sandboxControl(
					'POST',
					`/transactions/${pix.id}/pay`,
					{ success: true },
					account.state,
				);
				let executions = await account.next();
				const identified = triggerItems(executions.at(-1));
				expect(identified).toEqual([
					expect.objectContaining({
						type: 'identified',
						transaction_id: pix.id,
						verified: true,
						transaction: expect.objectContaining({
							id: pix.id,
							status: 'identified',
							value: '120.00',
						}),
					}),
				]);
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;

				// 2. A card attempt on a checkout page is declined → payment_failed.
				const checkout = await createCheckout(subjectId, '75.00', account.state);
				const checkoutId = checkout.checkout_id ?? checkout.id;
				await sandboxControl(
					'POST',
					`/transactions/${checkoutId}/pay`,
					{ success: false },
					account.state,
				);
				executions = await account.next();
				expect(triggerItems(executions.at(-1))).toEqual([
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

				// 2b. A card charged directly (POST /transactions with from_credit_card) is declined →
				// payment_failed, verified like any other payment event.
				const card = await chargeCard('4000000000000002', '33.00');
				expect(card.status).toBe(200);
				executions = await account.next();
				expect(triggerItems(executions.at(-1))).toEqual([
					expect.objectContaining({
						type: 'payment_failed',
						transaction_id: card.json.data.id,
						verified: true,
						transaction: expect.objectContaining({
							status: 'canceled',
							canceled_reason: 'card_declined',
						}),
					}),
				]);
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;

				// 2c. A card charged directly and approved → payment_approved, then identified: two
				// events of the one payment, each verified against FacilitaPay's record.
				const approved = await chargeCard('4111111111111111', '34.00');
				expect(approved.status).toBe(200);
				executions = await account.next(2);
				const cardEvents = executions.slice(-2).flatMap((execution) => triggerItems(execution));
				expect(cardEvents.map((event) => event.type).sort()).toEqual([
					'identified',
					'payment_approved',
				]);
				for (const event of cardEvents) {
					expect(event).toEqual(
						expect.objectContaining({
							transaction_id: approved.json.data.id,
							verified: true,
							transaction: expect.objectContaining({ id: approved.json.data.id, value: '34.00' }),
						}),
					);
					expect(JSON.stringify(event)).not.toContain('4111111111111111');
				}
				figures.trueEventsSent += 2;
				figures.trueEventsDelivered += 2;
				pendingPixId = (await createDynamicPix(subjectId, '9999.00', account.state)).id;

				// 3. The back office reproves the subject → subject_reproved.
				await sandboxControl(
					'POST',
					`/subjects/${subjectId}/reprove`,
					{ items: ['proof_of_address_rejected'] },
					account.state,
				);
				executions = await account.next();
				expect(triggerItems(executions.at(-1))).toEqual([
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
				expect(executions).toHaveLength(account.expected);
				for (const execution of executions) {
					const [item] = triggerItems(execution);
					expect(item).not.toHaveProperty('secret');
					expect(JSON.stringify(item)).not.toContain(`"secret"`);
				}
			},
			CLI_TIMEOUT,
		);

		test(
			'forged notifications start nothing (any secret, the right one too, unlisted in the log: 200; 400/422 not JSON; 401 no notification wrapper) and an event not selected starts nothing',
			async () => {
				expect(webhook).toBeDefined();
				const wrongSecret = guessedSecret(webhook.secret, 1);
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
				// Answered as a false event is (no guess tells more than another), nothing started.
				expect(forged.wrongSecret.status).toBe(200);
				expect(forged.wrongSecret.json).toEqual({ message: 'Received' });
				expect(forged.missingSecret.status).toBe(200);
				expect(forged.missingSecret.json).toEqual({ message: 'Received' });
				expect(forged.notJson.status).toBe(400);
				expect(forged.notJson.json?.message).toMatch(/not JSON/);
				// Broken JSON declared as application/json never reaches the node: n8n's own body
				// parser answers 422 (n8n 2.41.1) and starts nothing.
				expect(forged.notJsonDeclaredJson.status).toBe(422);
				expect(forged.notJsonDeclaredJson.json?.message).toBe('Failed to parse request body');
				expect(forged.noWrapper.status).toBe(401);
				expect(forged.noWrapper.json).toEqual({ message: 'Not a FacilitaPay notification' });
				figures.forgedWrongSecret += 2;

				// More guesses: no lock, the same answer each time.
				for (let n = 2; n < 12; n++) {
					const guess = guessedSecret(webhook.secret, n);
					const answer = await postRaw(webhook.url, {
						notification: {
							type: 'identified',
							secret: guess,
							transaction_id: `forged-guess-${n}`,
						},
					});
					expect(answer.status).toBe(200);
					figures.forgedWrongSecret += 1;
				}

				// The RIGHT secret posted straight with made-up content (a stranger who learnt it): the
				// same 200, and nothing starts: FacilitaPay's notification log does not list it.
				expect(pendingPixId).not.toBe('');
				const unknownTransaction = '0b5e7c2a-1f3d-4a8e-9c61-00000000dead';
				for (const notification of [
					{ type: 'identified', transaction_id: unknownTransaction },
					{ type: 'identified', transaction_id: pendingPixId, value: '9999.00' },
				]) {
					const answer = await postRaw(webhook.url, {
						notification: { ...notification, secret: webhook.secret },
					});
					expect(answer).toMatchObject({ status: 200, json: { message: 'Received' } });
					figures.forgedRightSecretFalseContent += 1;
				}

				// Signed by the sandbox but not in the selection: answered 200, nothing starts.
				const approved = await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_approved', subject_id: subjectId },
					account.state,
				);
				expect(approved.data.notification).toMatchObject({ last_response_status: 200 });

				// A selected event afterwards is the barrier: when its execution is there, any
				// execution the requests above could have started would be there too.
				await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_reproved', subject_id: subjectId, items: ['barrier'] },
					account.state,
				);
				const executions = await account.next();
				expect(executions).toHaveLength(account.expected);
				expect(triggerItems(executions.at(-1))).toEqual([
					expect.objectContaining({ type: 'subject_reproved', items: ['barrier'] }),
				]);
				const all = JSON.stringify(executions.map((e) => triggerItems(e)));
				expect(all).not.toContain('forged-');
				expect(all).not.toContain('subject_approved');
				expect(all).not.toContain(pendingPixId);
				expect(all).not.toContain(unknownTransaction);
				figures.executionsFromForgeries += executions.filter((e) => {
					const [item] = triggerItems(e);
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
			'deactivation forgets the secret; an event FacilitaPay sent meanwhile (answered 404 by n8n) starts once on reactivation, from the log; a forgery with the previous secret does not',
			async () => {
				expect(webhook).toBeDefined();
				const mark = await sandboxMark(account.state);
				await deactivateWorkflow(account.workflow.id, account.state);
				await waitForRegistrationSaved(account.workflow.id, account.state, { registered: false });
				// Disable Notifications on Deactivation is off: the account is left as it is.
				expect(
					await sandboxRequests({ after: mark, pathPrefix: '/disable_webhooks' }, account.state),
				).toHaveLength(0);
				expect(
					(await sandboxControl('GET', '/webhook', undefined, account.state)).data,
				).toMatchObject({
					enabled: true,
					url: webhook.url,
				});

				// Sent while the workflow is inactive: n8n answers 404, FacilitaPay will redeliver it later
				// with the secret it was sent with.
				const sent = await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_reproved', subject_id: subjectId, items: ['after'] },
					account.state,
				);
				expect(sent.data.notification.last_response_status).toBe(404);
				expect(
					await listExecutions({ workflowId: account.workflow.id }, account.state),
				).toHaveLength(account.expected);
				figures.trueEventsSent += 1;

				// Activated again: a new registration, a new secret.
				const oldSecret = webhook.secret;
				await activateAndWaitForRegistration(account.workflow.id, account.state);
				const renewed = (await sandboxControl('GET', '/webhook', undefined, account.state)).data;
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
				expect(replay.json).toEqual({ message: 'Received' });
				figures.forgedRightSecretFalseContent += 1;

				// The reader catches it up from the log on reactivation; FacilitaPay's redelivery (1 minute
				// later on its clock, under the previous secret) starts nothing again.
				let executions = await account.next();
				await sandboxControl('POST', '/clock/advance', { minutes: 1 }, account.state);
				await sandboxControl('POST', '/deliveries/wait', {}, account.state);
				expect(triggerItems(executions.at(-1))).toEqual([
					expect.objectContaining({ type: 'subject_reproved', items: ['after'], verified: true }),
				]);
				figures.trueEventsDelivered += 1;

				// And new events carry the new secret.
				await sandboxControl(
					'POST',
					'/events',
					{ type: 'subject_reproved', subject_id: subjectId, items: ['renewed'] },
					account.state,
				);
				executions = await account.next();
				expect(executions).toHaveLength(account.expected);
				expect(triggerItems(executions.at(-1))).toEqual([
					expect.objectContaining({ items: ['renewed'] }),
				]);
				expect(JSON.stringify(executions.map((e) => triggerItems(e)))).not.toContain('old-secret');
				figures.trueEventsSent += 1;
				figures.trueEventsDelivered += 1;
			},
			CLI_TIMEOUT,
		);
	},
);
