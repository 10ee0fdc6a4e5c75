// The example workflow "Collect a PIX payment, then confirm the order" (examples/collect-pix-payment.json)
// in a real n8n 2.x against the sandbox, imported as-is: the shop POSTs an order, gets the PIX code
// at once, and the same execution waits until FacilitaPay decides the charge: paid → Confirm Order,
// expired → Cancel Order with the reason. The account notifies another system's URL when no trigger
// has registered n8n's (FacilitaPay lists what it sends; the wait reads that list).
import { loadExample, nodeOfType, usePublishedExamples } from './lib/examples.mjs';
import * as e2eSandbox from './lib/sandbox.mjs';
import { describeE2e, testE2e, waitFor } from './lib/state.mjs';
import { startOtherReceiver, untilEnded, untilWaiting } from './lib/waiting.mjs';

describeE2e(
	'Example workflow "Collect a PIX payment, then confirm the order" in a real n8n 2.x',
	() => {
		const publish = usePublishedExamples();
		/** @type {Awaited<ReturnType<typeof startOtherReceiver>> | null} */
		let other = null;
		afterAll(async () => {
			await other?.close();
		});

		testE2e(
			'the shop gets the PIX code at once; paid → Confirm Order in the same execution; expired → Cancel Order with the reason',
			['sandbox', 'node'],
			async (state) => {
				const hook = (await e2eSandbox.sandboxControl('GET', '/webhook', undefined, state)).data;
				if (!hook.enabled) {
					other = await startOtherReceiver();
					await e2eSandbox.sandboxData('POST', '/enable_webhooks', { url: other.url }, state);
				}
				const workflow = loadExample('collect-pix-payment.json');
				const webhook = nodeOfType(workflow, 'n8n-nodes-base.webhook');
				await publish(workflow, state);
				const url = `${state.n8nUrl}/webhook/${webhook.parameters.path}`;
				const server = {
					n8nUrl: /** @type {string} */ (state.n8nUrl),
					apiKey: /** @type {string} */ (state.apiKey),
				};
				const seed = (Date.now() % 1_000_000) + 37;
				const order = (/** @type {string} */ id, /** @type {number} */ n) => ({
					order_id: id,
					name: 'Clara Compradora',
					cpf: e2eSandbox.formattedCpf(e2eSandbox.validCpf(seed + n)),
					email: `clara.${seed + n}@example.com`,
					amount: '149.90',
				});
				const place = async (/** @type {object} */ body) => {
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
					expect(response.status).toBe(200);
					return response.json();
				};

				const paidOrder = await place(order(`order-${seed}-1`, 1));
				expect(paidOrder).toMatchObject({
					order_id: `order-${seed}-1`,
					transaction_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
					pix_code: expect.stringMatching(/^000201/),
					expires_at: expect.stringMatching(/Z$/),
				});
				const unpaidOrder = await place(order(`order-${seed}-2`, 2));

				const executionOf = async (/** @type {string} */ transactionId) =>
					waitFor(
						async () => {
							const executions = await (
								await fetch(
									`${state.n8nUrl}/api/v1/executions?workflowId=${workflow.id}&includeData=true&limit=20`,
									{ headers: { 'X-N8N-API-KEY': String(state.apiKey) } },
								)
							).json();
							return executions.data.find((/** @type {any} */ e) =>
								JSON.stringify(e.data?.resultData?.runData?.['Create PIX Charge'] ?? '').includes(
									transactionId,
								),
							);
						},
						{ what: `the execution of ${transactionId}` },
					);
				const paidExecution = await executionOf(paidOrder.transaction_id);
				const unpaidExecution = await executionOf(unpaidOrder.transaction_id);
				await untilWaiting(server, String(paidExecution.id));
				await untilWaiting(server, String(unpaidExecution.id));

				await e2eSandbox.sandboxControl(
					'POST',
					`/transactions/${paidOrder.transaction_id}/pay`,
					{},
					state,
				);
				await e2eSandbox.sandboxControl(
					'POST',
					`/transactions/${unpaidOrder.transaction_id}/expire`,
					{},
					state,
				);

				const confirmed = await untilEnded(server, String(paidExecution.id), 60_000);
				expect(confirmed.status).toBe('success');
				const runData = (
					await (
						await fetch(`${state.n8nUrl}/api/v1/executions/${paidExecution.id}?includeData=true`, {
							headers: { 'X-N8N-API-KEY': String(state.apiKey) },
						})
					).json()
				).data.resultData.runData;
				expect(Object.keys(runData)).toEqual(expect.arrayContaining(['Confirm Order']));
				expect(runData['Cancel Order']).toBeUndefined();
				expect(runData['Check by Hand']).toBeUndefined();
				expect(runData['Confirm Order'][0].data.main[0][0].json).toEqual({
					order_id: `order-${seed}-1`,
					status: 'paid',
					transaction_id: paidOrder.transaction_id,
					amount: '149.90',
					message: `Order order-${seed}-1 is paid (BRL 149.90, PIX ${paidOrder.transaction_id}): ship it.`,
				});

				const canceled = await untilEnded(server, String(unpaidExecution.id), 60_000);
				expect(canceled.status).toBe('success');
				const canceledData = (
					await (
						await fetch(
							`${state.n8nUrl}/api/v1/executions/${unpaidExecution.id}?includeData=true`,
							{
								headers: { 'X-N8N-API-KEY': String(state.apiKey) },
							},
						)
					).json()
				).data.resultData.runData;
				expect(canceledData['Confirm Order']).toBeUndefined();
				expect(canceledData['Cancel Order'][0].data.main[0][0].json).toMatchObject({
					order_id: `order-${seed}-2`,
					status: 'not_paid',
					reason: 'expired',
					message: `Order order-${seed}-2 was not paid (expired): release the stock and tell the customer.`,
				});
			},
			240_000,
		);
	},
);
