// The FacilitaPay Trigger in a real n8n 2.x, against a sandbox of its own: Drop Duplicates starts
// one execution per event however often FacilitaPay delivers it (and remembers it with the
// workflow), judged on what FacilitaPay says changed: a re-approval is a new event, and two
// identical notifications at once start one execution.
// The other trigger files: trigger-registration, trigger-events, trigger-open-cases.
import { getWorkflowViaApi, listExecutions, postRaw } from './lib/n8n.mjs';
import { createPerson, samplePerson, sandboxApi, sandboxControl } from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e, waitFor } from './lib/state.mjs';
import { TRIGGER, triggerFigures, triggerItems, useTriggerSandbox } from './lib/trigger.mjs';

const figures = triggerFigures();

describeE2e('FacilitaPay Trigger in a real n8n 2.x: Drop Duplicates', () => {
	const account = useTriggerSandbox({
		id: 'facilitapay-trigger-dup-sandbox',
		name: 'FacilitaPay Trigger Dup Sandbox',
	});

	test(
		'the same event delivered twice starts one execution; a different one starts another',
		async () => {
			const { workflow } = await account.publish({
				events: ['*'],
				options: { dropDuplicates: true },
			});
			const seed = (Date.now() % 100000) + 7000;
			const subjectId = (
				await createPerson(samplePerson(seed, `Dup Person ${seed}`), account.state)
			).id;

			await sandboxControl(
				'POST',
				`/subjects/${subjectId}/reprove`,
				{ items: ['proof_of_address_rejected'] },
				account.state,
			);
			await account.next();
			figures.trueEventsSent += 1;
			figures.trueEventsDelivered += 1;

			// FacilitaPay delivers at least once: the same event again (as a redelivery would be).
			const again = await sandboxControl(
				'POST',
				'/events',
				{ type: 'subject_reproved', subject_id: subjectId, items: ['proof_of_address_rejected'] },
				account.state,
			);
			expect(again.data.notification).toMatchObject({ last_response_status: 200 });

			// A different event afterwards is the barrier.
			await sandboxControl('POST', `/subjects/${subjectId}/approve`, {}, account.state);
			const executions = await account.next();
			expect(executions).toHaveLength(2);
			expect(executions.map((e) => triggerItems(e)[0].type)).toEqual([
				'subject_reproved',
				'subject_approved',
			]);
			expect(triggerItems(executions[1])[0]).toMatchObject({
				verified: true,
				subject: { status: 'approved' },
			});
			// What Drop Duplicates remembers is saved with the workflow (hashed keys, no IDs), so it
			// outlives a restart of n8n: the trigger answers before n8n prepares the execution, which
			// is when n8n saves the static data a webhook changed.
			// During a burst the static data is written at most every 2 s; the next call catches up.
			await new Promise((resolve) => setTimeout(resolve, 2_100));
			const hookUrl = (await sandboxControl('GET', '/webhook', undefined, account.state)).data.url;
			expect((await postRaw(hookUrl, 'not JSON', { contentType: 'text/plain' })).status).toBe(400);
			const saved = await waitFor(
				async () => {
					const wf = await getWorkflowViaApi(workflow.id, account.state);
					const events = wf.staticData?.[`node:${TRIGGER}`]?.emittedEvents ?? {};
					return Object.keys(events).length === 2 ? wf : null;
				},
				{ what: 'both remembered events in the static data' },
			);
			const remembered = saved.staticData?.[`node:${TRIGGER}`]?.emittedEvents ?? {};
			expect(Object.keys(remembered)).toHaveLength(2);
			expect(JSON.stringify(remembered)).not.toContain(subjectId);
			figures.trueEventsSent += 1;
			figures.trueEventsDelivered += 1;
		},
		CLI_TIMEOUT,
	);

	test(
		'a re-approval within 24 hours (approved, reproved, approved: byte-identical notifications) is delivered; two identical notifications at once start one execution',
		async () => {
			expect(account.workflow).toBeDefined();
			const subjects = await sandboxApi('GET', '/subject/people', undefined, account.state);
			const subjectId = subjects.json.data[0].id;
			const reproval = { items: ['proof_of_address_rejected'] };
			// Time passes between the back office's decisions (the sandbox's clock moves only when told).
			const later = () => sandboxControl('POST', '/clock/advance', { minutes: 5 }, account.state);
			await later();
			await sandboxControl('POST', `/subjects/${subjectId}/reprove`, reproval, account.state);
			await later();
			await sandboxControl('POST', `/subjects/${subjectId}/approve`, {}, account.state);
			const executions = await account.next(2);
			const approvals = executions.filter((e) => triggerItems(e)[0].type === 'subject_approved');
			expect(approvals).toHaveLength(2);
			expect(triggerItems(approvals[1])[0]).toMatchObject({ verified: true });
			figures.trueEventsSent += 2;
			figures.trueEventsDelivered += 2;

			// A redelivery overlapping the first delivery: the same signed notification twice at once.
			const hook = (await sandboxControl('GET', '/webhook', undefined, account.state)).data;
			const twin = {
				notification: {
					type: 'document_required',
					subject_id: subjectId,
					required_documents: ['twin'],
					secret: hook.secret,
				},
			};
			const answers = await Promise.all([postRaw(hook.url, twin), postRaw(hook.url, twin)]);
			expect(answers.map((answer) => answer.status).sort()).toEqual(
				answers.some((answer) => answer.status === 503) ? [200, 503] : [200, 200],
			);
			// A different event afterwards is the barrier.
			await later();
			await sandboxControl('POST', `/subjects/${subjectId}/reprove`, reproval, account.state);
			const after = await account.next(2);
			const twins = after.filter((e) =>
				JSON.stringify(triggerItems(e)[0].required_documents ?? []).includes('twin'),
			);
			expect(twins).toHaveLength(1);
			expect(await listExecutions({ workflowId: account.workflow.id }, account.state)).toHaveLength(
				account.expected,
			);
			figures.trueEventsSent += 2;
			figures.trueEventsDelivered += 2;
		},
		CLI_TIMEOUT,
	);
});
