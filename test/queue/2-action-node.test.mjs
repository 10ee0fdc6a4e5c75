// Queue mode, case 2: the FacilitaPay action node on 100 items, in an execution started through the
// webhook processor (a Webhook-triggered workflow: `n8n execute` would not use the queue) and run by
// a worker. Every output item is checked against what the sandbox received, and every request is
// shown to come from the worker that ran the execution (the owner of the client socket).
import {
	CASE_TIMEOUT,
	allExecutions,
	caseCredentials,
	caseSandbox,
	countBy,
	createPeopleWorkflow,
	describeQueue,
	executionsByWorker,
	nodeOutput,
	postWhenRegistered,
	report,
	waitForExecutions,
} from './lib/queue.mjs';
import { formattedCpf, validCpf } from '../e2e/lib/n8n-e2e.mjs';

const ITEMS = 100;

describeQueue('queue mode: the FacilitaPay action node on a worker', () => {
	const sandbox = caseSandbox();

	test(
		`Subject → Create or Update on ${ITEMS} items: ${ITEMS} people registered, each output item is the person the sandbox created, all sent by one worker`,
		async () => {
			const credentials = await caseCredentials(sandbox, 'FacilitaPay Queue Action');
			const path = `queue-people-${Date.now().toString(36)}`;
			const workflow = await createPeopleWorkflow({
				name: 'queue: FacilitaPay action node on 100 items',
				path,
				credentials,
			});
			const seed = (Date.now() % 100000) + 70000;
			const people = Array.from({ length: ITEMS }, (_, i) => {
				const cpf = validCpf(seed + i);
				// Formatted as people type it; the node sends digits only.
				return {
					cpf: formattedCpf(cpf),
					digits: cpf,
					name: `Queue Person ${i}`,
				};
			});

			const startedAt = Date.now();
			const answer = await postWhenRegistered(path, {
				people: people.map(({ cpf, name }) => ({ cpf, name })),
			});
			expect(answer.status).toBe(200);

			const [finished] = await waitForExecutions(workflow.id, 1);
			const seconds = (Date.now() - startedAt) / 1000;
			const [execution] = await allExecutions(workflow.id, { includeData: true });
			expect(finished.status).toBe('success');
			const output = nodeOutput(execution, 'FacilitaPay');
			expect(Array.isArray(output)).toBe(true);
			expect(output).toHaveLength(ITEMS);

			// What the sandbox received: 100 creations (sent in parallel, so in any order), digits only.
			const sent = sandbox
				.requests()
				.filter((r) => r.method === 'POST' && r.path.endsWith('/subject/people'));
			const logged = (await sandbox.call('GET', '/_sandbox/requests')).data.filter(
				(/** @type {any} */ r) =>
					r.method === 'POST' && String(r.url).startsWith('/api/v1/subject/people'),
			);
			expect(logged.map((/** @type {any} */ r) => r.body.person.document_number).sort()).toEqual(
				people.map((p) => p.digits).sort(),
			);
			expect(logged.map((/** @type {any} */ r) => r.status)).toEqual(Array(ITEMS).fill(200));
			// Each output item is the person the sandbox now holds under that id.
			expect(new Set(output.map((/** @type {any} */ item) => item.id)).size).toBe(ITEMS);
			for (const [i, item] of output.entries()) {
				const stored = (await sandbox.call('GET', `/api/v1/subject/people/${item.id}`)).data;
				expect(stored).toMatchObject({
					document_number: people[i].digits,
					social_name: people[i].name,
				});
				expect(item).toMatchObject({
					id: stored.id,
					document_number: people[i].digits,
					social_name: people[i].name,
				});
			}

			// One worker ran it (its log says so), and every request left from that worker's process.
			const workers = executionsByWorker().get(String(execution.id)) ?? [];
			expect(workers).toHaveLength(1);
			expect(countBy(sent.map((r) => r.process))).toEqual({ [workers[0]]: ITEMS });
			report(
				`case 2 (action node): ${ITEMS} items → ${output.length} output items, ${logged.length} POST /subject/people received, ` +
					`all from ${workers[0]} (execution ${execution.id}); ${seconds.toFixed(1)} s`,
			);
		},
		CASE_TIMEOUT,
	);
});
