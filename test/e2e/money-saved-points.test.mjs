// Issue 32, reads bounded, in a real n8n 2.41.1 restarted in the middle: a keyed payout looks its
// Idempotency Key up in the subject's transaction list (oldest first, 100 a page). The first keyed
// payout of the workflow reads the whole list once and saves its newest record and the keys up to
// it in the workflow's static data (n8n keeps it in its database after a production execution);
// after a restart (the process's memory gone) the next keyed payout reads that record by its ID
// and only the pages after it, and a key paid before the restart is still recognised.
// An n8n of this file's own (the shared one is not restarted: other files use it) and its own
// sandbox, seeded with 3,000 earlier transactions of the subject.
import {
	activateWorkflow,
	createWorkflowViaApi,
	getWorkflowViaApi,
	knownExecutions,
	nodeOutput,
} from './lib/n8n.mjs';
import { ownN8n } from './lib/own-n8n.mjs';
import { waitForNewExecution } from './lib/retry.mjs';
import * as e2eSandbox from './lib/sandbox.mjs';
import { CLI_TIMEOUT, INSTALL_TIMEOUT, describeE2e, sharedState, waitFor } from './lib/state.mjs';
import { KEEP_EXECUTION_DATA, actionNode, payoutFromItem, webhookNode } from './lib/workflows.mjs';

const EARLIER = 3000;
const LIST_ROUTE = 'GET /api/v1/subject/:id/transactions';
const ONE_ROUTE = 'GET /api/v1/transactions/:id';
const CREATE_ROUTE = 'POST /api/v1/transactions';

describeE2e(
	'A keyed payout after n8n was restarted reads from the saved point (n8n 2.41.1)',
	() => {
		/** @type {Awaited<ReturnType<typeof ownN8n>>} */
		let own;
		let subjectId = '';
		let workflowId = '';
		const path = `money-points-${Date.now().toString(36)}`;

		beforeAll(async () => {
			own = await ownN8n(sharedState(), {
				version: 'v2',
				suffix: 'saved-points',
				sandbox: { id: 'facilitapay-points-sandbox', name: 'FacilitaPay Saved Points Sandbox' },
			});
			const seed = (Date.now() % 100000) + 73000;
			const person = e2eSandbox.samplePerson(seed, `Money Points ${seed}`, {
				email: null,
				complete: false,
			});
			subjectId = (await e2eSandbox.createPerson(person, own.state)).id;
			// The subject's earlier life: 3,000 PIX receipts, 30 pages of its transaction list.
			const seeded = await e2eSandbox.sandboxControl(
				'POST',
				'/pix/receive_many',
				{ document_number: person.document_number, value: '5.00', count: EARLIER },
				own.state,
			);
			expect(seeded.data.transaction_ids).toHaveLength(EARLIER);
			const workflow = await createWorkflowViaApi(
				{
					name: 'e2e money: keyed payout from a webhook (saved points)',
					settings: KEEP_EXECUTION_DATA,
					nodes: [
						webhookNode(path),
						actionNode({
							credentials: own.sb.credentials,
							parameters: {
								...payoutFromItem(),
								subjectId,
								value: '30.00',
								idempotencyKey: '={{ $json.body.key }}',
							},
						}),
					],
					connections: { Webhook: { main: [[{ node: 'FacilitaPay', type: 'main', index: 0 }]] } },
				},
				own.state,
			);
			workflowId = String(workflow.id);
			await activateWorkflow(workflowId, own.state);
		}, INSTALL_TIMEOUT);

		afterAll(async () => {
			await own?.stop().catch(() => undefined);
			await own?.sb.close().catch(() => undefined);
		});

		/**
		 * POSTs `{key}` to the workflow's production URL (again while n8n is not answering it yet) and
		 * returns the execution it started, with what the sandbox received meanwhile.
		 * @param {string} key
		 */
		async function pay(key) {
			const mark = await e2eSandbox.sandboxMark(own.state);
			const known = await knownExecutions(workflowId, own.state);
			await waitFor(
				async () => {
					const response = await fetch(`${own.state.n8nUrl}/webhook/${path}`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ key }),
					});
					await response.text();
					return response.status === 404 ? null : response.ok;
				},
				{ what: `POST /webhook/${path}`, timeoutMs: 60_000 },
			);
			const execution = await waitForNewExecution(own.state, workflowId, {
				known,
				timeoutMs: 120_000,
			});
			const requests = await e2eSandbox.sandboxRequests({ after: mark }, own.state);
			const count = (route) => requests.filter((r) => r.route === route).length;
			const created = requests.filter((r) => r.route === CREATE_ROUTE && Number(r.status) < 300);
			return {
				execution,
				output: nodeOutput(execution, 'FacilitaPay'),
				listPages: count(LIST_ROUTE),
				byId: count(ONE_ROUTE),
				created: created.length,
			};
		}

		/** The saved point of the workflow (its static data, as n8n's database holds it). */
		const savedPoint = async () => {
			const lists = (await getWorkflowViaApi(workflowId, own.state)).staticData?.[
				'node:FacilitaPay'
			]?.facilitapayKnownLists;
			const entries = Object.values(lists ?? {});
			return entries.length === 0
				? null
				: { point: entries[0].p, keys: entries[0].k.map(([ref]) => ref) };
		};

		test(
			'3,000 earlier transactions: the first keyed payout reads them once; after a restart the next reads from the saved point, and the first key is still recognised',
			async () => {
				const started = Date.now();
				const first = await pay('ORDER-1');
				expect(first.execution.status).toBe('success');
				expect(first.created).toBe(1);
				expect(first.output).toHaveLength(1);
				expect(first.output[0]).toMatchObject({ value: '30.00' });
				expect(first.output[0].alreadyDone).toBeFalsy();
				// The whole list once (30 full pages and the end), then the re-read after the answer.
				expect(first.listPages).toBeGreaterThan(30);
				const saved = await savedPoint();
				console.log(
					`saved point after ORDER-1 (execution ${first.execution.id}, mode ${first.execution.mode}): ${JSON.stringify(saved)}`,
				);
				expect(saved).toEqual({ point: first.output[0].id, keys: ['key:ORDER-1'] });

				const stoppedAt = Date.now();
				await own.restart();
				const restartedIn = ((Date.now() - stoppedAt) / 1000).toFixed(1);

				const second = await pay('ORDER-2');
				expect(second.execution.status).toBe('success');
				expect(second.created).toBe(1);
				expect(second.output[0]).toMatchObject({ value: '30.00' });
				expect(second.output[0].alreadyDone).toBeFalsy();
				expect(second.output[0].id).not.toBe(first.output[0].id);
				// The point by its ID, one page after it, then the re-read after the answer.
				expect(second.byId).toBe(1);
				expect(second.listPages + second.byId).toBeLessThanOrEqual(4);

				const again = await pay('ORDER-1');
				expect(again.execution.status).toBe('success');
				expect(again.created).toBe(0);
				expect(again.output).toHaveLength(1);
				expect(again.output[0]).toMatchObject({ alreadyDone: true, id: first.output[0].id });
				expect(again.listPages + again.byId).toBeLessThanOrEqual(3);

				console.log(
					[
						`saved points, ${EARLIER} earlier transactions of the subject, n8n 2.41.1 webhook (production) executions:`,
						`  ORDER-1 (first keyed payout): ${first.created} created, ${first.listPages} list pages, ${first.byId} by ID`,
						`  n8n restarted in ${restartedIn} s`,
						`  ORDER-2 (after the restart): ${second.created} created, ${second.listPages} list pages + ${second.byId} by ID = ${second.listPages + second.byId} reads`,
						`  ORDER-1 again: ${again.created} created, alreadyDone ${again.output[0].alreadyDone}, ${again.listPages} list pages + ${again.byId} by ID = ${again.listPages + again.byId} reads`,
						`  case took ${((Date.now() - started) / 1000).toFixed(1)} s`,
					].join('\n'),
				);
			},
			CLI_TIMEOUT * 3,
		);
	},
);
