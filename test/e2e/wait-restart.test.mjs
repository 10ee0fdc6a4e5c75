// Transaction > Wait for Payment across an n8n restart, with a FacilitaPay Trigger published on the
// account (docs/waiting.md "After a restart"): Webhook → Create Dynamic PIX → Wait for Payment →
// Paid / Not Paid / Timed Out. n8n is stopped while the execution waits, the PIX is paid while it
// is down, n8n starts again: the trigger's reader reads the log, the deciding record's transaction
// names the execution in its meta (n8n_facilitapay_wait), the execution resumes once, on Paid.
import { ownN8n } from './lib/own-n8n.mjs';
import { OUTPUTS, chargeAndWait, waitingExecution } from './lib/wait-restart.mjs';
import { getExecution } from './lib/retry.mjs';
import { createPerson, samplePerson, sandboxData, sandboxControl } from './lib/sandbox.mjs';
import { INSTALL_TIMEOUT, describeE2e, sharedState, uniqueId, waitFor } from './lib/state.mjs';
import { createWorkflowViaApi, activateWorkflow } from './lib/n8n.mjs';
import { publishTriggerOn } from './lib/trigger.mjs';
import { nodeOutput } from '../../scripts/n8n-runtime.mjs';

for (const version of /** @type {const} */ (['v2', 'v1'])) {
	describeE2e(
		`Wait for Payment across a restart, FacilitaPay Trigger published (${version === 'v2' ? '2.41.1' : '1.123.81'})`,
		() => {
			/** @type {any} */
			let own;
			beforeAll(async () => {
				own = await ownN8n(sharedState(), {
					version,
					suffix: `wait-restart-${version}`,
					sandbox: { id: `wait-restart-${version}`, name: `Wait Restart ${version}` },
				});
			}, INSTALL_TIMEOUT);
			afterAll(async () => {
				await own?.stop();
				await own?.sb.close();
			}, 60_000);

			test('paid while n8n is down: after the start the execution resumes once, on Paid', async () => {
				await publishTriggerOn(own, { events: ['identified'] });
				const subject = await createPerson(
					samplePerson(3790 + (version === 'v2' ? 1 : 2), 'Bruno Reinicio'),
					own.sb.state,
				);
				const path = uniqueId('wait-restart');
				const workflow = await createWorkflowViaApi(
					chargeAndWait(own.sb.credentials, path, { name: 'wait restart', limitMinutes: 10 }),
					own.state,
				);
				await activateWorkflow(workflow.id, own.state);
				await waitFor(
					async () => {
						const r = await fetch(`${own.server.url}/webhook/${path}`, {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify({ subjectId: subject.id }),
						});
						return r.status === 404 ? null : r;
					},
					{ what: 'the webhook to be registered', timeoutMs: 30_000, intervalMs: 500 },
				);
				const waiting = await waitingExecution(own, workflow.id);
				const before = await getExecution(own.server, waiting.id);
				const pix = nodeOutput(before, 'Create PIX')[0];
				const stored = await sandboxData('GET', `/transactions/${pix.id}`, undefined, own.sb.state);
				expect(stored.meta?.n8n_facilitapay_wait?.resume_url).toMatch(
					new RegExp(`/webhook-waiting/${waiting.id}`),
				);
				await own.stop();
				await sandboxControl(
					'POST',
					`/transactions/${pix.id}/pay`,
					{ success: true },
					own.sb.state,
				);
				const startedAt = Date.now();
				await own.start();
				const execution = await waitFor(
					async () => {
						const e = await getExecution(own.server, waiting.id);
						return e.status === 'success' || e.status === 'error' ? e : null;
					},
					{ what: 'the execution to resume', timeoutMs: 120_000, intervalMs: 500 },
				);
				console.log(
					`[restart ${version}] resumed ${Date.now() - startedAt} ms after the start: ran ${JSON.stringify(OUTPUTS.filter((n) => execution.data.resultData.runData[n]))}`,
				);
				expect(OUTPUTS.filter((n) => execution.data.resultData.runData[n])).toEqual(['Paid']);
				expect(nodeOutput(execution, 'Wait for Payment', 0)[0]).toMatchObject({
					outcome: 'paid',
					transactionId: pix.id,
				});
			}, 300_000);
		},
	);
}
