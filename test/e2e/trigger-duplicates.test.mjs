// The FacilitaPay Trigger in a real n8n 2.x, against a sandbox of its own: Drop Duplicates starts
// one execution per event however often FacilitaPay delivers it (and remembers it with the
// workflow), and after 20 wrong secrets the guessing lock answers every notification alike.
// The other trigger files: trigger-registration, trigger-events, trigger-open-cases.
import { getWorkflowViaApi, listExecutions, postRaw } from './lib/n8n.mjs';
import { createPerson, samplePerson, sandboxApi, sandboxControl } from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e, waitFor } from './lib/state.mjs';
import {
	TRIGGER,
	guessedSecret,
	triggerFigures,
	triggerItems,
	useTriggerSandbox,
} from './lib/trigger.mjs';

const figures = triggerFigures();

describeE2e('FacilitaPay Trigger in a real n8n 2.x: Drop Duplicates and the guessing lock', () => {
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
		'after 20 wrong secrets every notification gets the same 503, whatever its secret: the lock tells nothing, and true events are sent again, not lost',
		async () => {
			expect(account.workflow).toBeDefined();
			const hook = (await sandboxControl('GET', '/webhook', undefined, account.state)).data;
			const answers = [];
			for (let n = 1; n <= 20; n++) {
				const guess = guessedSecret(hook.secret, n);
				answers.push(
					(
						await postRaw(hook.url, {
							notification: {
								type: 'non_identified_bank_transaction',
								secret: guess,
								bank_transaction: { id: `forged-bt-${n}`, value: '5000.00' },
							},
						})
					).status,
				);
				figures.forgedWrongSecret += 1;
			}
			expect(answers.slice(0, 19)).toEqual(Array(19).fill(401));
			expect(answers[19]).toBe(503);

			// A wire naming 30 transactions, with the right and with a wrong secret: same answer.
			const subjects = await sandboxApi('GET', '/subject/people', undefined, account.state);
			const subjectId = subjects.json.data[0].id;
			const wire = {
				type: 'wire_created',
				wire_id: 'w-lock',
				transaction_ids: Array.from({ length: 30 }, (_, n) => `t-${n}`),
			};
			const wrong = guessedSecret(hook.secret, 50);
			const right = await postRaw(hook.url, { notification: { ...wire, secret: hook.secret } });
			const guessed = await postRaw(hook.url, { notification: { ...wire, secret: wrong } });
			expect({ status: right.status, body: right.text }).toEqual({
				status: guessed.status,
				body: guessed.text,
			});
			expect(right.status).toBe(503);

			// True events, verifiable or not, are refused for now; FacilitaPay sends them again.
			for (const event of [
				{
					type: 'non_identified_bank_transaction',
					bank_transaction: { id: 'bt-true', value: '10.00', currency: 'BRL' },
				},
				{ type: 'document_required', subject_id: subjectId, required_documents: ['x'] },
			]) {
				const sent = await sandboxControl('POST', '/events', event, account.state);
				expect(sent.data.notification).toMatchObject({
					last_response_status: 503,
					next_attempt_at: expect.any(String),
				});
				figures.trueEventsDeferred += 1;
			}
			const executions = await listExecutions({ workflowId: account.workflow.id }, account.state);
			expect(executions).toHaveLength(2);
			expect(JSON.stringify(executions.map((e) => triggerItems(e)))).not.toContain('forged-bt');
		},
		CLI_TIMEOUT,
	);
});
