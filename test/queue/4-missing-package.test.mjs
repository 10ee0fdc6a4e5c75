// Queue mode, case 4: a worker WITHOUT our package (the package installed on the main and the
// webhook processor only, a common deployment mistake). The webhook processor has the package, so
// it checks the notification and answers FacilitaPay 200 (FacilitaPay will not send it again); the
// worker cannot run the workflow. What the user sees, asserted here: a FAILED execution in the list
// with n8n's "Unrecognized node type: n8n-nodes-facilitapay.facilitaPayTrigger", the same line in the
// worker's log; n8n does not keep the event itself (the error replaces the execution's data), but
// FacilitaPay's notification log still has it; once the worker has the package, events run again.
// The deployment checklist is in docs/queue-mode.md. It stops the workers it started.
import fs from 'node:fs';
import path from 'node:path';
import { stopStarted } from '../../scripts/queue-cluster.mjs';
import {
	CASE_TIMEOUT,
	NODE_TYPES,
	allExecutions,
	caseCredentials,
	caseSandbox,
	createActiveWorkflow,
	describeQueue,
	executionsByWorker,
	nodeOutput,
	queueState,
	registerSubjects,
	report,
	startExtraWorker,
	stopAndWait,
	triggerNode,
	waitFor,
	waitForExecutions,
} from './lib/queue.mjs';

const TRIGGER = 'FacilitaPay Trigger';

describeQueue('queue mode: a worker without the FacilitaPay package', () => {
	const sandbox = caseSandbox();

	afterAll(async () => {
		// The workers this file started, only: the cluster's own, and the main and webhook processor
		// the trigger's catch-up case restarted, are stopped by the global teardown (stopCluster here
		// killed that main, and the files after this one found no n8n).
		await stopStarted();
	});

	test(
		'the webhook processor answers FacilitaPay 200, the execution fails visibly naming the package (the event stays in FacilitaPay’s notification log), and with the package installed the next event runs',
		async () => {
			const state = queueState();
			const credentials = await caseCredentials(sandbox, 'FacilitaPay Queue Missing Package');
			const webhookId = `queue-missing-${Date.now().toString(36)}`;
			const workflow = await createActiveWorkflow({
				name: 'queue: trigger with a worker lacking the package',
				nodes: [triggerNode({ webhookId, credentials, name: TRIGGER })],
			});
			await waitFor(
				async () =>
					sandbox.requests().find((r) => r.path.endsWith('/enable_webhooks') && r.status === 200),
				{
					what: 'the trigger to register its URL',
				},
			);

			// Only a worker without the package is left.
			await stopAndWait(
				state.workers.map((w) => w.pid),
				'the two workers to stop',
			);
			const bare = await startExtraWorker('worker-bare', { withPackage: false });
			expect(
				fs.existsSync(
					path.join(bare.folder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-facilitapay'),
				),
			).toBe(false);

			const [missingPackageSubject, afterFixSubject] = await registerSubjects(
				sandbox,
				2,
				'Queue Worker',
			);
			await sandbox.call('POST', '/_sandbox/events', {
				type: 'subject_approved',
				subject_id: missingPackageSubject,
			});
			await sandbox.call('POST', '/_sandbox/deliveries/wait');
			const [notification] = (await sandbox.call('GET', '/api/v1/notifications')).data;
			// FacilitaPay's side: delivered and acknowledged, so it will never be sent again.
			expect(notification).toMatchObject({ last_response_status: 200, attempts: 1 });

			const [failed] = await waitForExecutions(workflow.id, 1, 60_000);
			const [withData] = await allExecutions(workflow.id, { includeData: true });
			const error = withData.data?.resultData?.error;
			const message = `${error?.message ?? ''} ${error?.description ?? ''}`;
			report(
				`case 4 (missing package): execution ${failed.id} status "${failed.status}", error "${message.trim().slice(0, 200)}"`,
			);
			// Visible as failed in the execution list, naming our package's node type.
			expect(failed.status).toBe('error');
			expect(message).toContain(`Unrecognized node type: ${NODE_TYPES.trigger}`);
			expect(executionsByWorker().get(String(failed.id))).toEqual(['worker-bare']);
			// The worker's log names it too.
			expect(fs.readFileSync(bare.logFile, 'utf8')).toContain(NODE_TYPES.trigger);
			// n8n replaced the execution's data with the error: the event itself is not in n8n any more...
			expect(nodeOutput(withData, TRIGGER)).toBeUndefined();
			expect(JSON.stringify(withData.data)).not.toContain(missingPackageSubject);
			// ...but FacilitaPay's notification log still has it (FacilitaPay node: Notification → Get Many).
			expect(notification.notification).toMatchObject({
				type: 'subject_approved',
				subject_id: missingPackageSubject,
			});

			// The fix: a worker WITH the package replaces it; the next event runs.
			await startExtraWorker('worker-3');
			await stopAndWait([bare.proc.pid], 'the worker without the package to stop');

			await sandbox.call('POST', '/_sandbox/events', {
				type: 'subject_approved',
				subject_id: afterFixSubject,
			});
			const all = await waitForExecutions(workflow.id, 2, 60_000);
			const next = all.find((e) => String(e.id) !== String(failed.id));
			expect(next?.status).toBe('success');
			const withOutput = (await allExecutions(workflow.id, { includeData: true })).find(
				(e) => String(e.id) === String(next.id),
			);
			expect(nodeOutput(withOutput, TRIGGER)).toEqual([
				expect.objectContaining({
					type: 'subject_approved',
					subject_id: afterFixSubject,
					verified: true,
				}),
			]);
			expect(executionsByWorker().get(String(next.id))).toEqual(['worker-3']);
			report(
				`case 4 (missing package): after installing the package on the worker, the next event → "${next.status}" on worker-3`,
			);
		},
		CASE_TIMEOUT,
	);
});
