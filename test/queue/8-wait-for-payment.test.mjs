// Queue mode, case 8: Transaction > Wait for Payment (issue 37) on the cluster (main, webhook
// processor, two workers). Executions start through the webhook processor, run on a worker, and
// wait; the charges are paid after 20 s, expired, or left to the limit: each resumes the same
// execution on Paid (within 5 s of FacilitaPay listing the payment), Not Paid (expired) or Timed
// Out. Then the workers are replaced while an execution waits (the waiter lived in a worker's
// memory) and the charge is paid: n8n's leader resumes the wait at its time (a lease of at most
// 4.5 minutes), a worker runs the node's own code, which reads FacilitaPay: the same execution
// ends once, on Paid. The account notifies another system's URL (no FacilitaPay Trigger at all).
import {
	CASE_TIMEOUT,
	caseCredentials,
	caseSandbox,
	createActiveWorkflow,
	describeQueue,
	ensureWorkers,
	queueState,
	report,
	stopAndWait,
	extraWorkers,
} from './lib/queue.mjs';
import {
	executionStatuses,
	getExecution,
	listedAt,
	outcomeOf,
	startOtherReceiver,
	startWaiting,
	untilEnded,
	untilWaiting,
	waitWorkflow,
} from '../e2e/lib/waiting.mjs';
import { validCpf } from '../e2e/lib/n8n-e2e.mjs';

describeQueue(
	'queue mode: Wait for Payment on a worker, resumed through the webhook processor',
	() => {
		const sandbox = caseSandbox();
		/** @type {Awaited<ReturnType<typeof startOtherReceiver>>} */
		let other;
		/** @type {any} */
		let expiryFlow;
		/** @type {any} */
		let minuteFlow;
		let subjectId = '';
		const tag = Date.now().toString(36);
		const server = () => ({ n8nUrl: queueState().main.url, apiKey: queueState().apiKey });
		const hookUrl = () => queueState().webhook.url;

		beforeAll(async () => {
			other = await startOtherReceiver();
			await sandbox.call('POST', '/api/v1/enable_webhooks', { url: other.url });
			// A record before the waits begin (the waiter's cursor starts on a non-empty log).
			await sandbox.call('POST', '/_sandbox/events', {
				type: 'exchange_created',
				exchange_id: 'seed',
			});
			const person = {
				document_type: 'cpf',
				document_number: validCpf(80000 + (Date.now() % 10000)),
				social_name: 'Queue Wait Payer',
				fiscal_country: 'BR',
			};
			subjectId = (await sandbox.call('POST', '/api/v1/subject/people', { person })).data.id;
			const credentials = await caseCredentials(sandbox, 'FacilitaPay Queue Wait');
			const strip = (/** @type {any} */ w) => ({
				name: w.name,
				nodes: w.nodes,
				connections: w.connections,
				settings: w.settings,
			});
			expiryFlow = {
				...(await createActiveWorkflow(
					strip(waitWorkflow({ id: 'x', path: `queue-wait-${tag}`, credentials })),
				)),
				path: `queue-wait-${tag}`,
			};
			minuteFlow = {
				...(await createActiveWorkflow(
					strip(
						waitWorkflow({
							id: 'y',
							path: `queue-wait-minute-${tag}`,
							credentials,
							limit: { limitType: 'afterInterval', limitAmount: 1, limitUnit: 'minutes' },
						}),
					),
				)),
				path: `queue-wait-minute-${tag}`,
			};
		}, CASE_TIMEOUT);

		afterAll(async () => {
			await other?.close();
		});

		/** Starts one waiting execution through the webhook processor (404 until it knows the path). */
		const start = (/** @type {string} */ path) =>
			startWaiting(hookUrl(), path, { subject_id: subjectId });

		/**
		 * One execution waiting on a worker of `before`, then every worker stopped and two new ones
		 * (`after`) started: the waiter that lived in a worker's memory is gone.
		 * @param {string} before @param {string} after
		 */
		async function waitingThenWorkersReplaced(before, after) {
			const workers = await ensureWorkers(2, { prefix: before });
			const one = await start(expiryFlow.path);
			await untilWaiting(server(), one.executionId, 90_000);
			const pids = [...queueState().workers, ...extraWorkers].map((w) => w.pid);
			await stopAndWait(pids, 'the workers to stop');
			await workers.stop().catch(() => undefined);
			await ensureWorkers(2, { prefix: after });
			return one;
		}

		test(
			'paid after 20 s → Paid within 5 s of the listing; expired → Not Paid (expired); nothing by the limit → Timed Out; the same executions',
			async () => {
				await ensureWorkers(2, { prefix: 'wait' });
				const paid = await start(expiryFlow.path);
				const expired = await start(expiryFlow.path);
				const timedOut = await start(minuteFlow.path);
				for (const one of [paid, expired, timedOut])
					await untilWaiting(server(), one.executionId, 90_000);
				await sandbox.call('POST', `/_sandbox/transactions/${paid.transactionId}/pay`, {
					after_seconds: 20,
				});
				await sandbox.call('POST', `/_sandbox/transactions/${expired.transactionId}/expire`, {});

				const notPaid = await untilEnded(server(), expired.executionId, 60_000);
				expect(notPaid).toMatchObject({ status: 'success', branches: ['Not Paid'] });
				expect(notPaid.items['Not Paid'][0]).toMatchObject({
					outcome: 'notPaid',
					reason: 'expired',
				});

				const onPaid = await untilEnded(server(), paid.executionId, 90_000);
				expect(onPaid).toMatchObject({ status: 'success', branches: ['Paid'] });
				expect(onPaid.branchRuns).toEqual({ Paid: 1 });
				const listed = /** @type {number} */ (
					await listedAt(sandbox.sandboxUrl, paid.transactionId, 'identified')
				);
				const latency = /** @type {number} */ (onPaid.stoppedAt) - listed;
				report(`case 8: paid after 20 s ended ${latency} ms after FacilitaPay listed it`);
				expect(latency).toBeLessThanOrEqual(5000);

				const onTimeout = await untilEnded(server(), timedOut.executionId, 180_000);
				expect(onTimeout).toMatchObject({ status: 'success', branches: ['Timed Out'] });
				const readers = sandbox
					.requests()
					.filter((r) => r.method === 'GET' && r.path.endsWith('/notifications'))
					.map((r) => r.process);
				report(`case 8: log reads by process ${JSON.stringify(countByName(readers))}`);
				const statuses = await executionStatuses(server(), expiryFlow.id);
				expect(statuses.size).toBe(2);
			},
			CASE_TIMEOUT + 120_000,
		);

		test(
			'the workers replaced while an execution waits (its waiter gone with them), the charge paid, no FacilitaPay Trigger: the same execution resumes once, on Paid, within 5 minutes (n8n’s time of the wait runs the node’s own code)',
			async () => {
				const one = await waitingThenWorkersReplaced('wait-a', 'wait-b');
				const replacedAt = Date.now();
				await sandbox.call('POST', `/_sandbox/transactions/${one.transactionId}/pay`, {});
				const onPaid = await untilEnded(server(), one.executionId, 330_000);
				expect(onPaid).toMatchObject({ status: 'success', branches: ['Paid'] });
				expect(onPaid.branchRuns).toEqual({ Paid: 1 });
				expect(onPaid.items.Paid[0].orderId).toBe(one.orderId);
				const after = /** @type {number} */ (onPaid.stoppedAt) - replacedAt;
				report(`case 8: workers replaced, no Trigger: Paid ${after} ms after the new workers`);
				expect(after).toBeLessThanOrEqual(300_000);
				// Resumed once: nothing runs twice.
				await new Promise((resolve) => setTimeout(resolve, 25_000));
				const again = await getExecution(server(), one.executionId);
				expect(outcomeOf(again)).toMatchObject({ status: 'success', branchRuns: { Paid: 1 } });
			},
			CASE_TIMEOUT + 360_000,
		);
	},
);

/** @param {string[]} names */
function countByName(names) {
	/** @type {Record<string, number>} */
	const counts = {};
	for (const name of names) counts[name] = (counts[name] ?? 0) + 1;
	return counts;
}
