// Transaction > Wait for Payment when n8n's own time resume ends the wait (docs/waiting.md "n8n's
// own time resume"): no FacilitaPay Trigger on the account, n8n stopped while the execution waits
// (the waiter's memory is gone), the PIX PAID while n8n is down, n8n started again. Nothing of ours
// runs until n8n's WaitTracker resumes the execution at the limit: the item must go to Timed Out
// saying FacilitaPay was not read at the limit and how to check it, never to Paid (no record read)
// and never nowhere (1.123 forwards only a disabled node's first input).
import { ownN8n } from './lib/own-n8n.mjs';
import { OUTPUTS, chargeAndWait, waitingExecution } from './lib/wait-restart.mjs';
import { getExecution } from './lib/retry.mjs';
import { createPerson, samplePerson, sandboxData, sandboxControl } from './lib/sandbox.mjs';
import { INSTALL_TIMEOUT, describeE2e, sharedState, uniqueId, waitFor } from './lib/state.mjs';
import { createWorkflowViaApi, activateWorkflow } from './lib/n8n.mjs';
import { nodeOutput } from '../../scripts/n8n-runtime.mjs';

const VERSIONS = (process.env.E2E_WAIT_LIMIT_VERSIONS ?? 'v1,v2').split(',');
for (const version of /** @type {Array<'v1' | 'v2'>} */ (VERSIONS)) {
	describeE2e(
		`Wait for Payment: n8n's own time resume after a restart, no FacilitaPay Trigger (${version === 'v2' ? '2.41.1' : '1.123.81'})`,
		() => {
			/** @type {any} */
			let own;
			beforeAll(async () => {
				own = await ownN8n(sharedState(), {
					version,
					suffix: `wait-limit-${version}`,
					sandbox: { id: `wait-limit-${version}`, name: `Wait Limit ${version}` },
				});
			}, INSTALL_TIMEOUT);
			afterAll(async () => {
				await own?.stop();
				await own?.sb.close();
			}, 60_000);

			test('paid while n8n is down, no reader after the start: at the limit the item goes to Timed Out (not read at the limit, how to check), not to Paid, not nowhere', async () => {
				const subject = await createPerson(
					samplePerson(3793 + (version === 'v2' ? 1 : 2), 'Clara Limite'),
					own.sb.state,
				);
				const path = uniqueId('wait-limit');
				const workflow = await createWorkflowViaApi(
					chargeAndWait(own.sb.credentials, path, { name: 'wait limit restart', limitMinutes: 1 }),
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
					{
						what: 'n8n to resume the execution at its limit',
						timeoutMs: 240_000,
						intervalMs: 1000,
					},
				);
				const ran = OUTPUTS.filter((n) => execution.data.resultData.runData[n]);
				const runs = execution.data.resultData.runData['Wait for Payment'];
				const last = runs[runs.length - 1];
				console.log(
					`[limit ${version}] ended ${execution.status} ${Date.now() - startedAt} ms after the start: ran ${JSON.stringify(ran)}; last run of Wait for Payment ${JSON.stringify(last).slice(0, 3000)}; error ${JSON.stringify(execution.data.resultData.error ?? null).slice(0, 1500)}`,
				);
				const item = nodeOutput(execution, 'Wait for Payment', 2)?.[0];
				expect(execution.status).toBe('success');
				expect(ran).toEqual(['Timed Out']);
				expect(nodeOutput(execution, 'Wait for Payment', 0)).toEqual([]);
				expect(item.message).toContain(
					`FacilitaPay was not read at the limit: the outcome of charge ${pix.id} is unknown`,
				);
				expect(item.error).toMatchObject({
					outcome: 'timedOut',
					decidedBy: 'limit',
					checkedAtLimit: false,
					transactionId: pix.id,
					howToCheck: expect.stringContaining(`Transaction > Get with ID ${pix.id}`),
				});
			}, 420_000);
		},
	);
}
