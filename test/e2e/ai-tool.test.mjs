// Real n8n 2.x: the TOOL variant n8n generates for our `usableAsTool` node
// (n8n-nodes-facilitapay.facilitaPayTool) loads, and runs an operation whose parameters come from
// $fromAI() expressions, without any LLM. The arguments an agent would give are handed over by
// n8n's hidden Tool Executor node (@n8n/n8n-nodes-langchain.toolExecutor), wired the way n8n wires
// it when a tool node is executed on its own (n8n-core partial-execution-utils/rewire-graph.js):
// main input from the trigger, the tool on its ai_tool input, `query` = {"<tool name>": {args}}.
import { listNodeTypes } from '../../scripts/n8n-runtime.mjs';
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import {
	CLI_TIMEOUT,
	CREDENTIAL_TYPE,
	NODE_TYPES,
	createPerson,
	describeE2e,
	recordCoverage,
	runWorkflow,
	samplePerson,
	sandboxMark,
	sandboxRequests,
	sharedState,
	testE2e,
	uniqueId,
} from './lib/n8n-e2e.mjs';

const TOOL_TYPE = `${NODE_TYPES.action}Tool`;
const EXECUTOR = 'Tool Executor';

/**
 * Manual Trigger → Tool Executor (main), FacilitaPay tool → Tool Executor (ai_tool).
 * @param {{toolName: string, parameters: object, args: object}} options
 */
function toolWorkflow({ toolName, parameters, args }) {
	const { credentials } = sharedState();
	return {
		id: uniqueId('e2e-tool'),
		name: `e2e tool ${toolName}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'manual-trigger',
				name: 'When clicking Execute',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'tool-executor',
				name: EXECUTOR,
				type: '@n8n/n8n-nodes-langchain.toolExecutor',
				typeVersion: 1,
				position: [220, 0],
				// What n8n's rewireGraph puts there: the tool's arguments under the tool's name.
				parameters: { query: JSON.stringify({ [toolName]: args }), toolName: '', node: toolName },
			},
			{
				id: 'tool-under-test',
				name: toolName,
				type: TOOL_TYPE,
				typeVersion: 1,
				position: [220, 200],
				parameters,
				...(credentials ? { credentials: { [CREDENTIAL_TYPE]: credentials } } : {}),
			},
		],
		connections: {
			'When clicking Execute': { main: [[{ node: EXECUTOR, type: 'main', index: 0 }]] },
			[toolName]: { ai_tool: [[{ node: EXECUTOR, type: 'ai_tool', index: 0 }]] },
		},
		pinData: {},
	};
}

/** The tool's answer as the executor passes it on: a JSON string of the node's output items, or items. */
function toolAnswer(/** @type {any[]} */ items) {
	return items.map((json) => (typeof json === 'string' ? json : JSON.stringify(json))).join('\n');
}

/** @param {any} run */
function explain(run) {
	return `exit ${run.exitCode}; error: ${JSON.stringify(run.error)?.slice(0, 800)}\n--- stdout tail ---\n${String(run.stdout).slice(-2500)}\n--- stderr tail ---\n${String(run.stderr).slice(-1500)}`;
}

/**
 * Asserts the run's own record, not the CLI's exit code: once in three runs the CLI was ended by a
 * signal (exit 128) after printing a run with status "success". Prints n8n's output when it failed.
 * @param {any} run
 */
function expectRunSucceeded(run) {
	if (run.exitCode !== 0 || run.error) process.stderr.write(`${explain(run)}\n`);
	expect({
		status: run.runData?.status,
		finished: run.runData?.finished,
		error: run.error,
	}).toEqual({
		status: 'success',
		finished: true,
		error: null,
	});
}

/** A person registered in the sandbox (name, CPF, e-mail only); returns its subject id. @param {number} seed @param {string} name @param {string} email */
async function registeredPerson(seed, name, email) {
	const person = samplePerson(seed, name, { email, complete: false });
	return (await createPerson(person)).id;
}

/** Transaction → Create Dynamic PIX whose amount (and customer, unless given) come from $fromAI. @param {string} [subjectId] */
const dynamicPixTool = (subjectId) => ({
	resource: 'transaction',
	operation: 'createDynamicPix',
	subjectId: {
		__rl: true,
		mode: 'id',
		value:
			subjectId ?? "={{ $fromAI('customerId', 'ID (UUID) of the customer who pays', 'string') }}",
	},
	value: "={{ $fromAI('amount', 'Amount in BRL with two decimals, e.g. 150.00', 'string') }}",
	dynamicPixExpiresAt: '',
	fromBankAccountId: ACCOUNT_IDS.brlPixExclusive,
	toBankAccountId: ACCOUNT_IDS.usdDestination,
	exchangeCurrency: 'USD',
});

describeE2e('FacilitaPay as an AI agent tool in a real n8n 2.x', () => {
	testE2e('n8n generates and lists the tool variant of the node', [], async (state) => {
		const types = await listNodeTypes({ version: state.version, userFolder: state.userFolder });
		expect(types).toContain(NODE_TYPES.action);
		expect(types).toContain(TOOL_TYPE);
	});

	testE2e(
		'Subject > Get as a tool: the subject ID comes from $fromAI, the sandbox receives it, the answer names the person',
		['sandbox', 'node'],
		async (state) => {
			const seed = (Date.now() % 100000) + 4100;
			const name = `Agent Tool Person ${seed}`;
			const subjectId = await registeredPerson(seed, name, `agent-${seed}@example.com`);
			expect(subjectId).toMatch(/^[0-9a-f-]{36}$/);
			const mark = await sandboxMark(state);

			const run = await runWorkflow(
				toolWorkflow({
					toolName: 'Get_subject',
					parameters: {
						resource: 'subject',
						operation: 'get',
						subjectId: {
							__rl: true,
							mode: 'id',
							value:
								"={{ $fromAI('subjectId', 'ID (UUID) of the customer to look up', 'string') }}",
						},
					},
					args: { subjectId },
				}),
				{ state, nodeName: EXECUTOR },
			);

			expectRunSucceeded(run);
			const received = await sandboxRequests(
				{ after: mark, method: 'GET', pathPrefix: '/subject/people/' },
				state,
			);
			expect(received.map((r) => r.url)).toEqual([
				expect.stringMatching(new RegExp(`/api/v1/subject/people/${subjectId}$`)),
			]);
			const answer = toolAnswer(run.items);
			expect(answer).toContain(name);
			expect(answer).toContain(subjectId);
			// Simplify is on by default: the agent gets the fields people act on, not the whole record.
			expect(answer).not.toContain('"references"');
			recordCoverage(['subject.get'], {}, state);
		},
	);

	testE2e(
		'Transaction > Create Dynamic PIX as a tool: value and customer from $fromAI reach the sandbox, the answer holds the PIX code',
		['sandbox', 'node'],
		async (state) => {
			const seed = (Date.now() % 100000) + 5200;
			const subjectId = await registeredPerson(
				seed,
				`Agent Pix Payer ${seed}`,
				`pix-${seed}@example.com`,
			);
			const mark = await sandboxMark(state);

			const run = await runWorkflow(
				toolWorkflow({
					toolName: 'Create_PIX',
					parameters: dynamicPixTool(),
					args: { customerId: subjectId, amount: '87.45', idempotency_key: `pix-${subjectId}` },
				}),
				{ state, nodeName: EXECUTOR },
			);

			expectRunSucceeded(run);
			const received = await sandboxRequests(
				{ after: mark, method: 'POST', route: undefined, pathPrefix: '/transactions' },
				state,
			);
			expect(received).toHaveLength(1);
			expect(received[0].body.transaction).toMatchObject({
				subject_id: subjectId,
				value: '87.45',
				currency: 'BRL',
				exchange_currency: 'USD',
				use_dynamic_pix: true,
			});
			const answer = toolAnswer(run.items);
			expect(answer).toContain('87.45');
			expect(answer).toMatch(/pix_code/);
			recordCoverage(['transaction.createDynamicPix'], {}, state);
		},
	);

	testE2e(
		'a value from $fromAI that breaks a rule fails the tool call with the readable message, and nothing is sent',
		['sandbox', 'node'],
		async (state) => {
			const mark = await sandboxMark(state);

			const run = await runWorkflow(
				toolWorkflow({
					toolName: 'Create_PIX',
					parameters: dynamicPixTool('4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c'),
					// A model that forgot the second decimal.
					args: { amount: '87.4', idempotency_key: 'pix-bad-amount' },
				}),
				{ state, nodeName: EXECUTOR },
			);

			expect(run.runData?.status).toBe('error');
			const message = JSON.stringify(run.error ?? run.runData?.resultData?.error ?? null);
			expect(message).toMatch(/Invalid Value \(item 0\)/);
			expect(message).toContain('87.40');
			expect(await sandboxRequests({ after: mark, pathPrefix: '/transactions' }, state)).toEqual(
				[],
			);
		},
	);

	testE2e(
		'an agent that asks for the same payout twice with the same reference (two tool calls, two executions) pays once; the second call says it was already done; an identical payout under another reference is paid (issue 24)',
		['sandbox', 'node'],
		async (state) => {
			const seed = (Date.now() % 100000) + 6300;
			const subjectId = await registeredPerson(
				seed,
				`Agent Payee ${seed}`,
				`payee-${seed}@example.com`,
			);
			// The node's Idempotency Key is, as a tool, $fromAI('idempotency_key'): its default there.
			const payoutTool = (/** @type {string} */ amount, /** @type {string} */ reference) =>
				toolWorkflow({
					toolName: 'Pay_out',
					parameters: {
						resource: 'transaction',
						operation: 'createPayout',
						subjectId: {
							__rl: true,
							mode: 'id',
							value: "={{ $fromAI('customerId', 'ID (UUID) of the customer to pay', 'string') }}",
						},
						value: "={{ $fromAI('amount', 'Amount in USD with two decimals', 'string') }}",
						currency: 'USD',
						exchangeCurrency: 'BRL',
						// Where money goes is fixed by the user, out of the model's reach.
						fromBankAccountId: ACCOUNT_IDS.usdCashOut,
						toBankAccountId: ACCOUNT_IDS.brlCustomer,
					},
					args: { customerId: subjectId, amount, idempotency_key: reference },
				});
			const workflow = payoutTool('64.10', `invoice-${seed}-1`);
			const mark = await sandboxMark(state);
			const first = await runWorkflow(workflow, { state, nodeName: EXECUTOR });
			const second = await runWorkflow(workflow, { state, nodeName: EXECUTOR, imported: true });
			for (const run of [first, second]) {
				if (run.runData?.status !== 'success') process.stderr.write(`${explain(run)}\n`);
				expect(run.runData?.status).toBe('success');
			}
			const payouts = await sandboxRequests(
				{ after: mark, method: 'POST', pathPrefix: '/transactions' },
				state,
			);
			expect(payouts.map((r) => r.body.transaction.value)).toEqual(['64.10']);
			expect(toolAnswer(first.items)).not.toContain('alreadyDone');
			expect(toolAnswer(second.items)).toContain('"alreadyDone":true');

			// The key, and the fingerprint that binds it to this payment's parameters (issue 32).
			expect(payouts[0].body.transaction.meta).toEqual({
				n8n_facilitapay_ref: `key:invoice-${seed}-1`,
				n8n_facilitapay_fp: expect.stringMatching(/^[\w-]{16}$/),
			});

			// Another reference is another payment, even with the very same content: sent.
			const other = payoutTool('64.10', `invoice-${seed}-2`);
			other.id = workflow.id;
			// The same workflow (re-imported), its Tool Executor asking under another reference.
			const third = await runWorkflow(other, { state, nodeName: EXECUTOR });
			expect(third.runData?.status).toBe('success');
			const after = await sandboxRequests(
				{ after: mark, method: 'POST', pathPrefix: '/transactions' },
				state,
			);
			expect(after.map((r) => r.body.transaction.value)).toEqual(['64.10', '64.10']);
			process.stderr.write(
				`agent payout twice: ${after.length} payouts for 3 tool calls (64.10 ref 1, 64.10 ref 1, 64.10 ref 2); second answer: ${toolAnswer(second.items).slice(0, 200)}\n`,
			);
		},
		CLI_TIMEOUT * 3,
	);
});
