// The yardstick of bench/waiting.mjs's burst: n8n's OWN Wait node ("Resume: On Webhook Call") in a
// real n8n 2.41.1 (regular mode, SQLite), resumed by calls to its resume URLs. BENCH_WAITING
// executions (Webhook → Respond to Webhook → Wait → Paid) wait; then 30 % of them are resumed in one
// burst, BENCH_RESUME_AT_ONCE calls at a time (6: what Wait for Payment's waiter keeps in flight;
// "all": every call at once, as an outside system might), each awaited until n8n answers. Prints
// the resume latency (from the burst's start to each execution's end) p50/p95/max and how many
// ended within 30 s: what n8n itself does with the same number of resumes on this machine.
// Asserts nothing.
//
//   npm run build && node bench/waiting-n8n-wait.mjs
//
// Environment: BENCH_WAITING (1000), BENCH_RESUME_AT_ONCE (6 | all), and as bench/waiting.mjs:
// BENCH_N8N_ENV, BENCH_N8N_NODE_OPTIONS, BENCH_OUT, BENCH_KEEP, FACILITAPAY_CACHE_DIR.
import { activateWorkflow, importWorkflows } from '../test/e2e/lib/n8n.mjs';
import { benchN8n, writeFigures } from './lib/bench-n8n.mjs';
import { untilAllWaiting } from '../test/e2e/lib/wait-scale.mjs';
import { executionStatuses, percentiles } from '../test/e2e/lib/waiting.mjs';

const COUNT = Number(process.env.BENCH_WAITING ?? 1000);
const RESUMED = Math.round(COUNT * 0.3);
const AT_ONCE =
	process.env.BENCH_RESUME_AT_ONCE === 'all'
		? RESUMED
		: Number(process.env.BENCH_RESUME_AT_ONCE ?? 6);
const say = (line = '') => process.stdout.write(`${line}\n`);
const progress = (/** @type {string} */ line) => process.stderr.write(`[bench:n8n-wait] ${line}\n`);

/** Webhook → Respond (execution id, resume URL) → Wait (On Webhook Call) → Paid. @param {string} webhookPath */
function n8nWaitWorkflow(webhookPath) {
	return {
		id: 'benchn8nwait37',
		name: `bench n8n Wait node ${webhookPath}`,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
		nodes: [
			{
				id: 'webhook',
				name: 'Order',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2.1,
				position: [0, 0],
				webhookId: `wh-${webhookPath}`,
				parameters: {
					httpMethod: 'POST',
					path: webhookPath,
					responseMode: 'responseNode',
					options: {},
				},
			},
			{
				id: 'respond',
				name: 'Answer',
				type: 'n8n-nodes-base.respondToWebhook',
				typeVersion: 1.5,
				position: [220, 0],
				parameters: {
					respondWith: 'json',
					responseBody:
						'={{ JSON.stringify({ execution_id: $execution.id, resume_url: $execution.resumeUrl }) }}',
					options: {},
				},
			},
			{
				id: 'wait',
				name: 'Wait',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				position: [440, 0],
				webhookId: `wait-${webhookPath}`,
				parameters: { resume: 'webhook', httpMethod: 'POST', options: {} },
			},
			{
				id: 'paid',
				name: 'Paid',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [660, 0],
				parameters: {},
			},
		],
		connections: {
			Order: { main: [[{ node: 'Answer', type: 'main', index: 0 }]] },
			Answer: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
			Wait: { main: [[{ node: 'Paid', type: 'main', index: 0 }]] },
		},
	};
}

/**
 * Runs `work` over `items`, `atOnce` at a time. @template T
 * @param {T[]} items @param {number} atOnce @param {(item: T) => Promise<void>} work
 */
async function inTurn(items, atOnce, work) {
	let next = 0;
	const worker = async () => {
		while (next < items.length) await work(items[next++]);
	};
	await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
}

async function main() {
	/** @type {Awaited<ReturnType<typeof benchN8n>> | null} */
	let bench = null;
	try {
		bench = await benchN8n('bench-n8n-wait', {
			id: 'facilitapay-bench-n8n-wait',
			name: 'FacilitaPay Bench n8n Wait',
		});
		const own = bench.own;
		const webhookPath = `bench-n8n-wait-${Date.now().toString(36)}`;
		const workflow = n8nWaitWorkflow(webhookPath);
		await importWorkflows([workflow], own.state);
		await activateWorkflow(workflow.id, own.state);
		await new Promise((resolve) => setTimeout(resolve, 15_000));
		const server = { n8nUrl: own.server.url, apiKey: own.server.apiKey };

		/** @type {Array<{executionId: string, resumeUrl: string}>} */
		const started = [];
		const startedAt = Date.now();
		await inTurn(
			Array.from({ length: COUNT }, (_, i) => i),
			4,
			async () => {
				for (let attempt = 1; ; attempt++) {
					const answer = await fetch(`${server.n8nUrl}/webhook/${webhookPath}`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: '{}',
					});
					const text = await answer.text();
					if (answer.status === 200) {
						const body = JSON.parse(text);
						started.push({
							executionId: String(body.execution_id),
							resumeUrl: String(body.resume_url),
						});
						return;
					}
					if (attempt >= 20 || ![404, 503].includes(answer.status))
						throw new Error(`POST /webhook/${webhookPath}: HTTP ${answer.status} ${text}`);
					await new Promise((resolve) => setTimeout(resolve, 500));
				}
			},
		);
		await untilAllWaiting(server, workflow.id, COUNT, 600_000);
		progress(`${COUNT} waiting after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);

		const toResume = started.slice(0, RESUMED);
		const burstAt = Date.now();
		/** @type {Record<string, number>} */
		const answers = {};
		const calling = inTurn(toResume, AT_ONCE, async (one) => {
			const answer = await fetch(one.resumeUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ paid: true }),
			}).catch((error) => ({ status: String(error.code ?? error.message), text: async () => '' }));
			await answer.text();
			answers[String(answer.status)] = (answers[String(answer.status)] ?? 0) + 1;
		});
		const deadline = Date.now() + 300_000;
		for (;;) {
			const ended = await executionStatuses(server, workflow.id, { status: 'success' });
			if (toResume.every((s) => ended.has(s.executionId)) || Date.now() > deadline) break;
			await new Promise((resolve) => setTimeout(resolve, 2000));
		}
		await calling;
		const statuses = await executionStatuses(server, workflow.id);
		const latencies = [];
		let notResumed = 0;
		for (const one of toResume) {
			const status = statuses.get(one.executionId);
			if (status?.status !== 'success' || !status.stoppedAt) notResumed++;
			else latencies.push(Date.parse(status.stoppedAt) - burstAt);
		}
		const figures = {
			count: COUNT,
			resumed: RESUMED,
			atOnce: AT_ONCE,
			env: process.env.BENCH_N8N_ENV ?? null,
			answers,
			latencyMs: percentiles(latencies),
			within30s: latencies.filter((ms) => ms <= 30_000).length,
			notResumed,
		};
		say(
			`n8n's own Wait node in n8n 2.41.1${figures.env ? ` with ${figures.env}` : ''}: ${COUNT} waiting, ${RESUMED} resumed by their resume URLs, ${AT_ONCE} calls at a time (answers ${JSON.stringify(answers)}):`,
		);
		say(
			`  latency from the burst's start p50 ${figures.latencyMs?.p50} ms, p95 ${figures.latencyMs?.p95} ms, max ${figures.latencyMs?.max} ms; ${figures.within30s}/${RESUMED} within 30 s, ${notResumed} not resumed`,
		);
		const file = writeFigures('n8n-wait', figures);
		say(`  figures: ${file}`);
	} finally {
		await bench?.stop();
	}
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
