// An AI agent that pays out behind n8n's human review of tool calls (issue 44), in a real n8n 2.x
// with no network: the workflow "Webhook (chat input) → Respond {execution_id} → AI Agent", the
// agent's model n8n's own OpenAI Chat Model node pointed at the scripted model on loopback
// (sandbox/offline/chatModel.mjs), its tools FacilitaPay Tool nodes, the payout one wired through
// the review variant n8n generates for the Send Email node (n8n-nodes-base.emailSendHitlTool) whose
// mail goes to the local SMTP catcher (sandbox/offline/mailbox.mjs).
//
// Why a Webhook and not the Chat Trigger or the Manual Trigger: the review puts the execution in
// n8n's waiting state and a later HTTP call resumes it, so the execution must run in the server
// (`n8n execute` ends with its process); the public API cannot start an execution, the Webhook
// can, and with a Respond to Webhook node it answers with the execution's id. The chat input is
// the request body's `chatInput`, what the Chat Trigger would hand over.
import { CREDENTIAL_TYPE, NODE_TYPES } from '../../../scripts/n8n-runtime.mjs';
import { ACCOUNT_IDS } from '../../../sandbox/accounts.mjs';
import { startChatModel } from '../../../sandbox/offline/chatModel.mjs';
import { startMailbox } from '../../../sandbox/offline/mailbox.mjs';
import { sandboxRequests } from './sandbox.mjs';
import { e2eEnabled, readAnswer, sharedState, uniqueId, waitFor } from './state.mjs';

export const AGENT = 'AI Agent';
export const MODEL_NODE = 'OpenAI Chat Model';
export const PAYOUT_TOOL = 'Pay out';
export const REVIEW_NODE = 'Review payout';
export const LOOKUP_TOOL = 'Get transaction';
export const DESCRIBE_TOOL = 'Describe payout';
/** The FacilitaPay action node's tool variant. */
export const TOOL_TYPE = `${NODE_TYPES.action}Tool`;
/** The review variant n8n 2.41.1 generates for the Send Email node (its send-and-wait operation). */
export const EMAIL_REVIEW_TYPE = 'n8n-nodes-base.emailSendHitlTool';
/**
 * A review Message that shows the payout in words (the Reviewed Text the model passes on from
 * Describe payout), or tells the reviewer to deny when there are none, then the parameters.
 */
export const REVIEWED_TEXT_MESSAGE =
	"={{ $tool.parameters.review || 'The agent did not describe this payout in words: deny it and ask it to call Describe payout first.' }}\n\nInput:\n{{ JSON.stringify($tool.parameters) }}";
/** n8n's default Message of a review node (hitl-tools.js in package `n8n`), kept when not told. */
export const DEFAULT_REVIEW_MESSAGE =
	'=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ $tool.parameters }}';

/** The $fromAI fields a payout takes from the model (customer and amount; the Idempotency Key is the node's tool default). */
export const PAYOUT_FROM_AI = {
	subjectId: {
		__rl: true,
		mode: 'id',
		value: "={{ $fromAI('customerId', 'ID (UUID) of the customer to pay', 'string') }}",
	},
	value: "={{ $fromAI('amount', 'Amount in USD with two decimals', 'string') }}",
};

/** Create Payout's parameters: where the money goes is fixed by the user, out of the model's reach. */
export function payoutToolParameters() {
	return {
		resource: 'transaction',
		operation: 'createPayout',
		...PAYOUT_FROM_AI,
		currency: 'USD',
		exchangeCurrency: 'BRL',
		fromBankAccountId: ACCOUNT_IDS.usdCashOut,
		toBankAccountId: ACCOUNT_IDS.brlCustomer,
	};
}

/**
 * The credentials the agent's workflow needs besides FacilitaPay's, created through the public API
 * (`openAiApi` with its Base URL `url` on the scripted model, `smtp` on the mailbox: no TLS, no
 * login). Returns {openAi, smtp} as node credential references.
 * @param {{n8nUrl: string|null, apiKey: string|null}} state
 * @param {{modelUrl: string, mailPort: number, suffix: string}} options
 */
export async function createAgentCredentials(state, { modelUrl, mailPort, suffix }) {
	const create = async (/** @type {string} */ name, /** @type {string} */ type, data) => {
		const answer = await readAnswer(
			await fetch(`${state.n8nUrl}/api/v1/credentials`, {
				method: 'POST',
				headers: { 'X-N8N-API-KEY': String(state.apiKey), 'content-type': 'application/json' },
				body: JSON.stringify({ name, type, data }),
			}),
		);
		if (answer.status >= 300 || !answer.json?.id)
			throw new Error(
				`POST /api/v1/credentials (${type}): HTTP ${answer.status} ${answer.text.slice(0, 400)}`,
			);
		return { id: String(answer.json.id), name };
	};
	const openAi = await create(`Scripted model ${suffix}`, 'openAiApi', {
		apiKey: 'sk-offline',
		url: modelUrl,
		header: false,
	});
	const smtp = await create(`Local mailbox ${suffix}`, 'smtp', {
		user: '',
		password: '',
		host: '127.0.0.1',
		port: mailPort,
		secure: false,
		disableStartTls: true,
	});
	return { openAi, smtp };
}

/**
 * Webhook (POST /webhook/<path>, body {chatInput}) → Respond {execution_id} → AI Agent, with the
 * OpenAI Chat Model on the scripted model, the Create Payout tool behind the Email review node
 * (mail to `reviewTo`), Get transaction wired directly (not gated), and with `describe` a
 * "Describe payout" tool (Transaction → Describe for Review, not gated) and the payout's Reviewed
 * Text. `message` replaces the review node's Message (n8n's default when not given).
 * @param {{
 *   id?: string, path: string, facilitaPay: {id: string, name: string},
 *   openAi: {id: string, name: string}, smtp: {id: string, name: string}, reviewTo: string,
 *   message?: string, describe?: boolean, requireReviewedText?: boolean, maxIterations?: number
 * }} options
 */
export function agentReviewWorkflow({
	id,
	path,
	facilitaPay,
	openAi,
	smtp,
	reviewTo,
	message = DEFAULT_REVIEW_MESSAGE,
	describe = false,
	requireReviewedText = false,
	maxIterations = 10,
}) {
	const fp = { [CREDENTIAL_TYPE]: facilitaPay };
	const payout = payoutToolParameters();
	const nodes = [
		...chatWebhookNodes(path, [0, 0]),
		{
			id: 'agent',
			name: AGENT,
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3.1,
			position: [440, 0],
			parameters: {
				promptType: 'define',
				text: "={{ $('Chat').item.json.body.chatInput }}",
				options: {
					systemMessage: 'You pay out customers with FacilitaPay tools.',
					maxIterations,
					enableStreaming: false,
				},
			},
		},
		{
			id: 'model',
			name: MODEL_NODE,
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.3,
			position: [300, 260],
			parameters: {
				model: { __rl: true, mode: 'id', value: 'scripted-model' },
				responsesApiEnabled: false,
				options: { maxRetries: 0 },
			},
			credentials: { openAiApi: openAi },
		},
		{
			id: 'review',
			name: REVIEW_NODE,
			type: EMAIL_REVIEW_TYPE,
			typeVersion: 2.1,
			position: [600, 260],
			webhookId: `review-${path}`,
			parameters: {
				operation: 'sendAndWait',
				fromEmail: 'n8n@example.com',
				toEmail: reviewTo,
				subject: 'Approve a payout?',
				message,
				approvalOptions: { values: { approvalType: 'double' } },
				options: {},
			},
			credentials: { smtp },
		},
		{
			id: 'payout-tool',
			name: PAYOUT_TOOL,
			type: TOOL_TYPE,
			typeVersion: 1,
			position: [600, 480],
			// Reviewed Text is left out: its tool default ($fromAI('review', …)) applies.
			parameters: { ...payout, ...(describe ? { requireReviewedText } : {}) },
			credentials: fp,
		},
		{
			id: 'lookup-tool',
			name: LOOKUP_TOOL,
			type: TOOL_TYPE,
			typeVersion: 1,
			position: [800, 260],
			parameters: {
				resource: 'transaction',
				operation: 'get',
				transactionId: {
					__rl: true,
					mode: 'id',
					value: "={{ $fromAI('transactionId', 'ID (UUID) of the transaction', 'string') }}",
				},
			},
			credentials: fp,
		},
		...(describe
			? [
					{
						id: 'describe-tool',
						name: DESCRIBE_TOOL,
						type: TOOL_TYPE,
						typeVersion: 1,
						position: [1000, 260],
						parameters: { ...payout, operation: 'describeForReview', reviewOf: 'createPayout' },
						credentials: fp,
					},
				]
			: []),
	];
	const connections = {
		Chat: { main: [[{ node: 'Started', type: 'main', index: 0 }]] },
		Started: { main: [[{ node: AGENT, type: 'main', index: 0 }]] },
		[MODEL_NODE]: { ai_languageModel: [[{ node: AGENT, type: 'ai_languageModel', index: 0 }]] },
		[PAYOUT_TOOL]: { ai_tool: [[{ node: REVIEW_NODE, type: 'ai_tool', index: 0 }]] },
		[REVIEW_NODE]: { ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] },
		[LOOKUP_TOOL]: { ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] },
		...(describe
			? { [DESCRIBE_TOOL]: { ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] } }
			: {}),
	};
	return {
		...(id ? { id } : {}),
		name: `e2e agent review ${path}`,
		active: false,
		settings: { executionOrder: 'v1', saveManualExecutions: true },
		nodes,
		connections,
		pinData: {},
	};
}

/**
 * Starts one agent execution: POSTs the chat input to the workflow's production webhook and returns
 * the execution's id (asks again while a just-published webhook answers 404/503).
 * @param {string} n8nUrl @param {string} path @param {string} chatInput
 * @returns {Promise<string>}
 */
export async function startAgentRun(n8nUrl, path, chatInput) {
	return waitFor(
		async () => {
			const answer = await readAnswer(
				await fetch(`${n8nUrl}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ chatInput }),
				}),
			);
			if (answer.status === 200 && answer.json?.execution_id)
				return String(answer.json.execution_id);
			if (![404, 503].includes(answer.status))
				throw new Error(
					`POST /webhook/${path} answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`,
				);
			return null;
		},
		{
			what: `the webhook /webhook/${path} to start an execution`,
			timeoutMs: 60_000,
			intervalMs: 500,
		},
	);
}

/** A browser's User-Agent: n8n answers a send-and-wait link opened by a bot (isbot) with an empty page and does nothing. */
export const BROWSER_USER_AGENT =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/**
 * Opens a link of the review mail (GET) as a person's browser would; returns n8n's answer.
 * @param {string} url @param {{userAgent?: string|null}} [options] null: Node's own User-Agent
 */
export async function clickLink(url, { userAgent = BROWSER_USER_AGENT } = {}) {
	const started = Date.now();
	const answer = await readAnswer(
		await fetch(url, { headers: userAgent ? { 'user-agent': userAgent } : {}, redirect: 'manual' }),
	);
	return { ...answer, ms: Date.now() - started };
}

/** The Approve and Decline links of a review mail. @param {{links: {label: string, url: string}[]}} mail */
export function reviewLinks(mail) {
	const approve = mail.links.find((l) => /approve/i.test(l.label))?.url;
	const decline = mail.links.find((l) => /decline|disapprove/i.test(l.label))?.url;
	if (!approve || !decline)
		throw new Error(`The review mail lacks its links: ${JSON.stringify(mail.links)}`);
	return { approve, decline };
}

/** What the AI Agent answered last in an execution (its `output`), or null. @param {any} execution */
export function agentAnswer(execution) {
	const runs = execution?.data?.resultData?.runData?.[AGENT] ?? [];
	return runs.at(-1)?.data?.main?.[0]?.[0]?.json?.output ?? null;
}

/** How many times each node ran in an execution. @param {any} execution */
export function nodeRuns(execution) {
	const runData = execution?.data?.resultData?.runData ?? {};
	return Object.fromEntries(Object.entries(runData).map(([name, runs]) => [name, runs.length]));
}

/**
 * For the calling file's describe block: the scripted model, the mailbox and their credentials in
 * the shared n8n, started before its first test and closed after its last. Read them from the
 * returned object's `model`, `mailbox` and `creds` inside tests.
 * @param {string} suffix names the credentials
 */
export function useOfflineAgentParts(suffix) {
	/** @type {{model: Awaited<ReturnType<typeof startChatModel>>, mailbox: Awaited<ReturnType<typeof startMailbox>>, creds: Awaited<ReturnType<typeof createAgentCredentials>>}} */
	const parts = /** @type {any} */ ({});
	beforeAll(async () => {
		if (!e2eEnabled()) return;
		parts.model = await startChatModel();
		parts.mailbox = await startMailbox();
		parts.creds = await createAgentCredentials(sharedState(), {
			modelUrl: parts.model.url,
			mailPort: parts.mailbox.port,
			suffix: uniqueId(suffix),
		});
	}, 120_000);
	afterAll(async () => {
		await parts.model?.close();
		await parts.mailbox?.close();
	});
	return parts;
}

/**
 * The Webhook (POST /webhook/<path>, body {chatInput}) and Respond {execution_id} nodes that start
 * an agent's execution in the server, the first at `position`. The review makes the execution
 * wait, so it cannot run in `n8n execute`, and the public API cannot start one.
 * @param {string} path @param {[number, number]} position
 */
export function chatWebhookNodes(path, [x, y]) {
	return [
		{
			id: 'chat-webhook',
			name: 'Chat',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2.1,
			position: [x, y],
			webhookId: `wh-${path}`,
			parameters: { httpMethod: 'POST', path, responseMode: 'responseNode', options: {} },
		},
		{
			id: 'started',
			name: 'Started',
			type: 'n8n-nodes-base.respondToWebhook',
			typeVersion: 1.5,
			position: [x + 220, y],
			parameters: {
				respondWith: 'json',
				responseBody: '={{ JSON.stringify({ execution_id: $execution.id }) }}',
				options: {},
			},
		},
	];
}

/** The `review` of the newest tool result in a request to the model (Describe payout's answer). @param {any} body */
export function reviewIn(body) {
	const last = body.messages.filter((/** @type {any} */ m) => m.role === 'tool').at(-1);
	const parsed = JSON.parse(typeof last.content === 'string' ? last.content : '[]');
	return (Array.isArray(parsed) ? parsed[0] : parsed)?.review;
}

/** POSTs of payouts (from the USD cash-out account) the sandbox received after `mark`. @param {any} state @param {number} mark */
export const payoutsAfter = async (state, mark) =>
	(
		await sandboxRequests({ after: mark, method: 'POST', pathPrefix: '/transactions' }, state)
	).filter((r) => r.body?.transaction?.from_bank_account_id === ACCOUNT_IDS.usdCashOut);
