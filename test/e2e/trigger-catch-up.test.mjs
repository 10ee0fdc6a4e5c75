// The FacilitaPay Trigger catches up what FacilitaPay listed while n8n was down, in a real n8n 2.x
// (regular mode): n8n stopped for longer than FacilitaPay's redeliveries (1 s apart here) while 20
// payments happen, then started again, and 5 payments more while it catches up. Every payment
// starts exactly one execution, verified by FacilitaPay's notification log, within 2 minutes of the
// start, and FacilitaPay lists none of them as failed any more. n8n runs the node's trigger() again
// when it starts (ActiveWorkflowManager.addNonWebhookTriggers), not its webhook methods.
import fs from 'node:fs';
import path from 'node:path';
import {
	allExecutions,
	createPerson,
	describeE2e,
	samplePerson,
	sandboxApi,
	sandboxControl,
	triggerItems,
	useOwnTriggerN8n,
	waitFor,
} from './lib/n8n-e2e.mjs';

const TEST_TIMEOUT = 300_000;
/** The n8n versions to run it on (E2E_CATCH_UP_VERSIONS=v2,v1 adds n8n 1.123.81). */
const VERSIONS = (process.env.E2E_CATCH_UP_VERSIONS ?? 'v2').split(',').map((v) => v.trim());

/** How many executions each transaction started. */
function perTransaction(executions) {
	const counts = new Map();
	for (const execution of executions) {
		const [item] = triggerItems(execution) ?? [];
		counts.set(item?.transaction_id, (counts.get(item?.transaction_id) ?? 0) + 1);
	}
	return counts;
}

for (const version of VERSIONS)
	describeE2e(
		`FacilitaPay Trigger catch-up after n8n was down, in a real n8n ${version === 'v1' ? '1.x' : '2.x'}`,
		() => {
			const n8n = useOwnTriggerN8n(
				{
					version: /** @type {'v1'|'v2'} */ (version),
					suffix: `catch-up-${version}`,
					sandbox: {
						id: `facilitapay-trigger-catch-up-sandbox-${version}`,
						name: 'FacilitaPay Trigger Catch-up Sandbox',
					},
				},
				{ timeout: TEST_TIMEOUT },
			);

			test(
				'20 payments while n8n is down past every redelivery, 5 during the catch-up: 25 executions after the start, each once, verified, none left failed',
				async () => {
					const { own } = n8n;
					const state = own.state;
					const seed = (Date.now() % 100000) + 41000;
					const subject = await createPerson(samplePerson(seed, `Catch-up Payer ${seed}`), state);
					const workflow = await n8n.publish({ events: ['identified'] });
					await sandboxControl(
						'POST',
						'/webhooks/delivery',
						{ concurrent: true, retry_seconds: [1, 1, 1, 1, 1] },
						state,
					);
					const pay = async (count) =>
						(
							await sandboxControl(
								'POST',
								'/pix/receive_many',
								{ document_number: subject.document_number, value: '7.00', count },
								state,
							)
						).data.transaction_ids;

					const live = await pay(1);
					await waitFor(
						async () => ((await allExecutions(own.state, workflow.id)).length >= 1 ? true : null),
						{ what: 'the first live execution', timeoutMs: 60_000, intervalMs: 500 },
					);

					await own.stop();
					const whileDown = await pay(20);
					await sandboxControl('POST', '/deliveries/wait', { redeliveries: true }, state);
					const failedWhileDown = (
						await sandboxApi('GET', '/notifications?failed=true&per_page=500', undefined, state)
					).json.data;
					expect(failedWhileDown.length).toBeGreaterThanOrEqual(20);
					expect(failedWhileDown.every((record) => record.attempts === 6)).toBe(true);

					const startedAt = Date.now();
					await own.start();
					const duringCatchUp = await pay(5);
					const all = [...live, ...whileDown, ...duringCatchUp];
					const executions = await waitFor(
						async () => {
							const list = await allExecutions(own.state, workflow.id);
							return list.length >= all.length && list.every((e) => e.finished || e.stoppedAt)
								? list
								: null;
						},
						{ what: `${all.length} executions`, timeoutMs: 120_000, intervalMs: 1_000 },
					);
					const caughtUpWithin = Date.now() - startedAt;
					await sandboxControl('POST', '/deliveries/wait', { redeliveries: true }, state);
					const leftFailed = await waitFor(
						async () => {
							const failed = (
								await sandboxApi('GET', '/notifications?failed=true&per_page=500', undefined, state)
							).json.data;
							return failed.length === 0 ? failed : null;
						},
						{
							what: 'FacilitaPay to list no failed notification',
							timeoutMs: 90_000,
							intervalMs: 1_000,
						},
					).catch(
						async () =>
							(await sandboxApi('GET', '/notifications?failed=true&per_page=500', undefined, state))
								.json.data,
					);
					// A moment more: an event started twice would show up now.
					await new Promise((resolve) => setTimeout(resolve, 3_000));
					const final = await allExecutions(own.state, workflow.id);
					const counts = perTransaction(final);
					const figures = {
						payments: all.length,
						executions: final.length,
						lost: all.filter((id) => !counts.has(id)).length,
						doubled: [...counts.values()].filter((n) => n > 1).length,
						verified: final.filter((e) => triggerItems(e)?.[0]?.verified === true).length,
						failed_records_while_down: failedWhileDown.length,
						failed_records_left: leftFailed.length,
						seconds_from_start_to_all_executions: Math.round(caughtUpWithin / 100) / 10,
					};
					console.log(`catch-up figures (${version}): ${JSON.stringify(figures)}`);
					const dir = process.env.FACILITAPAY_E2E_DIR ?? '/tmp';
					fs.mkdirSync(dir, { recursive: true });
					fs.writeFileSync(
						path.join(dir, `trigger-catch-up-${version}.json`),
						`${JSON.stringify(figures, null, 2)}\n`,
					);
					expect(figures).toMatchObject({
						executions: all.length,
						lost: 0,
						doubled: 0,
						verified: all.length,
						failed_records_left: 0,
					});
					expect(caughtUpWithin).toBeLessThan(120_000);
				},
				TEST_TIMEOUT,
			);
		},
	);
