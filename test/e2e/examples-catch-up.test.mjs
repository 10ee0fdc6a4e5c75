// The example workflow "Catch up on missed events" (examples/catch-up-missed-events.json) in a real
// n8n 2.x against the sandbox, imported as-is (see examples-onboard-customer.test.mjs): a
// notification fails delivery 6 times (a refusing URL + the virtual clock), then `n8n execute` runs
// the workflow from its "Run Now" manual trigger (the CLI cannot start a Schedule Trigger), which
// lists and marks it.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import {
	describeE2e,
	nodeOutput,
	runWorkflow,
	sandboxApi,
	sandboxControl,
	sandboxData,
	sandboxMark,
	sandboxRequests,
	testE2e,
} from './lib/n8n-e2e.mjs';
import { loadExample } from './lib/examples.mjs';

/** A loopback port nothing listens on: connections to it are refused. */
async function refusingPort() {
	const server = net.createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {net.AddressInfo} */ (server.address());
	await new Promise((resolve) => server.close(() => resolve(undefined)));
	return port;
}

describeE2e('Example workflow "Catch up on missed events" in a real n8n 2.x', () => {
	testE2e(
		'Catch up on missed events: a notification that failed all redeliveries is listed, passed to Re-process Event and marked successful',
		['sandbox', 'node'],
		async (state) => {
			const workflow = loadExample('catch-up-missed-events.json');

			// Notifications go to a port that refuses connections: the first attempt and the 5
			// redeliveries (1, 5, 15, 60, 360 minutes of the sandbox clock) all fail.
			const port = await refusingPort();
			const enabled = await sandboxApi(
				'POST',
				'/enable_webhooks',
				{ url: `http://127.0.0.1:${port}/facilitapay` },
				state,
			);
			expect(enabled.status).toBe(200);
			const subjectId = randomUUID();
			await sandboxControl(
				'POST',
				'/events',
				{ type: 'subject_approved', subject_id: subjectId },
				state,
			);
			await sandboxControl('POST', '/deliveries/wait', undefined, state);
			for (const minutes of [1, 5, 15, 60, 360]) {
				await sandboxControl('POST', '/clock/advance', { minutes }, state);
				await sandboxControl('POST', '/deliveries/wait', undefined, state);
			}
			const failedBefore = await sandboxData(
				'GET',
				'/notifications?failed=true&per_page=1000',
				undefined,
				state,
			);
			const missed = failedBefore.find(
				(/** @type {any} */ n) => n.notification?.subject_id === subjectId,
			);
			expect(missed).toMatchObject({ attempts: 6, next_attempt_at: null });
			expect(missed.failed_at).not.toBeNull();

			const mark = await sandboxMark(state);
			const run = await runWorkflow(workflow, { nodeName: 'Mark as Handled', state });

			expect(run.error).toBeNull();
			expect(run.exitCode).toBe(0);
			const listed = /** @type {any[]} */ (nodeOutput(run.runData, 'Get Failed Notifications'));
			expect(listed.map((n) => n.id).sort()).toEqual(
				failedBefore.map((/** @type {any} */ n) => n.id).sort(),
			);
			const reprocessed = /** @type {any[]} */ (nodeOutput(run.runData, 'Re-process Event'));
			expect(reprocessed).toContainEqual(
				expect.objectContaining({
					id: missed.id,
					notification: expect.objectContaining({
						type: 'subject_approved',
						subject_id: subjectId,
					}),
				}),
			);
			expect(run.items).toHaveLength(failedBefore.length);
			// The workflow's reads of the failed list (a published FacilitaPay Trigger on this account
			// reads the log too, after its cursor).
			const listCalls = (
				await sandboxRequests({ after: mark, method: 'GET', pathPrefix: '/notifications' }, state)
			).filter((call) => call.query?.failed === 'true');
			expect(listCalls.length).toBeGreaterThanOrEqual(1);
			const marks = await sandboxRequests(
				{ after: mark, method: 'PUT', pathPrefix: '/notifications/' },
				state,
			);
			expect(marks.map((r) => r.url).sort()).toEqual(
				failedBefore.map((/** @type {any} */ n) => `/api/v1/notifications/${n.id}`).sort(),
			);
			expect(marks.every((r) => r.status === 200)).toBe(true);
			expect(await sandboxData('GET', '/notifications?failed=true', undefined, state)).toEqual([]);

			// Leave no webhook pointing at the dead port for the tests that follow.
			await sandboxApi('GET', '/disable_webhooks', undefined, state);
		},
	);
});
