// The example workflow "Payment alerts" (examples/payment-alerts.json) in a real n8n 2.x against
// the sandbox, imported as-is (see examples-onboard-customer.test.mjs): the workflow is published
// (the trigger registers n8n's URL), and the sandbox is driven through its control endpoints to send
// real payment, wire and KYC notifications; each must start one execution with a readable Alert.
import { randomUUID } from 'node:crypto';
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import {
	CLI_TIMEOUT,
	createPerson,
	describeE2e,
	nodeOutput,
	samplePerson,
	sandboxControl,
	sandboxData,
	testE2e,
	waitFor,
} from './lib/n8n-e2e.mjs';
import { loadExample, newExecutions, usePublishedExamples } from './lib/examples.mjs';

describeE2e('Example workflow "Payment alerts" in a real n8n 2.x', () => {
	const publish = usePublishedExamples();

	testE2e(
		'Payment alerts: approval, failure, expiry, wire correction (AC14) and reproval each start one execution with a readable Alert',
		['sandbox', 'trigger'],
		async (state) => {
			const workflow = loadExample('payment-alerts.json');
			const known = await publish(workflow, state, { trigger: true });
			const seed = (Date.now() % 1_000_000) + 7;
			const customer = await createPerson(samplePerson(seed, 'Joana Alerts'), state);

			// Card checkout: one declined attempt (payment_failed), then an approved one (payment_approved).
			const checkout = await sandboxData(
				'POST',
				'/transactions/checkout',
				{
					subject_id: customer.id,
					value: '150.00',
					currency: 'BRL',
					exchange_currency: 'BRL',
					to_bank_account_id: ACCOUNT_IDS.brlNoPixKey,
				},
				state,
			);
			const declined = (
				await sandboxControl('POST', `/transactions/${checkout.id}/pay`, { success: false }, state)
			).data;
			const approved = (
				await sandboxControl('POST', `/transactions/${checkout.id}/pay`, { success: true }, state)
			).data;
			// A dynamic PIX nobody pays (payment_expired).
			const pixBody = (/** @type {string} */ value) => ({
				transaction: {
					subject_id: customer.id,
					from_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
					to_bank_account_id: ACCOUNT_IDS.brlCustomer,
					currency: 'BRL',
					exchange_currency: 'BRL',
					value,
					use_dynamic_pix: true,
				},
			});
			const unpaid = await sandboxData('POST', '/transactions', pixBody('80.00'), state);
			await sandboxControl('POST', `/transactions/${unpaid.id}/pay`, { success: false }, state);
			// A paid dynamic PIX to the customer's own account, wired with error AC14 (wire_waiting_correction).
			const paid = await sandboxData('POST', '/transactions', pixBody('120.00'), state);
			await sandboxControl('POST', `/transactions/${paid.id}/pay`, { success: true }, state);
			const settlement = (
				await sandboxControl('POST', '/settlement/run', { wire_error_code: 'AC14' }, state)
			).data;
			const wire = settlement.wires.find((/** @type {any} */ w) =>
				w.transaction_ids.includes(paid.id),
			);
			expect(wire).toMatchObject({ status: 'waiting_correction', error_code: 'AC14' });
			// The back office reproves the customer (subject_reproved).
			await sandboxControl(
				'POST',
				`/subjects/${customer.id}/reprove`,
				{ items: ['proof_of_address_rejected', 'selfie_mismatch'], reason: 'documents_rejected' },
				state,
			);
			// The other correction codes, as the service would send them (synthetic events).
			const otherCodes = {
				AC03: 'Branch Number or Account Number',
				CH11: 'Owner Document Number',
				AG03: 'enter another account',
			};
			/** @type {Record<string, string>} */
			const otherWires = {};
			for (const code of Object.keys(otherCodes)) {
				otherWires[code] = randomUUID();
				await sandboxControl(
					'POST',
					'/events',
					{
						type: 'wire_waiting_correction',
						error_code: code,
						error_description: `sandbox ${code}`,
						bank_account_owner_id: customer.id,
						bank_account_id: ACCOUNT_IDS.brlCustomer,
						transaction_ids: [paid.id],
						wire_id: otherWires[code],
					},
					state,
				);
			}
			await sandboxControl('POST', '/deliveries/wait', undefined, state);

			/** @type {Record<string, (event: any) => boolean>} */
			const mine = {
				payment_failed: (e) => e.transaction_id === declined.id,
				payment_approved: (e) => e.transaction_id === approved.id,
				payment_expired: (e) => e.transaction_id === unpaid.id,
				wire_waiting_correction: (e) => e.wire_id === wire.id,
				subject_reproved: (e) => e.subject_id === customer.id,
			};
			const ofEvent = (/** @type {any[]} */ executions, /** @type {string} */ type) =>
				executions.filter((execution) => {
					const [event] = /** @type {any[]} */ (nodeOutput(execution, 'FacilitaPay Trigger') ?? []);
					return event?.type === type && mine[type](event);
				});
			const ofWire = (/** @type {any[]} */ executions, /** @type {string} */ code) =>
				executions.filter(
					(execution) =>
						/** @type {any[]} */ (nodeOutput(execution, 'FacilitaPay Trigger') ?? [])[0]
							?.wire_id === otherWires[code],
				);
			// Every event, the synthetic corrections included (a delivery n8n answered 503 under load,
			// "Database is not ready", comes again a minute later).
			const executions = await waitFor(
				async () => {
					const all = await newExecutions(workflow.id, state, { count: 8, known });
					const everyEvent = Object.keys(mine).every((type) => ofEvent(all, type).length > 0);
					const everyWire = Object.keys(otherCodes).every((code) => ofWire(all, code).length > 0);
					return everyEvent && everyWire ? all : null;
				},
				{ what: 'one execution per event', timeoutMs: 150_000 },
			);
			/** @type {Record<string, {title: string, message: string, severity: string}>} */
			const alerts = {};
			for (const type of Object.keys(mine)) {
				const matching = ofEvent(executions, type);
				expect({ type, executions: matching.length }).toEqual({ type, executions: 1 });
				expect(matching[0].status).toBe('success');
				const output = /** @type {any[]} */ (nodeOutput(matching[0], 'Alert'));
				expect(output).toHaveLength(1);
				expect(Object.keys(output[0]).sort()).toEqual(['message', 'severity', 'title']);
				alerts[type] = output[0];
			}

			expect(alerts.payment_approved).toEqual({
				title: 'Payment approved: BRL 150.00',
				message: `BRL 150.00 from Joana Alerts was approved (transaction ${approved.id}, checkout ${checkout.id}).`,
				severity: 'info',
			});
			expect(alerts.payment_failed.title).toBe('Payment failed: BRL 150.00');
			expect(alerts.payment_failed.message).toContain(
				`was declined (reason: card_declined, transaction ${declined.id}).`,
			);
			expect(alerts.payment_failed.message).toContain(
				`try again on the same checkout page (checkout ${checkout.id})`,
			);
			expect(alerts.payment_failed.severity).toBe('warning');
			expect(alerts.payment_expired).toEqual({
				title: 'Payment expired: BRL 80.00',
				message: `BRL 80.00 from Joana Alerts was not paid in time (transaction ${unpaid.id}). Create a new charge if the customer still wants to pay.`,
				severity: 'warning',
			});
			expect(alerts.wire_waiting_correction.title).toBe('Wire needs correction: AC14');
			expect(alerts.wire_waiting_correction.message).toContain(
				`Wire ${wire.id} to bank account ${ACCOUNT_IDS.brlCustomer} was stopped: AC14`,
			);
			expect(alerts.wire_waiting_correction.message).toContain(
				'Fix: Account Type (conta-corrente or poupanca)',
			);
			expect(alerts.wire_waiting_correction.message).toContain('Wire → Update Bank Account');
			expect(alerts.wire_waiting_correction.severity).toBe('critical');
			for (const [code, field] of Object.entries(otherCodes)) {
				const matching = ofWire(executions, code);
				expect({ code, executions: matching.length }).toEqual({ code, executions: 1 });
				const [alert] = /** @type {any[]} */ (nodeOutput(matching[0], 'Alert'));
				expect(alert.title).toBe(`Wire needs correction: ${code}`);
				expect(alert.message).toContain(`Fix: `);
				expect(alert.message).toContain(field);
			}
			expect(alerts.subject_reproved.title).toBe('Customer reproved: Joana Alerts');
			expect(alerts.subject_reproved.message).toContain(
				`Joana Alerts (${customer.id}) was reproved (documents_rejected)`,
			);
			expect(alerts.subject_reproved.message).toContain(
				'To resolve: proof of address rejected; selfie mismatch.',
			);
			expect(alerts.subject_reproved.severity).toBe('critical');
		},
		4 * CLI_TIMEOUT,
	);
});
