/**
 * A scripted, OpenAI-compatible chat model on loopback: what n8n's own "OpenAI Chat Model" node
 * (@n8n/n8n-nodes-langchain.lmChatOpenAi, Chat Completions API) talks to when its `openAiApi`
 * credential's Base URL (field `url` in n8n 2.41.1) points here. No network, no model: a test
 * registers a scenario and the model answers with its steps. Dev tool of this repository, never
 * shipped.
 *
 *   const model = await startChatModel();            // model.url → http://127.0.0.1:PORT/v1
 *   model.script('pay-1', [
 *     { tools: [{ tool: /pay/i, args: { amount: '10.00' } }] },  // 1st answer: a tool call
 *     { text: 'Done.' },                                          // 2nd answer: the final text
 *   ]);
 *   // the user's chat input must contain the marker `[scenario:pay-1]` (see scenarioMarker)
 *   model.requests('pay-1');                         // every request received for it
 *   await model.close();
 *
 * Which step answers a request: the number of assistant turns already in the request's messages
 * (0 for the first call; after one tool call and its result, 1; …). A step past the end of the
 * script answers with the last step's text, or "(script ended)".
 *
 * A tool step names the tool by a pattern matched against the names in the request's `tools`
 * (the first match wins; no match fails the request with HTTP 400 so the test sees why). When that
 * tool's schema is the one n8n gives a tool behind human review ({toolParameters, hitlParameters}),
 * `args` (an object, or a function of the request's body, e.g. to copy what an earlier tool
 * answered) are put under `toolParameters` (and `hitlParameters` gets `hitl`, default {}), unless the
 * step says `raw: true`.
 *
 * Answers are non-streaming JSON, or server-sent events when the request asks for `stream: true`.
 */
import http from 'node:http';

/** The marker a chat input carries so the model knows its scenario. @param {string} id */
export const scenarioMarker = (id) => `[scenario:${id}]`;
const MARKER = /\[scenario:([\w.:-]+)\]/;

/**
 * @typedef {{tool: RegExp|string, args?: Record<string, unknown>|((request: any) => Record<string, unknown>), hitl?: Record<string, unknown>, raw?: boolean, id?: string}} ToolCallStep
 * @typedef {{tools: ToolCallStep[]} | {text: string}} Step
 * @typedef {{scenario: string|null, step: number, at: number, body: any, answer: any}} RecordedRequest
 */

/**
 * Starts the model on 127.0.0.1 (`port` 0: any free port).
 * @param {{port?: number, modelName?: string}} [options]
 */
export async function startChatModel({ port = 0, modelName = 'scripted-model' } = {}) {
	/** @type {Map<string, Step[]>} */
	const scripts = new Map();
	/** @type {RecordedRequest[]} */
	const received = [];
	let calls = 0;

	const server = http.createServer((request, response) => {
		const chunks = /** @type {Buffer[]} */ ([]);
		request.on('data', (chunk) => chunks.push(chunk));
		request.on('end', () => {
			try {
				route(request, response, Buffer.concat(chunks).toString('utf8'));
			} catch (error) {
				send(response, 500, { error: { message: String(/** @type {Error} */ (error).message) } });
			}
		});
	});

	/** @param {http.IncomingMessage} request @param {http.ServerResponse} response @param {string} raw */
	function route(request, response, raw) {
		const path = String(request.url ?? '').split('?')[0];
		if (request.method === 'GET' && path.endsWith('/models')) {
			return send(response, 200, {
				object: 'list',
				data: [{ id: modelName, object: 'model', created: 0, owned_by: 'sandbox' }],
			});
		}
		if (request.method !== 'POST' || !path.endsWith('/chat/completions')) {
			return send(response, 404, {
				error: { message: `Not served by the scripted model: ${request.method} ${path}` },
			});
		}
		const body = raw ? JSON.parse(raw) : {};
		const messages = Array.isArray(body.messages) ? body.messages : [];
		const scenario = findScenario(messages);
		const step = messages.filter((/** @type {any} */ m) => m.role === 'assistant').length;
		/** @type {RecordedRequest} */
		const record = { scenario, step, at: Date.now(), body, answer: null };
		received.push(record);
		const script = scenario ? scripts.get(scenario) : undefined;
		if (!script) {
			record.answer = { error: `no script for scenario ${scenario}` };
			return send(response, 400, {
				error: {
					message: `The scripted model has no scenario for this conversation (marker ${scenario ? scenarioMarker(scenario) : 'missing'}).`,
				},
			});
		}
		const chosen = script[step] ?? endOfScript(script);
		const message = assistantMessage(chosen, body.tools ?? [], body);
		if ('error' in message) {
			record.answer = message;
			return send(response, 400, { error: { message: message.error } });
		}
		record.answer = message;
		calls += 1;
		const id = `chatcmpl-${calls}`;
		const finish = message.tool_calls ? 'tool_calls' : 'stop';
		if (body.stream) return stream(response, id, body.model ?? modelName, message, finish);
		return send(response, 200, {
			id,
			object: 'chat.completion',
			created: Math.floor(Date.now() / 1000),
			model: body.model ?? modelName,
			choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
			usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
		});
	}

	/** @param {Step[]} script @returns {Step} */
	function endOfScript(script) {
		const last = script.at(-1);
		return last && 'text' in last ? last : { text: '(script ended)' };
	}

	/** @param {any[]} messages */
	function findScenario(messages) {
		for (const m of messages) {
			if (m.role !== 'user') continue;
			const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
			const found = MARKER.exec(text);
			if (found) return found[1];
		}
		return null;
	}

	/** @param {Step} step @param {any[]} tools @param {any} body */
	function assistantMessage(step, tools, body) {
		if ('text' in step) return { role: 'assistant', content: step.text, refusal: null };
		const names = tools.map((t) => t?.function?.name).filter(Boolean);
		const toolCalls = [];
		for (const [index, call] of step.tools.entries()) {
			const pattern = call.tool instanceof RegExp ? call.tool : new RegExp(`^${call.tool}$`);
			const tool = tools.find((t) => pattern.test(t?.function?.name ?? ''));
			if (!tool)
				return {
					error: `No tool matches ${pattern} among the request's tools: ${names.join(', ') || '(none)'}`,
				};
			const properties = tool.function.parameters?.properties ?? {};
			const gated = 'toolParameters' in properties && 'hitlParameters' in properties;
			const given = typeof call.args === 'function' ? call.args(body) : (call.args ?? {});
			const args =
				gated && !call.raw ? { toolParameters: given, hitlParameters: call.hitl ?? {} } : given;
			toolCalls.push({
				id: call.id ?? `call_${calls + 1}_${index}`,
				type: 'function',
				function: { name: tool.function.name, arguments: JSON.stringify(args) },
			});
		}
		return { role: 'assistant', content: null, tool_calls: toolCalls, refusal: null };
	}

	await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	const origin = `http://127.0.0.1:${address.port}`;

	return {
		/** The Base URL for n8n's `openAiApi` credential (its `url` field). */
		url: `${origin}/v1`,
		modelName,
		/** Registers (or replaces) a scenario's steps. @param {string} id @param {Step[]} steps */
		script(id, steps) {
			scripts.set(id, steps);
		},
		/** Requests received, all or a scenario's, in order. @param {string} [scenario] */
		requests(scenario) {
			return scenario === undefined
				? [...received]
				: received.filter((r) => r.scenario === scenario);
		},
		/**
		 * The tool results the model was sent in a scenario (the `tool` messages of its last
		 * request), in order. @param {string} scenario
		 */
		toolResults(scenario) {
			const last = received.filter((r) => r.scenario === scenario).at(-1);
			return (last?.body?.messages ?? [])
				.filter((/** @type {any} */ m) => m.role === 'tool')
				.map((/** @type {any} */ m) => ({
					toolCallId: m.tool_call_id,
					content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
				}));
		},
		/** The tool names offered in a scenario's first request. @param {string} scenario */
		toolNames(scenario) {
			const first = received.find((r) => r.scenario === scenario);
			return (first?.body?.tools ?? []).map((/** @type {any} */ t) => t?.function?.name);
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve(undefined));
			}),
	};
}

/** @param {http.ServerResponse} response @param {number} status @param {unknown} body */
function send(response, status, body) {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
}

/**
 * The same answer as server-sent chunks (`stream: true`).
 * @param {http.ServerResponse} response @param {string} id @param {string} model
 * @param {any} message @param {string} finish
 */
function stream(response, id, model, message, finish) {
	response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	const created = Math.floor(Date.now() / 1000);
	const chunk = (/** @type {any} */ delta, /** @type {string|null} */ reason) =>
		`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: reason }] })}\n\n`;
	let out = chunk({ role: 'assistant', content: message.tool_calls ? null : '' }, null);
	if (message.tool_calls) {
		out += chunk(
			{
				tool_calls: message.tool_calls.map(
					(/** @type {any} */ call, /** @type {number} */ index) => ({
						index,
						id: call.id,
						type: 'function',
						function: { name: call.function.name, arguments: call.function.arguments },
					}),
				),
			},
			null,
		);
	} else {
		out += chunk({ content: message.content }, null);
	}
	out += chunk({}, finish);
	out += 'data: [DONE]\n\n';
	response.end(out);
}
