// Issue 44, in a real n8n 2.41.1 with no network: an AI agent pays out only what a person
// approved, once, behind n8n's human review of tool calls.
//
// FINDINGS (filled from the runs below)
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import { scenarioMarker, startChatModel } from '../../sandbox/offline/chatModel.mjs';
import { startMailbox } from '../../sandbox/offline/mailbox.mjs';
import {
	AGENT,
	agentAnswer,
	agentReviewWorkflow,
	clickLink,
	createAgentCredentials,
	nodeRuns,
	PAYOUT_TOOL,
	reviewLinks,
	startAgentRun,
} from './lib/agent.mjs';
import {
	activateWorkflow,
	createPerson,
	createWorkflowViaApi,
	describeE2e,
	e2eEnabled,
	samplePerson,
	sandboxMark,
	sandboxRequests,
	sharedState,
	testE2e,
	uniqueId,
	waitFor,
} from './lib/n8n-e2e.mjs';
import { endedExecution, getExecution, untilWaiting } from './lib/waiting.mjs';

const TIMEOUT = 300_000;

/** @type {Awaited<ReturnType<typeof startChatModel>>} */
let model;
/** @type {Awaited<ReturnType<typeof startMailbox>>} */
let mailbox;
/** @type {{openAi: {id: string, name: string}, smtp: {id: string, name: string}}} */
let creds;

/** @param {any} state */
const serverOf = (state) => ({ n8nUrl: state.n8nUrl, apiKey: state.apiKey });

/**
 * A customer in the sandbox, the agent's workflow created and published; returns what a scenario needs.
 * @param {any} state @param {string} label @param {{message?: string, describe?: boolean}} [options]
 */
async function setUp(state, label, options = {}) {
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
		facilitaPay: state.credentials,
		openAi: creds.openAi,
		smtp: creds.smtp,
		reviewTo,
		...options,
	});
	const created = await createWorkflowViaApi(workflow, state);
	await activateWorkflow(created.id, state);
	return { subjectId, name: person.social_name, path, reviewTo, workflowId: created.id };
}

/** POSTs to /transactions the sandbox received after `mark`. @param {any} state @param {number} mark */
const payoutsAfter = async (state, mark) =>
	(
		await sandboxRequests({ after: mark, method: 'POST', pathPrefix: '/transactions' }, state)
	).filter((r) => r.body?.transaction?.from_bank_account_id === ACCOUNT_IDS.usdCashOut);

/** The n-th (1-based) review mail to `reviewTo`. @param {string} reviewTo @param {number} [nth] */
const reviewMail = (reviewTo, nth = 1) =>
	mailbox.waitForMessage(
		(m) =>
			m.to.includes(reviewTo) &&
			mailbox
				.messages()
				.filter((x) => x.to.includes(reviewTo))
				.indexOf(m) ===
				nth - 1,
		{ timeoutMs: 180_000 },
	);

describeE2e('An AI agent pays out behind n8n human review (issue 44)', () => {
	beforeAll(async () => {
		if (!e2eEnabled()) return;
		model = await startChatModel();
		mailbox = await startMailbox();
		creds = await createAgentCredentials(sharedState(), {
			modelUrl: model.url,
			mailPort: mailbox.port,
			suffix: uniqueId('shared'),
		});
	}, 120_000);

	afterAll(async () => {
		await model?.close();
		await mailbox?.close();
	});

	testE2e(
		'approve: the payout is sent once, after the approval; the agent answers',
		['sandbox', 'node'],
		async (state) => {
			const setup = await setUp(state, 'approve');
			const scenario = uniqueId('approve');
			const key = `invoice-${scenario}`;
			model.script(scenario, [
				{
					tools: [
						{
							tool: /^Pay_out$/,
							args: { customerId: setup.subjectId, amount: '64.10', idempotency_key: key },
						},
					],
				},
				{ text: 'Paid 64.10 USD.' },
			]);
			const mark = await sandboxMark(state);
			const started = Date.now();
			const executionId = await startAgentRun(
				state.n8nUrl,
				setup.path,
				`Pay ${setup.name} 64.10 USD for invoice ${key}. ${scenarioMarker(scenario)}`,
			);
			const mail = await reviewMail(setup.reviewTo);
			const mailedMs = Date.now() - started;
			const waiting = await untilWaiting(serverOf(state), executionId, 120_000);
			console.log(
				`REVIEW MAIL (approve): subject ${JSON.stringify(mail.subject)}\n${mail.text}\nlinks: ${JSON.stringify(mail.links, null, 1)}`,
			);
			console.log(
				`execution ${executionId} while the review is pending: status ${waiting.status}, waitTill ${waiting.waitTill}, runs ${JSON.stringify(nodeRuns(waiting))}`,
			);
			expect(await payoutsAfter(state, mark)).toHaveLength(0);

			const { approve } = reviewLinks(mail);
			const click = await clickLink(approve);
			console.log(
				`approve click: HTTP ${click.status} in ${click.ms} ms: ${click.text.slice(0, 200)}`,
			);
			const ended = await endedExecution(serverOf(state), executionId, 180_000);
			console.log(
				`ended: ${ended.status}; runs ${JSON.stringify(nodeRuns(ended))}; answer ${JSON.stringify(agentAnswer(ended))}; mail after ${mailedMs} ms, all ${Date.now() - started} ms`,
			);
			console.log(
				`model requests: ${JSON.stringify(
					model
						.requests(scenario)
						.map((r) => ({
							step: r.step,
							tools: (r.body.tools ?? []).map((t) => t.function.name),
							last: r.body.messages.at(-1),
						})),
					null,
					1,
				).slice(0, 3000)}`,
			);
			expect(ended.status).toBe('success');
			expect(agentAnswer(ended)).toContain('Paid 64.10 USD.');
			const payouts = await payoutsAfter(state, mark);
			expect(payouts.map((r) => r.body.transaction.value)).toEqual(['64.10']);
			expect(payouts[0].body.transaction.subject_id).toBe(setup.subjectId);
		},
		TIMEOUT,
	);
});
