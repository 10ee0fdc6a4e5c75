// Issue 32, "paid twice": the parent of a failed sub-workflow batch, retried, in a real n8n 2.41.1.
// Parent: Webhook → 4 payouts → Execute Workflow (all items at once, waiting). Sub-workflow:
// Execute Workflow Trigger (accept all data) → FacilitaPay Create Payout without an Idempotency
// Key. FacilitaPay refuses every payout from the third on (429): the sub-workflow fails after
// items 0 and 1 were paid, and so does the parent. The fault is removed and the PARENT is retried
// the way the executions list's Retry button does. What n8n does: the retry runs the Execute
// Workflow node again, which starts the sub-workflow as a NEW execution (its own id, none of the
// failed sub-execution's custom data): the node cannot tell its items from new ones, and items 0
// and 1 are paid a second time. The error text must say so (not "retrying is safe").
import { activateWorkflow, createWorkflowViaApi, knownExecutions, nodeOutput } from './lib/n8n.mjs';
import { getExecution, retryExecution, waitForNewExecution } from './lib/retry.mjs';
import * as e2eSandbox from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e, requirePieces, sharedState, waitFor } from './lib/state.mjs';
import {
	KEEP_EXECUTION_DATA,
	actionNode,
	itemsFromBody,
	payoutFromItem,
	webhookNode,
} from './lib/workflows.mjs';

const ROUTE = 'POST /api/v1/transactions';

describeE2e('Retrying the parent of a failed sub-workflow batch (real n8n 2.x)', () => {
	const path = `money-parent-${Date.now().toString(36)}`;
	let subjectId = '';

	/** Sub-workflow (keyed or not) and its parent, created and published. @param {boolean} keyed */
	const pair = async (keyed) => {
		const state = sharedState();
		const sub = await createWorkflowViaApi(
			{
				name: `e2e money: payouts sub-workflow${keyed ? ' (keyed)' : ''}`,
				settings: KEEP_EXECUTION_DATA,
				nodes: [
					{
						id: 'sub-trigger',
						name: 'When Executed by Another Workflow',
						type: 'n8n-nodes-base.executeWorkflowTrigger',
						typeVersion: 1.1,
						position: [0, 0],
						parameters: { inputSource: 'passthrough' },
					},
					actionNode({
						credentials: state.credentials,
						parameters: payoutFromItem({ idempotencyKey: keyed }),
					}),
				],
				connections: {
					'When Executed by Another Workflow': {
						main: [[{ node: 'FacilitaPay', type: 'main', index: 0 }]],
					},
				},
			},
			state,
		);
		const subId = String(sub.id);
		// 2.x runs a sub-workflow's published version; publishing one without a trigger of its own
		// may be refused by older n8n, where the saved version runs.
		await activateWorkflow(subId, state).catch(() => undefined);
		const parent = await createWorkflowViaApi(
			{
				name: `e2e money: parent of payouts sub-workflow${keyed ? ' (keyed)' : ''}`,
				settings: KEEP_EXECUTION_DATA,
				nodes: [
					webhookNode(pathOf(keyed)),
					itemsFromBody('Payouts', 'payouts'),
					{
						id: 'call-sub',
						name: 'Pay In Sub-workflow',
						type: 'n8n-nodes-base.executeWorkflow',
						typeVersion: 1.2,
						position: [440, 0],
						parameters: {
							source: 'database',
							workflowId: { __rl: true, value: subId, mode: 'id' },
							mode: 'once',
							options: { waitForSubWorkflow: true },
						},
					},
				],
				connections: {
					Webhook: { main: [[{ node: 'Payouts', type: 'main', index: 0 }]] },
					Payouts: { main: [[{ node: 'Pay In Sub-workflow', type: 'main', index: 0 }]] },
				},
			},
			state,
		);
		const parentId = String(parent.id);
		await activateWorkflow(parentId, state);
		return { subId, parentId, path: pathOf(keyed) };
	};
	const pathOf = (keyed) => `${path}${keyed ? '-keyed' : ''}`;

	beforeAll(async () => {
		requirePieces(sharedState(), ['sandbox', 'node']);
		const seed = (Date.now() % 100000) + 71000;
		const person = e2eSandbox.samplePerson(seed, `Money Sub ${seed}`, {
			email: null,
			complete: false,
		});
		subjectId = (await e2eSandbox.createPerson(person)).id;
	}, CLI_TIMEOUT);

	afterAll(async () => {
		await e2eSandbox.sandboxControl('DELETE', '/faults').catch(() => undefined);
	});

	/** Values FacilitaPay created (answered < 300) since `mark`. @param {number} mark */
	const createdSince = async (mark) =>
		(await e2eSandbox.sandboxRequests({ after: mark, method: 'POST', route: ROUTE }))
			.filter((r) => Number(r.status) < 300)
			.map((r) => r.body?.transaction?.value);

	/**
	 * The parent run with `values` (order IDs `ORD-<value>`) while FacilitaPay refuses from the third
	 * payout on, then, the fault removed, retried ("with original workflow"): what each step did.
	 * @param {boolean} keyed @param {string[]} values
	 */
	async function failThenRetryParent(keyed, values) {
		const state = sharedState();
		const { subId, parentId, path: hook } = await pair(keyed);
		const payouts = values.map((value) => ({ subjectId, value, orderId: `ORD-${path}-${value}` }));
		const mark = await e2eSandbox.sandboxMark();
		await e2eSandbox.sandboxControl('POST', '/faults', {
			route: ROUTE,
			kind: '429',
			retry_after: 0,
			skip: 2,
			count: 100,
		});
		const knownParent = await knownExecutions(parentId, state);
		const knownSub = await knownExecutions(subId, state);
		await waitFor(
			async () => {
				const response = await fetch(`${state.n8nUrl}/webhook/${hook}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ payouts }),
				});
				await response.text();
				return response.status === 404 ? null : response.ok;
			},
			{ what: `POST /webhook/${hook}` },
		);
		const failed = await waitForNewExecution(state, parentId, { known: knownParent });
		const subRun = await waitForNewExecution(state, subId, { known: knownSub });
		await e2eSandbox.sandboxControl('DELETE', '/faults');
		const firstRun = await createdSince(mark);
		const errorText = (run) =>
			`${run.data?.resultData?.error?.message ?? ''}\n${run.data?.resultData?.error?.description ?? ''}`;
		const said = errorText(subRun);
		const parentSaid = errorText(failed);
		const retryMark = await e2eSandbox.sandboxMark();
		const retried = await retryExecution(state, failed.id, { loadWorkflow: false });
		const again = await createdSince(retryMark);
		const subs = [...(await knownExecutions(subId, state))].filter(
			(id) => !knownSub.has(id) && id !== String(subRun.id),
		);
		const retriedSub = subs[0] ? await getExecution(state, subs[0]) : null;
		const label = keyed ? 'keyed' : 'no key';
		console.log(
			`sub-workflow batch (${label}): parent ${failed.id} ${failed.status} (mode ${failed.mode}), sub ${subRun.id} ${subRun.status} (mode ${subRun.mode}); created ${JSON.stringify(firstRun)}\nsub error: ${said}\nparent error: ${parentSaid}\n` +
				`parent retried (${label}): execution ${retried.id} ${retried.status} (retryOf ${retried.retryOf}); new sub-execution(s) ${JSON.stringify(subs)} (${retriedSub?.mode}); created on retry ${JSON.stringify(again)}; at FacilitaPay in all ${JSON.stringify([...firstRun, ...again])}`,
		);
		return { failed, subRun, firstRun, said, parentSaid, retried, again, subs, retriedSub };
	}

	test(
		"without a key, the parent's Retry sends the sub-workflow's done payouts again; the error said so",
		async () => {
			const values = ['71.01', '71.02', '71.03', '71.04'];
			const run = await failThenRetryParent(false, values);
			expect(run.failed.status).toBe('error');
			expect(run.subRun.status).toBe('error');
			expect(run.firstRun).toEqual(values.slice(0, 2));
			// The failed batch's own words: a parent's retry sends again; nothing calls it safe.
			expect(run.said).toMatch(
				/ran in a sub-workflow\. Retrying the parent execution runs this sub-workflow anew and sends its items again/,
			);
			expect(`${run.said}\n${run.parentSaid}`).not.toMatch(
				/Retrying this execution from n8n's executions list is safe/,
			);
			expect(run.retried.status).toBe('success');
			expect(run.subs).toHaveLength(1);
			// Today's truth (docs/money.md): items 0 and 1 are paid a second time.
			expect(run.again).toEqual(values);
		},
		CLI_TIMEOUT,
	);

	test(
		"with an Idempotency Key (the text's advice), the parent's Retry pays only what was not paid",
		async () => {
			const values = ['72.01', '72.02', '72.03', '72.04'];
			const run = await failThenRetryParent(true, values);
			expect(run.failed.status).toBe('error');
			expect(run.firstRun).toEqual(values.slice(0, 2));
			expect(run.said).toMatch(
				/sub-workflow anew; items done under their Idempotency Key are not sent again/,
			);
			expect(run.retried.status).toBe('success');
			expect(run.again).toEqual(values.slice(2));
			const output = nodeOutput(run.retriedSub, 'FacilitaPay');
			expect(output.map((item) => Boolean(item.alreadyDone))).toEqual([true, true, false, false]);
		},
		CLI_TIMEOUT,
	);
});
