// Queue mode, case 1: a published FacilitaPay Trigger workflow. The main registers the webhook
// processor's URL with FacilitaPay (the sandbox); the sandbox delivers 200 notifications to the
// webhook processor, which checks each one's secret and queues it; the two workers run them.
// Exactly 200 successful executions, each event once, on both workers; 50 forged notifications
// are refused by the webhook processor and start nothing.
import {
	CASE_TIMEOUT,
	allExecutions,
	caseCredentials,
	caseSandbox,
	countBy,
	createActiveWorkflow,
	describeQueue,
	executionsByWorker,
	nodeOutput,
	queueState,
	report,
	triggerNode,
	waitFor,
	waitForExecutions,
	registerSubjects,
} from './lib/queue.mjs';

const EVENTS = 200;
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
		`${FORGED} forged notifications are refused by the webhook processor (401, then 503 under the guessing lock) and start no execution`,
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
			// Refused: 401, or 503 once the guessing lock is on (20 wrong secrets within 10 minutes);
			// none starts an execution (the next test counts exactly its own executions).
			expect(statuses.filter((status) => status !== 401 && status !== 503)).toEqual([]);
			forgedAnswers = countBy(statuses.map(String));
			// The real events of the next test are the barrier: their executions come after these.
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
			const executions = await allExecutions(workflow.id, { includeData: true });
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
					`executions per worker ${JSON.stringify(perWorker)}; ${FORGED} forged → ${JSON.stringify(forgedAnswers)} and 0 executions; ${seconds.toFixed(1)} s from first event to last execution`,
			);
		},
		CASE_TIMEOUT,
	);
});
