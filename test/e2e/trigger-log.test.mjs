// The FacilitaPay Trigger in a real n8n 2.x: FacilitaPay's notification log decides (issue 31).
// One event = one record: replays under any secret (also after a re-publish) start nothing again,
// re-approvals (byte-identical notifications, new records) start once each, pages shorter than
// asked and records written after their first delivery lose nothing, and two workflows on one
// account each start their own URL's records. Deliveries are answered 200 and only prompt.
// The other trigger files: trigger-strangers, trigger-catch-up, trigger-burst, trigger-registration.
import { activateWorkflow, deactivateWorkflow, listExecutions, postRaw } from './lib/n8n.mjs';
import { createPerson, samplePerson, sandboxControl } from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e, waitFor } from './lib/state.mjs';
import {
	activateAndWaitForRegistration,
	notificationRecords,
	triggerFigures,
	triggerItems,
	useTriggerSandbox,
	waitForExecutions,
} from './lib/trigger.mjs';
import { workflowWithTrigger } from './lib/workflows.mjs';
import { createWorkflowViaApi } from './lib/n8n.mjs';

const figures = triggerFigures();

/** Lets a doubled execution show up before counting. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 4_000));

describeE2e('FacilitaPay Trigger in a real n8n 2.x: the notification log decides', () => {
	const account = useTriggerSandbox({
		id: 'facilitapay-trigger-log-sandbox',
		name: 'FacilitaPay Trigger Log Sandbox',
	});
	let subjectId = '';

	beforeAll(async () => {
		await account.publish({ events: ['*'] }, { typeVersion: 2 });
		const seed = (Date.now() % 100000) + 61000;
		subjectId = (await createPerson(samplePerson(seed, `Log Person ${seed}`), account.state)).id;
	}, CLI_TIMEOUT);

	test(
		'a true event replayed under any secret (right, wrong, none), also after a re-publish, starts nothing again; re-approvals start once each',
		async () => {
			const state = account.state;
			const reproval = { items: ['proof_of_address_rejected'] };
			await sandboxControl('POST', `/subjects/${subjectId}/reprove`, reproval, state);
			await sandboxControl('POST', `/subjects/${subjectId}/approve`, {}, state);
			await sandboxControl('POST', `/subjects/${subjectId}/reprove`, reproval, state);
			await sandboxControl('POST', `/subjects/${subjectId}/approve`, {}, state);
			const executions = await account.next(4);
			// Each of the four records once. n8n may number executions started moments apart in either
			// order (seen in CI), so the types are compared as a multiset, the records by their IDs.
			expect(executions.map((e) => triggerItems(e)[0].type).sort()).toEqual([
				'subject_approved',
				'subject_approved',
				'subject_reproved',
				'subject_reproved',
			]);
			const ids = executions.map((e) => triggerItems(e)[0].notificationRecord.id);
			expect(new Set(ids).size).toBe(4);
			const hook = (await sandboxControl('GET', '/webhook', undefined, state)).data;
			const approved = { type: 'subject_approved', subject_id: subjectId };
			for (const secret of [hook.secret, '0000', undefined, 3718]) {
				const answer = await postRaw(hook.url, { notification: { ...approved, secret } });
				expect(answer).toMatchObject({ status: 200, json: { message: 'Received' } });
			}
			await deactivateWorkflow(account.workflow.id, state);
			await activateAndWaitForRegistration(account.workflow.id, state);
			const republished = (await sandboxControl('GET', '/webhook', undefined, state)).data;
			for (const secret of [hook.secret, republished.secret, '1234'])
				await postRaw(republished.url, { notification: { ...approved, secret } });
			await settle();
			expect(await listExecutions({ workflowId: account.workflow.id }, state)).toHaveLength(
				account.expected,
			);
			figures.trueEventsSent += 4;
			figures.trueEventsDelivered += 4;
			figures.forgedRightSecretFalseContent += 3;
			figures.forgedWrongSecret += 4;
		},
		3 * CLI_TIMEOUT,
	);

	test(
		'pages shorter than asked (3 records a page) and records written 3 s after their first delivery: 8 events, 8 executions, none twice',
		async () => {
			const state = account.state;
			await sandboxControl(
				'POST',
				'/webhooks/delivery',
				{ per_page_max: 3, record_delay_seconds: 3 },
				state,
			);
			try {
				for (let n = 1; n <= 8; n++)
					await sandboxControl(
						'POST',
						'/events',
						{ type: 'document_required', subject_id: subjectId, required_documents: [`doc-${n}`] },
						state,
					);
				const executions = await account.next(8);
				const docs = executions
					.slice(-8)
					.map((e) => triggerItems(e)[0].required_documents[0])
					.sort();
				expect(docs).toEqual([
					'doc-1',
					'doc-2',
					'doc-3',
					'doc-4',
					'doc-5',
					'doc-6',
					'doc-7',
					'doc-8',
				]);
				await settle();
				expect(await listExecutions({ workflowId: account.workflow.id }, state)).toHaveLength(
					account.expected,
				);
			} finally {
				await sandboxControl(
					'POST',
					'/webhooks/delivery',
					{ per_page_max: null, record_delay_seconds: 0 },
					state,
				);
			}
			figures.trueEventsSent += 8;
			figures.trueEventsDelivered += 8;
		},
		3 * CLI_TIMEOUT,
	);

	test(
		'KYC status payloads: listed in the log, each starts once from its record; not listed, each subject state FacilitaPay shows starts once (10 forged variations of the payload start nothing more)',
		async () => {
			const state = account.state;
			const hook = (await sandboxControl('GET', '/webhook', undefined, state)).data;
			const seed = (Date.now() % 100000) + 62000;
			const kycSubject = (await createPerson(samplePerson(seed, `KYC Person ${seed}`), state)).id;
			const kycItems = async () =>
				(await listExecutions({ workflowId: account.workflow.id }, state))
					.map((e) => triggerItems(e)?.[0])
					.filter((item) => item?.type === 'kyc_status');
			try {
				await sandboxControl('POST', '/webhooks/delivery', { kyc_payload: 'unlisted' }, state);
				await sandboxControl(
					'POST',
					`/subjects/${kycSubject}/reprove`,
					{ items: ['proof_of_address_rejected'] },
					state,
				);
				// subject_reproved from the log; kyc_status from the subject read (about 5 s later).
				await account.next(2);
				// Then the log lists them (and from then on settles them alone).
				await sandboxControl('POST', '/webhooks/delivery', { kyc_payload: 'listed' }, state);
				await sandboxControl('POST', `/subjects/${kycSubject}/approve`, {}, state);
				await account.next(2);
				for (let n = 0; n < 10; n++)
					await postRaw(hook.url, {
						data: { id: kycSubject, status: 'reproved', social_name: `Forged ${n}`, n },
					});
				await new Promise((resolve) => setTimeout(resolve, 12_000));
				const items = await kycItems();
				expect(items).toHaveLength(2);
				expect(items.map((item) => `${item.status} ${item.verification.source}`).sort()).toEqual([
					'approved notificationLog',
					'reproved subjectRead',
				]);
				expect(JSON.stringify(items)).not.toContain('Forged');
				expect(await listExecutions({ workflowId: account.workflow.id }, state)).toHaveLength(
					account.expected,
				);
			} finally {
				await sandboxControl('POST', '/webhooks/delivery', { kyc_payload: 'off' }, state);
			}
			figures.trueEventsSent += 4;
			figures.trueEventsDelivered += 4;
			figures.forgedWrongSecret += 10;
		},
		3 * CLI_TIMEOUT,
	);

	test(
		'two workflows on one account: B published after A takes the URL; each starts only the records sent to its own URL',
		async () => {
			const state = account.state;
			const before = await listExecutions({ workflowId: account.workflow.id }, state);
			await sandboxControl(
				'POST',
				'/events',
				{ type: 'document_required', subject_id: subjectId, required_documents: ['to-a'] },
				state,
			);
			await account.next(1);
			const base = workflowWithTrigger({ parameters: { events: ['*'] }, typeVersion: 2 });
			base.nodes[0].credentials = { facilitaPayApi: account.sb.credentials };
			const b = await createWorkflowViaApi(base, state);
			await activateAndWaitForRegistration(b.id, state);
			try {
				await sandboxControl(
					'POST',
					'/events',
					{ type: 'document_required', subject_id: subjectId, required_documents: ['to-b'] },
					state,
				);
				const [bExecution] = await waitForExecutions(b.id, 1, state);
				expect(triggerItems(bExecution)[0].required_documents).toEqual(['to-b']);
				await settle();
				const aAfter = await listExecutions({ workflowId: account.workflow.id }, state);
				expect(aAfter).toHaveLength(before.length + 1);
				expect(await listExecutions({ workflowId: b.id }, state)).toHaveLength(1);
				const records = await notificationRecords(state);
				expect(records.filter((r) => r.failed_at !== null)).toEqual([]);
			} finally {
				await deactivateWorkflow(b.id, state).catch(() => undefined);
				// A takes the URL back for what follows.
				await deactivateWorkflow(account.workflow.id, state).catch(() => undefined);
				await activateWorkflow(account.workflow.id, state).catch(() => undefined);
			}
			figures.trueEventsSent += 2;
			figures.trueEventsDelivered += 2;
		},
		3 * CLI_TIMEOUT,
	);
});
