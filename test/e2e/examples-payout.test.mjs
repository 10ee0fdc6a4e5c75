// The example workflow "Pay out to a new customer" (examples/payout-new-customer.json) in a real
// n8n 2.x against the sandbox, imported as-is (see examples-onboard-customer.test.mjs): its
// production webhook registers the customer and their bank account, checks the balance and pays
// out once per reference, answering the caller what went wrong when it does not (an amount written
// the Brazilian way, a CPF that is not one, a balance too low); the wire event FacilitaPay sends
// then reaches the account's one FacilitaPay Trigger, in the "Payment alerts" example.
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import { knownExecutions, nodeOutput } from './lib/n8n.mjs';
import * as e2eSandbox from './lib/sandbox.mjs';
import { describeE2e, testE2e, waitFor } from './lib/state.mjs';
import { loadExample, newExecutions, nodeOfType, usePublishedExamples } from './lib/examples.mjs';

describeE2e('Example workflow "Pay out to a new customer" in a real n8n 2.x', () => {
	const publish = usePublishedExamples();

	testE2e(
		'Pay out to a new customer: the webhook registers the customer and their bank account, checks the balance, pays out once per reference, refuses what the balance does not cover, and the wire event says the payout was wired',
		['sandbox', 'node', 'trigger'],
		async (state) => {
			const workflow = loadExample('payout-new-customer.json');
			const webhook = nodeOfType(workflow, 'n8n-nodes-base.webhook');
			const known = await publish(workflow, state);
			// The account's one webhook URL: the wire event goes to the "Payment alerts" example.
			const alerts = loadExample('payment-alerts.json');
			await publish(alerts, state, { trigger: true });
			const url = `${state.n8nUrl}/webhook/${webhook.parameters.path}`;
			const seed = (Date.now() % 1_000_000) + 11;
			const cpf = e2eSandbox.validCpf(seed);
			const reference = `payout-${seed}`;
			const request = {
				reference,
				name: 'Paulo Payout',
				cpf: e2eSandbox.formattedCpf(cpf),
				email: `paulo.${seed}@example.com`,
				bank_code: '341',
				branch: '0001',
				account_number: '98765-4',
				pix_key: '',
				amount: '250.00',
			};
			const balanceBefore = await e2eSandbox.sandboxData(
				'GET',
				`/bank_accounts/${ACCOUNT_IDS.usdCashOut}/balance`,
				undefined,
				state,
			);
			const post = (/** @type {object} */ body) =>
				fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				});

			const mark = await e2eSandbox.sandboxMark(state);
			const answer = await waitFor(
				async () => {
					const response = await post(request);
					return response.status === 404 ? null : response;
				},
				{ what: `the production webhook at ${url}` },
			);
			expect(answer.status).toBe(200);
			const payout = await answer.json();
			expect(payout).toMatchObject({
				id: expect.stringMatching(/^[0-9a-f-]{36}$/),
				status: 'identified',
				value: '250.00',
				currency: 'USD',
				exchange_currency: 'BRL',
				subject_is_receiver: true,
			});

			// What reached FacilitaPay, in order: the customer, the workflow's own look for an earlier
			// payout under the reference (Find By Idempotency Key), their account, the balance, the lookup
			// of the payout's Idempotency Key in FacilitaPay's own record (docs/money.md), the payout, then
			// the key read again after the answer, from the newest record known before it (the check
			// that no overlapping execution paid under the same key: the new record, then an empty page).
			// The example's trigger reads the notification log in the background whenever it polls: its
			// reads are not part of this order.
			const received = (await e2eSandbox.sandboxRequests({ after: mark }, state)).filter(
				(r) => r.url.startsWith('/api/v1/') && r.route !== 'GET /api/v1/notifications',
			);
			expect(received.map((r) => r.route)).toEqual([
				'POST /api/v1/subject/people',
				'GET /api/v1/subject/:id/transactions',
				'POST /api/v1/subject/:id/bank_accounts',
				'GET /api/v1/bank_accounts/:id/balance',
				'GET /api/v1/subject/:id/transactions',
				'POST /api/v1/transactions',
				'GET /api/v1/subject/:id/transactions',
				'GET /api/v1/subject/:id/transactions',
			]);
			const subjectId = payout.subject_id;
			expect(received[0].body.person).toMatchObject({
				document_type: 'cpf',
				document_number: cpf,
				social_name: 'Paulo Payout',
			});
			expect(received[1].url.split('?')[0]).toBe(`/api/v1/subject/${subjectId}/transactions`);
			expect(received[2].url).toBe(`/api/v1/subject/${subjectId}/bank_accounts`);
			expect(received[2].body.bank_account).toEqual({
				currency: 'BRL',
				account_type: 'conta-corrente',
				account_number: '98765-4',
				branch_number: '0001',
				owner_name: 'Paulo Payout',
				owner_document_type: 'cpf',
				owner_document_number: cpf,
				branch_country: 'BRA',
				bank: { code: '341' },
			});
			expect(received[3].url).toBe(`/api/v1/bank_accounts/${ACCOUNT_IDS.usdCashOut}/balance`);
			const [execution] = await newExecutions(workflow.id, state, { known, what: 'the payout' });
			const [account] = /** @type {any[]} */ (nodeOutput(execution, 'Register Bank Account'));
			const [balance] = /** @type {any[]} */ (nodeOutput(execution, 'Check Balance'));
			expect(balance).toMatchObject({
				bank_account_id: ACCOUNT_IDS.usdCashOut,
				balance: balanceBefore.balance,
				currency: 'USD',
			});
			expect(received[4].url.split('?')[0]).toBe(`/api/v1/subject/${subjectId}/transactions`);
			expect(received[5].body.transaction).toEqual({
				subject_id: subjectId,
				from_bank_account_id: ACCOUNT_IDS.usdCashOut,
				to_bank_account_id: account.id,
				currency: 'USD',
				exchange_currency: 'BRL',
				value: '250.00',
				// The key and the fingerprint of what it pays (a key reused for another payment is refused).
				meta: {
					n8n_facilitapay_ref: expect.stringMatching(/^key:/),
					n8n_facilitapay_fp: expect.stringMatching(/^[\w-]{16}$/),
				},
			});
			expect(payout.to_bank_account).toMatchObject({ id: account.id, owner_name: 'Paulo Payout' });
			expect(payout.payout_method).toBe('ted');
			const balanceAfter = await e2eSandbox.sandboxData(
				'GET',
				`/bank_accounts/${ACCOUNT_IDS.usdCashOut}/balance`,
				undefined,
				state,
			);
			expect(balanceAfter.debit_transactions).toBe(balanceBefore.debit_transactions + 1);

			// The same reference again: the Idempotency Key pays it once (alreadyDone, no second payout).
			const againMark = await e2eSandbox.sandboxMark(state);
			const again = await post(request);
			expect(again.status).toBe(200);
			expect(await again.json()).toMatchObject({ alreadyDone: true });
			const againCalls = await e2eSandbox.sandboxRequests(
				{ after: againMark, method: 'POST', pathPrefix: '/transactions' },
				state,
			);
			expect(againCalls).toEqual([]);

			// More than the balance: stopped before any payout, the caller gets an error.
			const tooMuchMark = await e2eSandbox.sandboxMark(state);
			const tooMuch = await post({
				...request,
				reference: `${reference}-big`,
				amount: '99999999.00',
			});
			expect(tooMuch.status).toBe(409);
			expect((await tooMuch.json()).error).toBe(
				`Not enough balance for this payout: USD 99999999.00 asked, USD ${balanceAfter.balance} in the cash-out account. Nothing was paid.`,
			);
			expect(
				await e2eSandbox.sandboxRequests(
					{ after: tooMuchMark, method: 'POST', pathPrefix: '/transactions' },
					state,
				),
			).toEqual([]);

			// FacilitaPay wires the payout: wire_created starts the Payment alerts workflow, whose
			// alert names the payout.
			const beforeWire = await knownExecutions(alerts.id, state);
			const settlement = (await e2eSandbox.sandboxControl('POST', '/settlement/run', {}, state))
				.data;
			const wire = settlement.wires.find((/** @type {any} */ w) =>
				w.transaction_ids.includes(payout.id),
			);
			expect(wire).toMatchObject({ status: 'sent', currency: 'BRL' });
			await e2eSandbox.sandboxControl('POST', '/deliveries/wait', undefined, state);
			const wired = await waitFor(
				async () => {
					const executions = await newExecutions(alerts.id, state, { known: beforeWire });
					return (
						executions.find(
							(e) =>
								/** @type {any[]} */ (nodeOutput(e, 'FacilitaPay Trigger') ?? [])[0]?.wire_id ===
								wire.id,
						) ?? null
					);
				},
				{ what: 'the wire_created execution of Payment alerts', timeoutMs: 60_000 },
			);
			expect(wired.status).toBe('success');
			const [alert] = /** @type {any[]} */ (nodeOutput(wired, 'Alert'));
			expect(alert.title).toBe(`Money sent: wire ${wire.id}`);
			expect(alert.severity).toBe('info');
			expect(alert.message).toContain(`Payout ${payout.id} to Paulo Payout was wired: BRL `);
			expect(alert.message).toContain(`(USD 250.00 sent, wire ${wire.id}).`);
			// Nothing of it ran in the payout workflow: it has no trigger to fight over the URL.
			expect(
				(await newExecutions(workflow.id, state, { known, count: 0 })).filter(
					(e) => e.mode === 'trigger',
				),
			).toEqual([]);
		},
	);

	testE2e(
		'Pay out to a new customer: a Brazilian amount, a bad amount and an invalid CPF are answered with what to fix (400, 422), and nothing is registered or paid',
		['sandbox', 'node'],
		async (state) => {
			const workflow = loadExample('payout-new-customer.json');
			const webhook = nodeOfType(workflow, 'n8n-nodes-base.webhook');
			await publish(workflow, state);
			const url = `${state.n8nUrl}/webhook/${webhook.parameters.path}`;
			const seed = (Date.now() % 1_000_000) + 23;
			const request = {
				reference: `payout-bad-${seed}`,
				name: 'Bruna Brasil',
				cpf: e2eSandbox.formattedCpf(e2eSandbox.validCpf(seed)),
				email: `bruna.${seed}@example.com`,
				bank_code: '341',
				branch: '0001',
				account_number: '98765-4',
				pix_key: '',
				amount: '10,50',
			};
			const post = async (/** @type {object} */ body) => {
				const response = await waitFor(
					async () => {
						const answer = await fetch(url, {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify(body),
						});
						return answer.status === 404 ? null : answer;
					},
					{ what: `the production webhook at ${url}` },
				);
				return { status: response.status, body: await response.json() };
			};
			const mark = await e2eSandbox.sandboxMark(state);

			const cases = [
				['10,50', '10.50'],
				['1.234,56', '1234.56'],
				['10.5', '10.50'],
				['250', '250.00'],
				['abc', '10.50'],
				['0.00', '10.50'],
			];
			for (const [amount, example] of cases) {
				const answer = await post({ ...request, amount });
				expect({ amount, status: answer.status }).toEqual({ amount, status: 400 });
				expect(answer.body).toEqual({
					error: `Invalid amount ${JSON.stringify(amount)}: write the amount in USD as text with a dot and exactly two decimals, no thousands separators, greater than zero, e.g. ${example}. Nothing was registered or paid.`,
					field: 'amount',
					example,
				});
			}
			// Nothing reached FacilitaPay for any of them: the amount is checked first.
			expect(
				(await e2eSandbox.sandboxRequests({ after: mark }, state)).filter((r) =>
					r.url.startsWith('/api/v1/subject'),
				),
			).toEqual([]);

			// A CPF whose check digits are wrong: the FacilitaPay node's own message, its fix and step.
			const digits = e2eSandbox.validCpf(seed);
			const wrongCpf = digits.slice(0, 10) + String((Number(digits[10]) + 1) % 10);
			const refused = await post({ ...request, amount: '10.50', cpf: wrongCpf });
			expect(refused.status).toBe(422);
			expect(refused.body).toMatchObject({
				error: expect.stringMatching(/^Invalid Document Number \(item 0\): .*not a valid CPF/),
				step: 'Create or Update Customer',
				outcome: 'notSent',
			});
			expect(refused.body.fix).toEqual(expect.any(String));
			expect(
				(await e2eSandbox.sandboxRequests({ after: mark }, state)).filter((r) =>
					r.url.startsWith('/api/v1/subject'),
				),
			).toEqual([]);
		},
	);
});
