// The example workflow examples/agent-payout-review.json ("FacilitaPay: An agent pays out, a person
// approves") in a real n8n 2.41.1 with no network. As shipped, except what a machine without a
// person, OpenAI or a mail server needs: its Chat Trigger becomes a Webhook answering with the
// execution's id (the Chat Trigger's chat needs n8n's chat client; the review makes the execution
// wait, so it must run in the server), the agent's prompt reads the Webhook's chatInput, and the
// credentials point at the scripted model and the local mailbox (sandbox/offline/). The tools, the
// review node, its Message, the system message and Require Reviewed Text are the example's.
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import { scenarioMarker } from '../../sandbox/offline/chatModel.mjs';
import {
	agentAnswer,
	chatWebhookNodes,
	clickLink,
	payoutsAfter,
	reviewIn,
	reviewLinks,
	startAgentRun,
	useOfflineAgentParts,
} from './lib/agent.mjs';
import { loadExample } from './lib/examples.mjs';
import {
	CREDENTIAL_TYPE,
	activateWorkflow,
	createPerson,
	createWorkflowViaApi,
	describeE2e,
	recordCoverage,
	samplePerson,
	sandboxApi,
	sandboxMark,
	testE2e,
	uniqueId,
} from './lib/n8n-e2e.mjs';
import { endedExecution, untilWaiting } from './lib/waiting.mjs';

const TIMEOUT = 300_000;
const TRIGGER = 'When chat message received';
const AGENT = 'AI Agent';
const REVIEW = 'Ask a person to approve';

const offline = useOfflineAgentParts('example');

/** @param {any} state */
const serverOf = (state) => ({ n8nUrl: state.n8nUrl, apiKey: state.apiKey });

/**
 * The example as shipped, with the changes named at the top of this file.
 * @param {any} state @param {string} path @param {string} reviewTo
 */
function exampleForTest(state, path, reviewTo) {
	const workflow = loadExample('agent-payout-review.json');
	const nodes = workflow.nodes.map((/** @type {any} */ node) => {
		const copy = structuredClone(node);
		if (copy.credentials?.[CREDENTIAL_TYPE]) copy.credentials[CREDENTIAL_TYPE] = state.credentials;
		if (copy.credentials?.openAiApi) copy.credentials.openAiApi = offline.creds.openAi;
		if (copy.credentials?.smtp) copy.credentials.smtp = offline.creds.smtp;
		if (copy.name === REVIEW) copy.parameters.toEmail = reviewTo;
		if (copy.name === AGENT)
			Object.assign(copy.parameters, {
				promptType: 'define',
				text: "={{ $('Chat').item.json.body.chatInput }}",
			});
		return copy;
	});
	const trigger = nodes.findIndex((/** @type {any} */ n) => n.name === TRIGGER);
	const [x, y] = nodes[trigger].position;
	nodes.splice(trigger, 1, ...chatWebhookNodes(path, [x - 220, y]));
	const connections = { ...workflow.connections };
	delete connections[TRIGGER];
	connections.Chat = { main: [[{ node: 'Started', type: 'main', index: 0 }]] };
	connections.Started = { main: [[{ node: AGENT, type: 'main', index: 0 }]] };
	return {
		id: uniqueId('e2e-example-agent'),
		name: `e2e ${workflow.name} ${path}`,
		active: false,
		settings: workflow.settings,
		nodes,
		connections,
		pinData: {},
	};
}

/**
 * A customer paid once before to the sandbox's BRL customer account (so FacilitaPay's records name
 * the account's holder), and the example published for them.
 * @param {any} state @param {string} label
 */
async function setUp(state, label) {
	const seed = (Date.now() % 100000) + Math.floor(Math.random() * 1000);
	const person = samplePerson(seed, `Example Payee ${seed}`, {
		email: `example-payee-${seed}@example.com`,
		complete: false,
	});
	const subjectId = (await createPerson(person, state)).id;
	const earlier = await sandboxApi(
		'POST',
		'/transactions',
		{
			transaction: {
				subject_id: subjectId,
				currency: 'USD',
				exchange_currency: 'BRL',
				value: '1.00',
				from_bank_account_id: ACCOUNT_IDS.usdCashOut,
				to_bank_account_id: ACCOUNT_IDS.brlCustomer,
			},
		},
		state,
	);
	expect(earlier.status).toBeLessThan(300);
	const path = uniqueId(`example-agent-${label}`).toLowerCase();
	const reviewTo = `approver-${path}@example.com`;
	const created = await createWorkflowViaApi(exampleForTest(state, path, reviewTo), state);
	await activateWorkflow(created.id, state);
	return { subjectId, name: person.social_name, path, reviewTo };
}

/** The arguments the model gives for a payout. @param {any} setup @param {string} amount @param {string} key */
const payoutArgs = (setup, amount, key) => ({
	customerId: setup.subjectId,
	amount,
	bankAccountId: ACCOUNT_IDS.brlCustomer,
	idempotency_key: key,
});

/** Describe payout, then Pay out with the words it gave. @param {Record<string, unknown>} args */
const describedPayout = (args) => [
	{ tools: [{ tool: /^Describe_payout$/, args }] },
	{
		tools: [
			{
				tool: /^Pay_out$/,
				args: (/** @type {any} */ body) => ({ ...args, review: reviewIn(body) }),
			},
		],
	},
];

/** The n-th (1-based) mail to `to`. @param {string} to @param {number} [nth] */
const mailTo = async (to, nth = 1) => {
	const mine = () => offline.mailbox.messages().filter((m) => m.to.includes(to));
	await offline.mailbox.waitForMessage(() => mine().length >= nth, { timeoutMs: 180_000 });
	return mine()[nth - 1];
};

/**
 * Scripts the model, starts the agent and waits for the n-th review mail.
 * @param {any} state @param {any} setup @param {string} label @param {(key: string) => any[]} steps
 */
async function begin(state, setup, label, steps) {
	const scenario = uniqueId(label);
	const key = `INV-${scenario}`;
	offline.model.script(scenario, steps(key));
	const mark = await sandboxMark(state);
	const executionId = await startAgentRun(
		state.n8nUrl,
		setup.path,
		`Pay ${setup.name} for invoice ${key}. ${scenarioMarker(scenario)}`,
	);
	return { scenario, key, mark, executionId };
}

describeE2e('Example: An agent pays out, a person approves (issue 44)', () => {
	testE2e(
		'the reviewer reads the payout in words (amount, currency, recipient, customer, reference); Approve pays it once',
		['sandbox', 'node'],
		async (state) => {
			const setup = await setUp(state, 'words');
			const run = await begin(state, setup, 'words', (key) => [
				...describedPayout(payoutArgs(setup, '150.00', key)),
				{ text: 'Paid 150.00 USD as approved.' },
			]);
			const mail = await mailTo(setup.reviewTo);
			const waiting = await untilWaiting(serverOf(state), run.executionId, 180_000);
			expect(waiting.status).toBe('waiting');
			console.log(`EXAMPLE REVIEW MAIL (subject ${JSON.stringify(mail.subject)}):\n${mail.text}`);
			expect(mail.subject).toBe('FacilitaPay: approve Pay_out?');
			expect(mail.text).toContain(
				`Payout of USD 150.00, converted to BRL, from your account …0003 to Maria da Silva (Nu Pagamentos S.A. 260, branch 0001, account …9900), for customer ${setup.name} (CPF ***.`,
			);
			expect(mail.text).toContain(`Reference: ${run.key} (paid once`);
			expect(await payoutsAfter(state, run.mark)).toHaveLength(0);
			expect((await clickLink(reviewLinks(mail).approve)).status).toBe(200);
			const ended = await endedExecution(serverOf(state), run.executionId, 180_000);
			expect(ended.status).toBe('success');
			expect(agentAnswer(ended)).toBe('Paid 150.00 USD as approved.');
			const payouts = await payoutsAfter(state, run.mark);
			expect(payouts.map((r) => [r.body.transaction.value, r.body.transaction.subject_id])).toEqual(
				[['150.00', setup.subjectId]],
			);
			expect(payouts[0].body.transaction.meta.n8n_facilitapay_ref).toBe(`key:${run.key}`);
			recordCoverage(['transaction.describeForReview', 'transaction.createPayout']);
		},
		TIMEOUT,
	);

	testE2e(
		'approved after the customer’s record changed: nothing is paid, and the model is told why',
		['sandbox', 'node'],
		async (state) => {
			const setup = await setUp(state, 'changed');
			const run = await begin(state, setup, 'changed', (key) => [
				...describedPayout(payoutArgs(setup, '80.00', key)),
				{ text: 'The payout was refused.' },
			]);
			const mail = await mailTo(setup.reviewTo);
			await untilWaiting(serverOf(state), run.executionId, 180_000);
			const renamed = await sandboxApi(
				'PUT',
				`/subject/people/${setup.subjectId}`,
				{ person: { social_name: 'Someone Else Entirely' } },
				state,
			);
			expect(renamed.status).toBeLessThan(300);
			expect((await clickLink(reviewLinks(mail).approve)).status).toBe(200);
			const ended = await endedExecution(serverOf(state), run.executionId, 180_000);
			expect(await payoutsAfter(state, run.mark)).toHaveLength(0);
			const told = offline.model
				.toolResults(run.scenario)
				.map((r) => r.content)
				.join('\n');
			expect(told).toContain('The approved text does not match this payout. Nothing was sent');
			expect(told).toContain('Someone Else Entirely');
			console.log(
				`changed record: execution ${ended.status}; 0 payouts; the model was told: ${told.slice(-400)}`,
			);
		},
		TIMEOUT,
	);

	testE2e(
		'the first review’s Approve link opened again while a second, different payout waits: only the first is paid',
		['sandbox', 'node'],
		async (state) => {
			const setup = await setUp(state, 'replay');
			const run = await begin(state, setup, 'replay', (key) => [
				...describedPayout(payoutArgs(setup, '30.00', key)),
				...describedPayout(payoutArgs(setup, '3000.00', `${key}-B`)),
				{ text: 'Done.' },
			]);
			const first = await mailTo(setup.reviewTo, 1);
			await untilWaiting(serverOf(state), run.executionId, 180_000);
			expect((await clickLink(reviewLinks(first).approve)).status).toBe(200);
			const second = await mailTo(setup.reviewTo, 2);
			expect(second.text).toContain('Payout of USD 3,000.00');
			// n8n's links of the second review are the first's, byte for byte.
			expect(reviewLinks(second).approve).toBe(reviewLinks(first).approve);
			await untilWaiting(serverOf(state), run.executionId, 180_000);
			expect((await clickLink(reviewLinks(first).approve)).status).toBe(200);
			const ended = await endedExecution(serverOf(state), run.executionId, 180_000);
			const payouts = await payoutsAfter(state, run.mark);
			expect(payouts.map((r) => r.body.transaction.value)).toEqual(['30.00']);
			const told = offline.model
				.toolResults(run.scenario)
				.map((r) => r.content)
				.join('\n');
			expect(told).toContain('This execution already sent the money of another approved request');
			console.log(
				`replayed link: execution ${ended.status}; payouts ${JSON.stringify(payouts.map((r) => r.body.transaction.value))}`,
			);
		},
		TIMEOUT,
	);
});
