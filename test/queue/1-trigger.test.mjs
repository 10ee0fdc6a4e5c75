// Queue mode, case 1: a published FacilitaPay Trigger workflow. The main registers the webhook
// processor's URL with FacilitaPay (the sandbox); the sandbox delivers 200 notifications to the
// webhook processor, which answers 200 and starts nothing itself; the leader main's reader of
// FacilitaPay's notification log starts one execution per record, which the two workers run.
// Exactly 200 successful executions, each event once, on both workers; a burst of payments
// delivered together with a 10 s timeout and redeliveries; 50 forged notifications (and the right
// secret with false content) start nothing: the true event after them starts one execution. Then
// the fleet's main and webhook processor are stopped past FacilitaPay's redeliveries while 20
// payments happen, started again, 5 payments during the catch-up: each starts once.
import {
	CASE_TIMEOUT,
	executionsOf,
	caseCredentials,
	caseSandbox,
	countBy,
	createActiveWorkflow,
	describeQueue,
	executionsByWorker,
	nodeOutput,
	publishedAndRegistered,
	queueState,
	report,
	triggerNode,
	waitFor,
	waitForExecutions,
	registerSubjects,
	updateQueueState,
} from './lib/queue.mjs';
import { isAlive, killGroup } from '../../scripts/n8n-runtime.mjs';
import { isNotice, noticeOf } from '../e2e/lib/trigger.mjs';
import { adoptRun, clusterEnv, startN8nProcess } from '../../scripts/queue-cluster.mjs';

const EVENTS = 200;
const BURST = 100;
const FORGED = 50;
/** How the forged notifications were answered, for the report. @type {Record<string, number>} */
let forgedAnswers = {};
const TRIGGER = 'FacilitaPay Trigger';

describeQueue('queue mode: FacilitaPay Trigger on a webhook processor and two workers', () => {
	const sandbox = caseSandbox();
	/** @type {any} */
	let workflow;
	let webhookUrl = '';
	let secret = '';

	/**
	 * Publishes a workflow of one trigger, waits until it registered its URL with FacilitaPay, and
	 * registers a payer. @param {{name: string, trigger: any, what: string, payerName: string}} o
	 */
	async function publishedWithPayer({ name, trigger, what, payerName }) {
		const published = await publishedAndRegistered(sandbox, what, { name, nodes: [trigger] });
		const [payer] = await registerSubjects(sandbox, 1, payerName);
		const documentNumber = (await sandbox.call('GET', `/api/v1/subject/people/${payer}`)).data
			.document_number;
		return { workflow: published, documentNumber };
	}

	/**
	 * publishedWithPayer for a trigger on credentials of its own, `label` naming them, the workflow,
	 * its webhook ID and the payer; `trigger` adds to the node (its version, its parameters).
	 * @param {string} label @param {object} trigger
	 */
	async function publishedTrigger(label, trigger) {
		const credentials = await caseCredentials(sandbox, `FacilitaPay Queue Trigger ${label}`);
		const lower = label.toLowerCase();
		const webhookId = `queue-${lower}-${Date.now().toString(36)}`;
		return publishedWithPayer({
			name: `queue: FacilitaPay Trigger ${lower}`,
			trigger: { ...triggerNode({ webhookId, credentials, name: TRIGGER }), ...trigger },
			what: `the ${lower} workflow`,
			payerName: `Queue ${label} Payer`,
		});
	}

	test(
		'publishing on the main registers the webhook processor’s production URL with FacilitaPay',
		async () => {
			const state = queueState();
			const credentials = await caseCredentials(sandbox, 'FacilitaPay Queue Trigger');
			const webhookId = `queue-trigger-${Date.now().toString(36)}`;
			workflow = await createActiveWorkflow({
				name: 'queue: FacilitaPay Trigger',
				nodes: [triggerNode({ webhookId, credentials, name: TRIGGER })],
			});

			const registration = await waitFor(
				async () =>
					sandbox
						.requests()
						.find((r) => r.method === 'POST' && r.path.endsWith('/enable_webhooks')),
				{ what: 'the trigger to register its URL (POST /enable_webhooks)' },
			);
			const webhook = (await sandbox.call('GET', '/_sandbox/webhook')).data;
			webhookUrl = webhook.url;
			secret = webhook.secret;
			// The main ran the trigger's activation; the URL is the webhook processor's.
			expect(registration).toMatchObject({ process: 'main', status: 200 });
			expect(webhook).toMatchObject({
				enabled: true,
				url: `${state.webhook.url}/webhook/${webhookId}/webhook`,
			});
		},
		CASE_TIMEOUT,
	);

	test(
		`${EVENTS} notifications delivered by FacilitaPay give exactly ${EVENTS} successful executions, each event once, run on both workers`,
		async () => {
			expect(webhookUrl).not.toBe('');
			const startedAt = Date.now();
			const subjectIds = (await registerSubjects(sandbox, EVENTS, 'Queue Subject')).sort();
			for (const subjectId of subjectIds) {
				await sandbox.call('POST', '/_sandbox/events', {
					type: 'subject_approved',
					subject_id: subjectId,
				});
			}
			await sandbox.call('POST', '/_sandbox/deliveries/wait');
			const notifications = (await sandbox.call('GET', '/api/v1/notifications?per_page=1000')).data;
			// FacilitaPay's side: every notification answered 200 at the first attempt.
			expect(notifications).toHaveLength(EVENTS);
			expect(
				countBy(
					notifications.map((/** @type {any} */ n) => `${n.last_response_status}/${n.attempts}`),
				),
			).toEqual({ '200/1': EVENTS });

			const finished = await waitForExecutions(workflow.id, EVENTS);
			const seconds = (Date.now() - startedAt) / 1000;
			const executions = await executionsOf(workflow.id, { includeData: true });
			expect(executions).toHaveLength(EVENTS);
			expect(finished).toHaveLength(EVENTS);
			expect(countBy(executions.map((e) => e.status))).toEqual({ success: EVENTS });

			// Each event exactly once (none lost, none doubled), without the secret.
			const received = executions.map((e) => {
				const items = nodeOutput(e, TRIGGER);
				expect(items).toHaveLength(1);
				// Verified with the API before the workflow started.
				expect(items[0]).toMatchObject({ verified: true, subject: { id: items[0].subject_id } });
				return items[0].subject_id;
			});
			expect([...received].sort()).toEqual(subjectIds);
			expect(JSON.stringify(executions.map((e) => nodeOutput(e, TRIGGER)))).not.toContain(
				`"${secret}"`,
			);

			// Which worker ran each: every execution by exactly one worker, and both workers worked.
			const ranBy = executionsByWorker();
			const workerOf = executions.map((e) => {
				const workers = ranBy.get(String(e.id)) ?? [];
				expect({ execution: e.id, workers: workers.length }).toEqual({
					execution: e.id,
					workers: 1,
				});
				return workers[0];
			});
			const perWorker = countBy(workerOf);
			expect(Object.keys(perWorker).sort()).toEqual(
				queueState()
					.workers.map((w) => w.name)
					.sort(),
			);

			report(
				`case 1 (trigger): ${EVENTS} events sent, ${notifications.length} delivered (200 at first attempt), ` +
					`${new Set(received).size} distinct in ${executions.length} executions (lost ${EVENTS - new Set(received).size}, doubled ${executions.length - new Set(received).size}); ` +
					`executions per worker ${JSON.stringify(perWorker)}; ${seconds.toFixed(1)} s from first event to last execution`,
			);
		},
		CASE_TIMEOUT,
	);

	test(
		`a burst: ${BURST} payments at once, the API at 20 reads/s, FacilitaPay delivering them together (10 s timeout, redelivery after 1, 2, 4, 8, 16 s): ${BURST} executions, none lost, none doubled`,
		async () => {
			expect(webhookUrl).not.toBe('');
			const { workflow: burstWorkflow, documentNumber } = await publishedTrigger('Burst', {
				parameters: { events: ['identified'], options: { dropDuplicates: true } },
			});
			await sandbox.call('POST', '/_sandbox/webhooks/delivery', {
				concurrent: true,
				timeout_ms: 10_000,
				retry_seconds: [1, 2, 4, 8, 16],
			});
			await sandbox.call('POST', '/_sandbox/rate_limit', { per_second: 20, burst: 20 });
			const startedAt = Date.now();
			const { transaction_ids: ids } = (
				await sandbox.call('POST', '/_sandbox/pix/receive_many', {
					document_number: documentNumber,
					value: '5.00',
					count: BURST,
				})
			).data;
			await sandbox.call('POST', '/_sandbox/deliveries/wait', { redeliveries: true });
			await waitForExecutions(burstWorkflow.id, BURST).catch(() => undefined);
			const executions = await executionsOf(burstWorkflow.id, { includeData: true });
			const seconds = (Date.now() - startedAt) / 1000;
			const perTransaction = countBy(
				executions.map((e) => String(nodeOutput(e, TRIGGER)?.[0]?.transaction_id)),
			);
			const delivery = (await sandbox.call('GET', '/_sandbox/webhooks/delivery')).data;
			const rate = (await sandbox.call('GET', '/_sandbox/rate_limit')).data;
			await sandbox.call('DELETE', '/_sandbox/rate_limit');
			const figures = {
				executions: executions.length,
				lost: ids.filter((/** @type {string} */ id) => !perTransaction[id]).length,
				doubled: Object.values(perTransaction).filter((n) => n > 1).length,
				reads429: rate.limited,
				deliveries: delivery.stats.attempts,
				answers: delivery.stats.by_status,
				seconds: Number(seconds.toFixed(1)),
			};
			report(`case 1 (trigger burst): ${BURST} payments → ${JSON.stringify(figures)}`);
			expect(figures).toMatchObject({ executions: BURST, lost: 0, doubled: 0 });
			expect(countBy(executions.map((e) => e.status))).toEqual({ success: BURST });
		},
		CASE_TIMEOUT,
	);
	test(
		`${FORGED} forged notifications start nothing on the webhook processor, then 1 true event starts 1 execution`,
		async () => {
			expect(webhookUrl).not.toBe('');
			const statuses = [];
			for (let i = 0; i < FORGED; i++) {
				// Wrong secrets, no secret, and the right shape otherwise.
				const wrong =
					i % 5 === 0 ? undefined : String((Number(secret) + 1 + i) % 10000).padStart(4, '0');
				const response = await fetch(webhookUrl, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						notification: {
							type: 'subject_approved',
							subject_id: `forged-${i}`,
							...(wrong ? { secret: wrong } : {}),
						},
					}),
				});
				statuses.push(response.status);
				await response.text();
			}
			// Unlisted in FacilitaPay's records: answered as a false event is (200), nothing started,
			// nothing counted against the true events.
			expect(countBy(statuses.map(String))).toEqual({ 200: FORGED });
			forgedAnswers = countBy(statuses.map(String));
			// The burst workflow took the account's URL: this workflow's reader sees FacilitaPay list
			// records for another URL and may tell the user so (a notice, a failed execution); that
			// is not an execution the forgeries started.
			// (n8n's listing may leave out an execution for a moment under load: asked until the 200
			// are all there, then exactly 200.)
			const eventRuns = await waitFor(
				async () => {
					const list = (await executionsOf(workflow.id)).filter((e) => !isNotice(e));
					return list.length >= EVENTS ? list : null;
				},
				{ what: `the ${EVENTS} executions of the events`, timeoutMs: 60_000 },
			);
			expect(eventRuns).toHaveLength(EVENTS);

			// The right secret posted straight (a stranger who learnt it): the same 200, nothing
			// started: FacilitaPay's notification log does not list it.
			const rightSecret = await fetch(webhookUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					notification: { type: 'subject_approved', subject_id: 'forged-right', secret },
				}),
			});
			expect(rightSecret.status).toBe(200);
			// Then one true event, sent by FacilitaPay (the sandbox) to this workflow's URL (the burst
			// workflow took the account's URL since: point it back), naming a real subject.
			await sandbox.call('POST', '/api/v1/enable_webhooks', { url: webhookUrl });
			const [subjectId] = await registerSubjects(sandbox, 1, 'Queue After Forgeries');
			await sandbox.call('POST', '/_sandbox/events', {
				type: 'subject_approved',
				subject_id: subjectId,
			});
			await waitFor(
				async () => {
					const list = (await executionsOf(workflow.id)).filter((e) => !isNotice(e));
					return list.length >= EVENTS + 1 &&
						list.every((e) => !['new', 'running', 'waiting'].includes(e.status))
						? list
						: null;
				},
				{ what: `${EVENTS + 1} executions events started`, timeoutMs: 240_000 },
			);
			const all = await executionsOf(workflow.id, { includeData: true });
			const executions = all.filter((e) => !isNotice(e));
			expect(executions).toHaveLength(EVENTS + 1);
			expect(
				executions.filter((e) => nodeOutput(e, TRIGGER)?.[0]?.subject_id === subjectId),
			).toHaveLength(1);
			// What the user was told meanwhile: at most once, that FacilitaPay sent to another URL
			// (the burst workflow's), never that the forgeries were true or a second time.
			const notices = all.filter(isNotice).map((e) => noticeOf(e).message);
			expect(notices.length).toBeLessThanOrEqual(1);
			for (const message of notices) expect(message).toMatch(/sent to .*this workflow's URL/);
			report(
				`case 1 (trigger): ${FORGED} forged → ${JSON.stringify(forgedAnswers)} and 0 executions; then 1 true → 1 execution; notices: ${JSON.stringify(notices)}`,
			);
		},
		CASE_TIMEOUT,
	);

	test(
		'catch-up: main and webhook processor stopped past every redelivery while 20 payments happen, started again, 5 more during the catch-up: 25 executions, each once, none left failed',
		async () => {
			const state = queueState();
			// The burst workflow's account: this one takes the URL.
			const { workflow: catchUp, documentNumber } = await publishedTrigger('Catch-up', {
				typeVersion: 2,
				parameters: { events: ['identified'] },
			});
			await sandbox.call('POST', '/_sandbox/webhooks/delivery', {
				concurrent: true,
				timeout_ms: 10_000,
				retry_seconds: [1, 1, 1, 1, 1],
			});
			const pay = async (count) =>
				(
					await sandbox.call('POST', '/_sandbox/pix/receive_many', {
						document_number: documentNumber,
						value: '4.00',
						count,
					})
				).data.transaction_ids;

			// n8n's own shutdown may take its full 30 s (it then exits): wait longer than that.
			for (const pid of [state.main.pid, state.webhook.pid]) killGroup(pid, 'SIGTERM');
			await waitFor(async () => ![state.main.pid, state.webhook.pid].some(isAlive), {
				what: 'the main and the webhook processor to stop',
				timeoutMs: 90_000,
			});
			const whileDown = await pay(20);
			await sandbox.call('POST', '/_sandbox/deliveries/wait', { redeliveries: true });
			const failedWhileDown = (
				await sandbox.call('GET', '/api/v1/notifications?failed=true&per_page=500')
			).data.length;
			expect(failedWhileDown).toBeGreaterThanOrEqual(20);

			const startedAt = Date.now();
			adoptRun(state.runDir);
			const env = clusterEnv(state);
			const webhookUrl = `${state.webhook.url}/`;
			/** Starts an n8n process again on its user folder and port. */
			const restart = (name, command, { userFolder, url }) =>
				startN8nProcess({
					name,
					command,
					userFolder,
					port: Number(new URL(url).port),
					env,
					webhookUrl,
				});
			const main = await restart('main', 'start', state.main);
			const hook = await restart('webhook', 'webhook', state.webhook);
			// Later files find the processes where the state file says.
			updateQueueState({
				main: { ...state.main, pid: main.proc.pid },
				webhook: { ...state.webhook, pid: hook.proc.pid },
			});
			const duringCatchUp = await pay(5);
			const all = [...whileDown, ...duringCatchUp];
			await waitForExecutions(catchUp.id, all.length, 120_000).catch(() => undefined);
			const seconds = (Date.now() - startedAt) / 1000;
			await new Promise((resolve) => setTimeout(resolve, 3_000));
			const executions = await executionsOf(catchUp.id, { includeData: true });
			const perTransaction = countBy(
				executions.map((e) => String(nodeOutput(e, TRIGGER)?.[0]?.transaction_id)),
			);
			const failedLeft = await waitFor(
				async () => {
					const failed = (
						await sandbox.call('GET', '/api/v1/notifications?failed=true&per_page=500')
					).data;
					return failed.length === 0 ? failed : null;
				},
				{ what: 'FacilitaPay to list no failed notification', timeoutMs: 90_000 },
			).catch(
				async () =>
					(await sandbox.call('GET', '/api/v1/notifications?failed=true&per_page=500')).data,
			);
			const figures = {
				payments: all.length,
				executions: executions.length,
				lost: all.filter((id) => !perTransaction[id]).length,
				doubled: Object.values(perTransaction).filter((n) => n > 1).length,
				failedWhileDown,
				failedLeft: failedLeft.length,
				secondsFromStartToAll: Number(seconds.toFixed(1)),
			};
			report(`case 1 (trigger catch-up): ${JSON.stringify(figures)}`);
			expect(figures).toMatchObject({
				executions: all.length,
				lost: 0,
				doubled: 0,
				failedLeft: 0,
			});
			expect(seconds).toBeLessThan(120);
			expect(countBy(executions.map((e) => e.status))).toEqual({ success: all.length });
		},
		CASE_TIMEOUT,
	);
});
