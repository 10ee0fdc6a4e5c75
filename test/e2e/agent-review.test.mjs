// Issue 44, in a real n8n 2.41.1 with no network: an AI agent pays out only what a person
// approved, once, behind n8n's human review of tool calls. The agent (n8n's AI Agent, v3.1) talks
// to n8n's own OpenAI Chat Model node pointed at a scripted model on loopback
// (sandbox/offline/chatModel.mjs); the Create Payout tool is gated by the review variant n8n
// generates for the Send Email node (emailSendHitlTool), whose mail goes to a local SMTP catcher
// (sandbox/offline/mailbox.mjs); the test "clicks" the mail's links as a person would. Payouts are
// counted by the sandbox's record of POST /transactions. Workflow: test/e2e/lib/agent.mjs.
//
// Why e-mail as the review channel: the nodes with a send-and-wait operation in 2.41.1 (so with a
// review variant) are Send Email, Slack, Telegram, Discord, Microsoft Teams, Outlook, Gmail, Google
// Chat, WhatsApp (n8n-nodes-base) and the Chat node of @n8n/n8n-nodes-langchain. All but two reach
// a vendor's API, which a stand-in would have to imitate; the Chat node asks in n8n's own chat
// (a chat session and a chat client: not tried). Send Email speaks plain SMTP to a host
// the credential names: a catcher of ~250 lines over node:net, no dependency. The other channels
// build their links with the same helpers (getSendAndWaitConfig / getSignedResumeUrl in 2.41.1's
// sources), so what is measured here about the links should hold there (not run).
//
// WHAT n8n 2.41.1 DOES (measured by these tests; figures in the report of issue 44)
// - The links: `<N8N_WEBHOOK_URL>webhook-waiting/<execution id>/<review node's id>?approved=true|false
//   &signature=<64 hex>`. The signature is an HMAC-SHA256 (instance's hmacSignatureSecret) of the
//   path and query without the signature (n8n-core signature-helpers.js): no token per wait, no
//   expiry, nothing of the run in it. A link with another link's signature (Approve with the
//   Decline's) is refused: 401.
// - While the review is pending the execution's status is `waiting` (waitTill 3000-01-01, no limit
//   set); the agent's model ran once, the review node once, the payout tool not at all.
// - A link opened by a client whose User-Agent `isbot` calls a bot (Node's fetch sends "node")
//   answers 200 with an empty page and resumes nothing: the execution stays waiting. Only a
//   browser-like User-Agent resumes it.
// - Approve: the gated tool runs with the model's toolParameters, then the agent calls the model
//   again (a second model request holding the tool's result) and the execution ends `success`
//   with the model's final text.
// - Decline: the model gets, as the tool's result, "User rejected the tool call to <node name>
//   (id: <tool call id>). STOP what you are doing and wait for the user to tell you how to
//   proceed. The tool is still available if needed."; the agent calls the model again.
// - The same link twice at once (a double click): one resumes the execution; the other answers 409
//   "The execution "<id>" is running already." or, when both read it still waiting, 500 "There was
//   a problem executing the workflow" (n8n logs "Execution is already being resumed by another
//   process"): the payout tool runs once either way.
// - The same link a second time, after the execution ended: 200, n8n's "no action required" page
//   (send-and-wait-no-action-required); nothing runs again.
// - A second review of the same node in the same execution: its links are byte for byte those of
//   the first review (same execution, same node, same query): the first mail's Approve link
//   approves the second call.
// - A restart while the review is pending (SIGTERM, the same database): at start-up n8n's execution
//   recovery (crash recovery mode "extensive", the default) amends the waiting execution: it never
//   logged n8n.workflow.success/failed, and the AI Agent logged n8n.node.started without run data
//   (the agent's run is saved when it ends), so the agent gets a crashed run and the execution the
//   error "Workflow did not finish, possible out-of-memory issue", while its saved status stays
//   `waiting`. The Approve link then answers 409 "The execution "<id>" has finished with error.":
//   nothing is paid, and the agent can no longer be resumed. With N8N_EVENTBUS_RECOVERY_MODE=simple
//   (recovery marks only new/running/unknown executions crashed and amends no data) the waiting
//   execution is left alone: approved after the restart, it pays once and the agent answers.
// - The agent's maxIterations (N): with only direct tools, N model calls, then "Max iterations (N)
//   reached" (probed with N = 1, 2); with one reviewed and approved payout among the tool calls,
//   N + 1 model calls (N = 1, 2, 3): the reviewed call's round is not counted. With N = 1, Pay out
//   (reviewed, approved, paid) then Get transaction, the agent's 3rd model call is refused: the
//   execution ends `error` although the payout was made.
// - n8n's default review Message `{{ $tool.parameters }}` renders as "[object Object]": the
//   reviewer reads the tool's name but not the amount, customer or reference. A Message with
//   `{{ JSON.stringify($tool.parameters) }}` shows them.
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import { scenarioMarker } from '../../sandbox/offline/chatModel.mjs';
import {
	agentAnswer,
	agentReviewWorkflow,
	clickLink,
	createAgentCredentials,
	nodeRuns,
	PAYOUT_TOOL,
	payoutsAfter,
	reviewIn,
	useOfflineAgentParts,
	REVIEW_NODE,
	REVIEWED_TEXT_MESSAGE,
	reviewLinks,
	startAgentRun,
} from './lib/agent.mjs';
import {
	INSTALL_TIMEOUT,
	activateWorkflow,
	createPerson,
	createWorkflowViaApi,
	describeE2e,
	e2eEnabled,
	samplePerson,
	sandboxApi,
	sandboxMark,
	sharedState,
	testE2e,
	uniqueId,
} from './lib/n8n-e2e.mjs';
import { ownN8n } from './lib/own-n8n.mjs';
import { endedExecution, getExecution, untilWaiting } from './lib/waiting.mjs';

const TIMEOUT = 300_000;

const offline = useOfflineAgentParts('shared');

/** @param {any} state */
const serverOf = (state) => ({ n8nUrl: state.n8nUrl, apiKey: state.apiKey });

/** A Message that shows the tool's parameters (n8n's default renders them as "[object Object]"). */
const JSON_MESSAGE =
	'=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ JSON.stringify($tool.parameters) }}';

/**
 * A customer in the sandbox and the agent's workflow, created and published.
 * @param {any} state @param {string} label
 * @param {{message?: string, describe?: boolean, credentials?: {id: string, name: string}, agentCreds?: typeof offline.creds}} [options]
 */
async function setUp(
	state,
	label,
	{ credentials = state.credentials, agentCreds = offline.creds, ...options } = {},
) {
	const seed = (Date.now() % 100000) + Math.floor(Math.random() * 1000);
	const person = samplePerson(seed, `Agent Payee ${seed}`, {
		email: `payee-${seed}@example.com`,
		complete: false,
	});
	const subjectId = (await createPerson(person, state)).id;
	const path = uniqueId(`agent-${label}`).toLowerCase();
	const reviewTo = `reviewer-${path}@example.com`;
	const workflow = agentReviewWorkflow({
		path,
		facilitaPay: credentials,
		openAi: agentCreds.openAi,
		smtp: agentCreds.smtp,
		reviewTo,
		...options,
	});
	const created = await createWorkflowViaApi(workflow, state);
	await activateWorkflow(created.id, state);
	return { subjectId, name: person.social_name, path, reviewTo, workflowId: created.id };
}

/**
 * Scripts the model and starts the agent: its chat input asks to pay `amount` under reference
 * `key`; `steps` are the model's answers (see chatModel.mjs).
 * @param {any} state @param {Awaited<ReturnType<typeof setUp>>} setup
 * @param {(args: {customerId: string, amount: string, idempotency_key: string}) => any[]} steps
 * @param {{amount?: string, label?: string}} [options]
 */
async function begin(state, setup, steps, { amount = '64.10', label = 'run' } = {}) {
	const scenario = uniqueId(label);
	const key = `invoice-${scenario}`;
	const args = { customerId: setup.subjectId, amount, idempotency_key: key };
	offline.model.script(scenario, steps(args));
	const mark = await sandboxMark(state);
	const started = Date.now();
	const executionId = await startAgentRun(
		state.n8nUrl,
		setup.path,
		`Pay ${setup.name} ${amount} USD for invoice ${key}. ${scenarioMarker(scenario)}`,
	);
	return { scenario, key, args, mark, started, executionId };
}

/** A tool call of the payout tool. @param {object} args */
const payStep = (args) => ({ tools: [{ tool: /^Pay_out$/, args }] });

/** The n-th (1-based) review mail to `reviewTo`. @param {string} reviewTo @param {number} [nth] */
const reviewMail = (reviewTo, nth = 1) =>
	offline.mailbox
		.waitForMessage(
			() => offline.mailbox.messages().filter((m) => m.to.includes(reviewTo)).length >= nth,
			{
				timeoutMs: 180_000,
			},
		)
		.then(() => offline.mailbox.messages().filter((m) => m.to.includes(reviewTo))[nth - 1]);

/** The execution's review is pending: waiting, with the mail sent. @param {any} state @param {string} executionId */
const pending = (state, executionId) => untilWaiting(serverOf(state), executionId, 180_000);

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * An n8n of this file's own (see own-n8n.mjs: one that can be restarted) with `env`, its own
 * sandbox, and the model's and mailbox's credentials; started before the block's first test,
 * stopped after its last.
 * @param {string} suffix @param {Record<string, string>} env
 */
function useOwnN8n(suffix, env) {
	/** @type {{own: Awaited<ReturnType<typeof ownN8n>>, creds: typeof offline.creds}} */
	const n8n = /** @type {any} */ ({});
	beforeAll(async () => {
		if (!e2eEnabled()) return;
		n8n.own = await ownN8n(sharedState(), {
			version: 'v2',
			suffix,
			env,
			sandbox: { id: `facilitapay-${suffix}`, name: `FacilitaPay ${suffix} Sandbox` },
		});
		n8n.creds = await createAgentCredentials(n8n.own.state, {
			modelUrl: offline.model.url,
			mailPort: offline.mailbox.port,
			suffix,
		});
	}, INSTALL_TIMEOUT);
	afterAll(async () => {
		await n8n.own?.stop().catch(() => undefined);
		await n8n.own?.sb.close().catch(() => undefined);
	});
	return n8n;
}

/**
 * On the block's own n8n: a payout whose review is pending (mail sent, execution waiting, no error
 * yet), then n8n restarted on the same database.
 * @param {ReturnType<typeof useOwnN8n>} n8n @param {string} label @param {string} amount
 */
async function pendingThenRestart(n8n, label, amount) {
	const state = n8n.own.state;
	const setup = await setUp(state, label, {
		credentials: n8n.own.sb.credentials,
		agentCreds: n8n.creds,
	});
	const run = await begin(
		state,
		setup,
		(args) => [payStep(args), { text: 'Paid after the restart.' }],
		{ label, amount },
	);
	const mail = await reviewMail(setup.reviewTo);
	const before = await pending(state, run.executionId);
	expect(before.data?.resultData?.error).toBeUndefined();
	const stoppedAt = Date.now();
	await n8n.own.restart();
	return { state, run, mail, restartMs: Date.now() - stoppedAt };
}

describeE2e('An AI agent pays out behind n8n human review (issue 44)', () => {
	testE2e(
		'approve: nothing is paid while the review is pending; after Approve the payout is sent once, the agent answers',
		['sandbox', 'node'],
		async (state) => {
			const setup = await setUp(state, 'approve');
			const run = await begin(
				state,
				setup,
				(args) => [payStep(args), { text: 'Paid 64.10 USD.' }],
				{
					label: 'approve',
				},
			);
			const mail = await reviewMail(setup.reviewTo);
			const mailedMs = Date.now() - run.started;
			const waiting = await pending(state, run.executionId);
			expect(waiting.status).toBe('waiting');
			expect(nodeRuns(waiting)).toMatchObject({ [REVIEW_NODE]: 1 });
			expect(nodeRuns(waiting)[PAYOUT_TOOL]).toBeUndefined();
			expect(await payoutsAfter(state, run.mark)).toHaveLength(0);
			// The links n8n sends: the execution's id and the review node's id, a signature.
			const { approve, decline } = reviewLinks(mail);
			const linkShape = new RegExp(
				`^${state.n8nUrl}/webhook-waiting/${run.executionId}/review\\?approved=(true|false)&signature=[0-9a-f]{64}$`,
			);
			expect(approve).toMatch(linkShape);
			expect(decline).toMatch(linkShape);
			console.log(
				`approve: mail after ${seconds(mailedMs)}; pending execution ${run.executionId}: status ${waiting.status}, waitTill ${waiting.waitTill}, node runs ${JSON.stringify(nodeRuns(waiting))}\nlinks: ${approve}\n       ${decline}`,
			);

			// Opened by a link checker (Node's own User-Agent, "node"): n8n answers and does nothing.
			const bot = await clickLink(approve, { userAgent: null });
			expect({ status: bot.status, text: bot.text }).toEqual({ status: 200, text: '' });
			expect((await getExecution(serverOf(state), run.executionId)).status).toBe('waiting');

			// Approve with the Decline's signature: refused.
			const forged = await clickLink(
				approve.replace(/signature=\w+/, decline.match(/signature=\w+/)?.[0] ?? ''),
			);
			expect(forged.status).toBe(401);
			expect((await getExecution(serverOf(state), run.executionId)).status).toBe('waiting');

			const clickedAt = Date.now();
			const click = await clickLink(approve);
			expect(click.status).toBe(200);
			const ended = await endedExecution(serverOf(state), run.executionId, 180_000);
			expect(ended.status).toBe('success');
			expect(agentAnswer(ended)).toBe('Paid 64.10 USD.');
			const payouts = await payoutsAfter(state, run.mark);
			expect(payouts.map((r) => r.body.transaction.value)).toEqual(['64.10']);
			expect(payouts[0].body.transaction.subject_id).toBe(setup.subjectId);
			// The agent called the model again after the tool ran: 2 requests, the 2nd with the payout.
			const requests = offline.model.requests(run.scenario);
			expect(requests.map((r) => r.step)).toEqual([0, 1]);
			expect(offline.model.toolResults(run.scenario)[0].content).toContain('"value":"64.10"');
			console.log(
				`approve: bot click HTTP ${bot.status} (${bot.ms} ms, still waiting); forged HTTP ${forged.status}; approve click HTTP ${click.status} in ${click.ms} ms; ended ${ended.status} ${seconds(Date.now() - clickedAt)} after the click; ${payouts.length} payout; node runs ${JSON.stringify(nodeRuns(ended))}; model requests ${requests.length}; answer ${JSON.stringify(agentAnswer(ended))}`,
			);
		},
		TIMEOUT,
	);

	testE2e(
		'deny: nothing is paid; the model receives the denial as the tool result',
		['sandbox', 'node'],
		async (state) => {
			const setup = await setUp(state, 'deny');
			const run = await begin(
				state,
				setup,
				(args) => [payStep(args), { text: 'The payout was not approved; nothing was paid.' }],
				{ label: 'deny', amount: '71.20' },
			);
			const mail = await reviewMail(setup.reviewTo);
			await pending(state, run.executionId);
			const click = await clickLink(reviewLinks(mail).decline);
			expect(click.status).toBe(200);
			const ended = await endedExecution(serverOf(state), run.executionId, 180_000);
			expect(ended.status).toBe('success');
			expect(await payoutsAfter(state, run.mark)).toHaveLength(0);
			expect(nodeRuns(ended)[PAYOUT_TOOL]).toBeUndefined();
			const results = offline.model.toolResults(run.scenario);
			expect(results).toHaveLength(1);
			expect(results[0].content).toMatch(/User rejected the tool call to Pay out \(id: call_\w+\)/);
			expect(agentAnswer(ended)).toBe('The payout was not approved; nothing was paid.');
			console.log(
				`deny: decline click HTTP ${click.status}; ended ${ended.status}; 0 payouts; the model received: ${results[0].content}`,
			);
		},
		TIMEOUT,
	);

	testE2e(
		'the Approve link called twice (double click, then a replay after the end): one payout',
		['sandbox', 'node'],
		async (state) => {
			const setup = await setUp(state, 'twice');
			const run = await begin(state, setup, (args) => [payStep(args), { text: 'Paid.' }], {
				label: 'twice',
				amount: '12.34',
			});
			const mail = await reviewMail(setup.reviewTo);
			await pending(state, run.executionId);
			const { approve } = reviewLinks(mail);
			// A double click: two requests at once.
			const [first, second] = await Promise.all([clickLink(approve), clickLink(approve)]);
			// One resumes it ("Action recorded"); the other loses the race: 409 when it reads the
			// execution running, 500 when both read it waiting and n8n's claim refuses the second
			// ("Execution is already being resumed by another process" in n8n's log). Both seen.
			const [won, lost] = [first, second].sort((a, b) => a.status - b.status);
			expect(won.status).toBe(200);
			expect(won.text).toContain('Action recorded');
			expect([409, 500]).toContain(lost.status);
			const ended = await endedExecution(serverOf(state), run.executionId, 180_000);
			expect(ended.status).toBe('success');
			// A replay once the execution ended.
			const replay = await clickLink(approve);
			expect(replay.status).toBe(200);
			expect(replay.text).toMatch(/no action required|already|closed/i);
			const payouts = await payoutsAfter(state, run.mark);
			expect(payouts.map((r) => r.body.transaction.value)).toEqual(['12.34']);
			expect(nodeRuns(await getExecution(serverOf(state), run.executionId))).toMatchObject({
				[PAYOUT_TOOL]: 1,
				[REVIEW_NODE]: 1,
			});
			const title = (/** @type {string} */ html) =>
				(
					html.match(/<title>([^<]*)<\/title>/i)?.[1] ?? html.replace(/\s+/g, ' ').slice(0, 120)
				).trim();
			console.log(
				`twice: double click → HTTP ${first.status} "${title(first.text)}" and HTTP ${second.status} "${title(second.text)}"; replay after the end → HTTP ${replay.status} "${title(replay.text)}" (${replay.text.match(/no action required[^<]*/i)?.[0] ?? ''}); ${payouts.length} payout`,
			);
		},
		TIMEOUT,
	);

	testE2e(
		"the model asks for the same payout again (same idempotency_key) after the approval and the second call is approved too: one payout; the first mail's link approves the second review",
		['sandbox', 'node'],
		async (state) => {
			const setup = await setUp(state, 'again', { message: JSON_MESSAGE });
			const run = await begin(
				state,
				setup,
				(args) => [payStep(args), payStep(args), { text: 'Paid once.' }],
				{ label: 'again', amount: '45.00' },
			);
			const firstMail = await reviewMail(setup.reviewTo, 1);
			await pending(state, run.executionId);
			const firstLinks = reviewLinks(firstMail);
			expect((await clickLink(firstLinks.approve)).status).toBe(200);
			// The second review of the same node, in the same execution.
			const secondMail = await reviewMail(setup.reviewTo, 2);
			const waitingAgain = await pending(state, run.executionId);
			expect(nodeRuns(waitingAgain)).toMatchObject({ [REVIEW_NODE]: 2, [PAYOUT_TOOL]: 1 });
			const secondLinks = reviewLinks(secondMail);
			expect(secondLinks).toEqual(firstLinks);
			expect(secondMail.text).toContain(run.key);
			// The person opens the first mail again and clicks its Approve: it approves the second call.
			const again = await clickLink(firstLinks.approve);
			expect(again.status).toBe(200);
			const ended = await endedExecution(serverOf(state), run.executionId, 180_000);
			expect(ended.status).toBe('success');
			expect(nodeRuns(ended)).toMatchObject({ [REVIEW_NODE]: 2, [PAYOUT_TOOL]: 2 });
			const payouts = await payoutsAfter(state, run.mark);
			expect(payouts.map((r) => r.body.transaction.value)).toEqual(['45.00']);
			const results = offline.model.toolResults(run.scenario);
			expect(results).toHaveLength(2);
			expect(results[0].content).not.toContain('alreadyDone');
			expect(results[1].content).toContain('"alreadyDone":true');
			expect(agentAnswer(ended)).toBe('Paid once.');
			console.log(
				`again: 2 reviews, both approved (the 2nd with the 1st mail's link, HTTP ${again.status}); same links in both mails: ${JSON.stringify(secondLinks) === JSON.stringify(firstLinks)}; payout tool ran ${nodeRuns(ended)[PAYOUT_TOOL]} times; ${payouts.length} payout; 2nd tool result: ${results[1].content.slice(0, 160)}`,
			);
		},
		TIMEOUT,
	);

	testE2e(
		'the review mail a person reads: printed; with the default Message it names the tool but shows the parameters as [object Object]',
		['sandbox', 'node'],
		async (state) => {
			const byDefault = await setUp(state, 'mail-default');
			const shown = await setUp(state, 'mail-json', { message: JSON_MESSAGE });
			const runs = [];
			for (const setup of [byDefault, shown]) {
				const run = await begin(state, setup, (args) => [payStep(args), { text: 'Not paid.' }], {
					label: 'mail',
					amount: '88.80',
				});
				const mail = await reviewMail(setup.reviewTo);
				await pending(state, run.executionId);
				runs.push({ setup, run, mail });
			}
			const [plain, json] = runs;
			console.log(
				`REVIEW MAIL with n8n's default Message (subject ${JSON.stringify(plain.mail.subject)}):\n${plain.mail.text}\n--- HTML body ---\n${plain.mail.html}`,
			);
			console.log(
				`REVIEW MAIL with Message {{ JSON.stringify($tool.parameters) }} (subject ${JSON.stringify(json.mail.subject)}):\n${json.mail.text}`,
			);
			expect(plain.mail.subject).toBe('Approve a payout?');
			expect(plain.mail.text).toContain('The agent wants to run this tool: Pay_out');
			expect(plain.mail.text).toContain('[object Object]');
			expect(plain.mail.text).not.toContain('88.80');
			expect(json.mail.text).toContain('The agent wants to run this tool: Pay_out');
			for (const part of [
				'"amount":"88.80"',
				`"customerId":"${json.setup.subjectId}"`,
				`"idempotency_key":"${json.run.key}"`,
			])
				expect(json.mail.text).toContain(part);
			// Neither says where the money goes (fixed in the node, not a parameter of the model).
			expect(json.mail.text).not.toContain(ACCOUNT_IDS.brlCustomer);
			for (const { run, mail } of runs) {
				expect((await clickLink(reviewLinks(mail).decline)).status).toBe(200);
				await endedExecution(serverOf(state), run.executionId, 180_000);
				expect(await payoutsAfter(state, run.mark)).toHaveLength(0);
			}
		},
		TIMEOUT,
	);

	testE2e(
		'Describe payout, then the gated payout with its words: the mail names the amount, currency, recipient and customer in words; approved → one payout; without words the mail tells the reviewer to deny',
		['sandbox', 'node'],
		async (state) => {
			const setup = await setUp(state, 'describe', {
				describe: true,
				requireReviewedText: true,
				message: REVIEWED_TEXT_MESSAGE,
			});
			// An earlier payout of this customer to the account (a fixture, straight to the sandbox):
			// FacilitaPay's record of it names the account's holder, which the words then give.
			const earlier = await sandboxApi(
				'POST',
				'/transactions',
				{
					transaction: {
						subject_id: setup.subjectId,
						value: '10.00',
						currency: 'USD',
						exchange_currency: 'BRL',
						from_bank_account_id: ACCOUNT_IDS.usdCashOut,
						to_bank_account_id: ACCOUNT_IDS.brlCustomer,
					},
				},
				state,
			);
			expect(earlier.status).toBeLessThan(300);
			/** The `review` of the last tool result in a request to the offline.model. @param {any} body */
			const reviewIn = (body) => {
				const last = body.messages.filter((/** @type {any} */ m) => m.role === 'tool').at(-1);
				const parsed = JSON.parse(typeof last.content === 'string' ? last.content : '[]');
				return (Array.isArray(parsed) ? parsed[0] : parsed)?.review;
			};
			const run = await begin(
				state,
				setup,
				(args) => [
					{ tools: [{ tool: /^Describe_payout$/, args }] },
					{ tools: [{ tool: /^Pay_out$/, args: (body) => ({ ...args, review: reviewIn(body) }) }] },
					{ text: 'Paid as described.' },
				],
				{ label: 'describe', amount: '45.60' },
			);
			const mail = await reviewMail(setup.reviewTo);
			await pending(state, run.executionId);
			const described = reviewIn(offline.model.requests(run.scenario)[1].body);
			console.log(
				`REVIEW MAIL with the payout in words (subject ${JSON.stringify(mail.subject)}):\n${mail.text}`,
			);
			expect(typeof described).toBe('string');
			expect(mail.text).toContain(described);
			expect(mail.text).toContain('Payout of USD 45.60');
			expect(mail.text).toContain('converted to BRL');
			expect(mail.text).toContain(`for customer ${setup.name}`);
			expect(mail.text).toContain(
				' to Maria da Silva (Nu Pagamentos S.A. 260, branch 0001, account …',
			);
			expect(mail.text).toContain(`Reference: ${run.key}`);
			expect(await payoutsAfter(state, run.mark)).toHaveLength(0);
			expect((await clickLink(reviewLinks(mail).approve)).status).toBe(200);
			const ended = await endedExecution(serverOf(state), run.executionId, 180_000);
			expect(ended.status).toBe('success');
			expect(agentAnswer(ended)).toBe('Paid as described.');
			const payouts = await payoutsAfter(state, run.mark);
			expect(payouts.map((r) => r.body.transaction.value)).toEqual(['45.60']);

			// A model that skips Describe payout: the mail says so; the reviewer denies; nothing paid.
			const skip = await begin(state, setup, (args) => [payStep(args), { text: 'Not paid.' }], {
				label: 'nowords',
				amount: '45.70',
			});
			const bare = await reviewMail(setup.reviewTo, 2);
			await pending(state, skip.executionId);
			expect(bare.text).toContain(
				'The agent did not describe this payout in words: deny it and ask it to call Describe payout first.',
			);
			expect((await clickLink(reviewLinks(bare).decline)).status).toBe(200);
			await endedExecution(serverOf(state), skip.executionId, 180_000);
			expect(await payoutsAfter(state, skip.mark)).toHaveLength(0);
			console.log(
				`describe: ${payouts.length} payout after the approval of the described payout; the mail without words: ${JSON.stringify(bare.text.split('\n').slice(0, 3).join(' / '))}; declined, 0 payouts`,
			);
		},
		TIMEOUT,
	);

	testE2e(
		'maxIterations 1: the reviewed payout is paid once, one more tool call is allowed, then the execution ends in error (paid all the same)',
		['sandbox', 'node'],
		async (state) => {
			const setup = await setUp(state, 'iterations', { maxIterations: 1 });
			const lookup = (/** @type {string} */ id) => ({
				tools: [{ tool: /^Get_transaction$/, args: { transactionId: id } }],
			});
			const run = await begin(
				state,
				setup,
				(args) => [
					payStep(args),
					lookup('00000000-0000-4000-8000-000000000000'),
					{ text: 'Paid.' },
				],
				{ label: 'iterations', amount: '11.00' },
			);
			const mail = await reviewMail(setup.reviewTo);
			await pending(state, run.executionId);
			expect((await clickLink(reviewLinks(mail).approve)).status).toBe(200);
			const ended = await endedExecution(serverOf(state), run.executionId, 180_000);
			expect(ended.status).toBe('error');
			expect(ended.data?.resultData?.error?.message).toBe(
				'Max iterations (1) reached. The agent could not complete the task within the allowed number of iterations.',
			);
			expect(nodeRuns(ended)).toMatchObject({ [PAYOUT_TOOL]: 1, 'Get transaction': 1 });
			expect(offline.model.requests(run.scenario)).toHaveLength(2);
			const payouts = await payoutsAfter(state, run.mark);
			expect(payouts.map((r) => r.body.transaction.value)).toEqual(['11.00']);
			console.log(
				`maxIterations 1: model requests ${offline.model.requests(run.scenario).length}; node runs ${JSON.stringify(nodeRuns(ended))}; ended ${ended.status}: ${ended.data?.resultData?.error?.message}; ${payouts.length} payout`,
			);
		},
		TIMEOUT,
	);

	describe('n8n restarted while the approval is pending (crash recovery "extensive", the default)', () => {
		const n8n = useOwnN8n('agent-review', {});
		testE2e(
			'approved after a restart: n8n 2.41.1 has marked the waiting agent crashed at start-up, the Approve link answers 409 and nothing is paid (the agent cannot be resumed)',
			['sandbox', 'node'],
			async () => {
				const { state, run, mail, restartMs } = await pendingThenRestart(n8n, 'restart', '33.30');
				// At start-up n8n's execution recovery (package n8n, eventbus/message-event-bus.js
				// performStartupRecovery → execution-recovery.service.js amend) reads the event log: a
				// waiting execution never logged n8n.workflow.success/failed, so it is "unfinished"; the
				// AI Agent logged n8n.node.started but has no run data yet (its run is saved when it
				// ends), so recovery gives it a crashed run and the execution a WorkflowCrashedError,
				// while the saved status stays `waiting`.
				const afterRestart = await getExecution(serverOf(state), run.executionId);
				const agentRun = afterRestart.data?.resultData?.runData?.['AI Agent']?.[0];
				expect(afterRestart.status).toBe('waiting');
				expect(afterRestart.data?.resultData?.error?.message).toBe(
					'Workflow did not finish, possible out-of-memory issue',
				);
				expect(agentRun?.executionStatus).toBe('crashed');
				const click = await clickLink(reviewLinks(mail).approve);
				expect(click.status).toBe(409);
				expect(click.json?.message).toBe(
					`The execution "${run.executionId}" has finished with error.`,
				);
				const later = await getExecution(serverOf(state), run.executionId);
				expect(nodeRuns(later)[PAYOUT_TOOL]).toBeUndefined();
				expect(await payoutsAfter(state, run.mark)).toHaveLength(0);
				expect(offline.model.requests(run.scenario)).toHaveLength(1);
				console.log(
					`restart: n8n restarted in ${seconds(restartMs)}; execution ${run.executionId} after it: status ${afterRestart.status}, error ${JSON.stringify(afterRestart.data?.resultData?.error?.message)}, AI Agent run ${agentRun?.executionStatus}; approve click HTTP ${click.status} ${click.text.slice(0, 160)}; status then ${later.status}; 0 payouts; model requests ${offline.model.requests(run.scenario).length}`,
				);
			},
			INSTALL_TIMEOUT,
		);
	});

	describe('n8n restarted while the approval is pending, with N8N_EVENTBUS_RECOVERY_MODE=simple', () => {
		// "simple" recovery marks only executions still new/running/unknown as crashed and amends
		// no data: a waiting execution is left as it was.
		const n8n = useOwnN8n('agent-review-simple', { N8N_EVENTBUS_RECOVERY_MODE: 'simple' });

		testE2e(
			'approved after the restart: one payout, the agent answers',
			['sandbox', 'node'],
			async () => {
				const { state, run, mail, restartMs } = await pendingThenRestart(
					n8n,
					'restart-simple',
					'33.40',
				);
				const afterRestart = await getExecution(serverOf(state), run.executionId);
				expect(afterRestart.status).toBe('waiting');
				expect(afterRestart.data?.resultData?.error).toBeUndefined();
				expect(await payoutsAfter(state, run.mark)).toHaveLength(0);
				const click = await clickLink(reviewLinks(mail).approve);
				expect(click.status).toBe(200);
				const ended = await endedExecution(serverOf(state), run.executionId, 180_000);
				expect(ended.status).toBe('success');
				expect(agentAnswer(ended)).toBe('Paid after the restart.');
				const payouts = await payoutsAfter(state, run.mark);
				expect(payouts.map((r) => r.body.transaction.value)).toEqual(['33.40']);
				console.log(
					`restart (simple recovery): n8n restarted in ${seconds(restartMs)}; execution ${run.executionId} still ${afterRestart.status}, no error; approve click HTTP ${click.status}; ended ${ended.status}; ${payouts.length} payout; answer ${JSON.stringify(agentAnswer(ended))}`,
				);
			},
			INSTALL_TIMEOUT,
		);
	});
});
