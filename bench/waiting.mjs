// Benchmark in a REAL n8n 2.41.1 (regular mode): Transaction > Wait for Payment at scale (issue 37).
// BENCH_WAITING executions wait at once (Webhook → Create Dynamic PIX → Respond to Webhook → Wait
// for Payment); it prints the API reads per second the waiting set costs while nothing happens,
// n8n's memory (RSS of the main process) with 0 and with BENCH_WAITING waiting, and the resume
// latency (from FacilitaPay listing the payment to the execution's end) p50/p95/max of a burst
// paying 30% of the charges at once. Forged notifications and guessed resume URLs (BENCH_STRANGERS
// each) are sent before the burst; it prints how many executions they moved on (must be 0). Prints
// numbers and writes them as JSON; asserts nothing.
//
//   npm run build && node bench/waiting.mjs
//
// Environment:
//   BENCH_WAITING=1000      executions waiting at once (300 of them paid in the burst)
//   BENCH_STRANGERS=1000    forged notifications, and as many guessed resume URLs
//   BENCH_IDLE_SECONDS=30   how long "nothing happens" is measured
//   BENCH_WAIT_TRIGGER=1    a FacilitaPay Trigger published on the account (0: none; the account
//                           notifies another system's URL, and the forgeries go to it)
//   BENCH_RESTART_PAID=30   after the burst, n8n is stopped with the rest still waiting, this many
//                           of their charges are paid while it is down, and it is started again:
//                           how long after ready they end (on Paid), the reads of the first 300 s
//                           (the restart's cost per waiting execution), its RSS 15 s after the
//                           start (0: no restart)
//   BENCH_OUT=.cache/bench  where waiting-<time>.json goes
//   BENCH_KEEP=1            keep the n8n user folder
//   BENCH_N8N_NODE_OPTIONS  NODE_OPTIONS of the n8n process (e.g. --cpu-prof --cpu-prof-dir=DIR)
//   BENCH_N8N_ENV           more environment of n8n, as JSON (e.g.
//                           '{"N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE":"true"}': n8n 2.x then builds an
//                           expression isolate only for a run that evaluates an expression)
//   FACILITAPAY_TARBALL, FACILITAPAY_CACHE_DIR, FACILITAPAY_E2E_DIR: as for the e2e tests
import { activateWorkflow, importWorkflows } from '../test/e2e/lib/n8n.mjs';
import { benchN8n, writeFigures } from './lib/bench-n8n.mjs';
import {
	createPerson,
	samplePerson,
	sandboxApi,
	sandboxControl,
} from '../test/e2e/lib/sandbox.mjs';
import { publishTriggerOn } from '../test/e2e/lib/trigger.mjs';
import { idleReads, rssMb, runWaitingScale } from '../test/e2e/lib/wait-scale.mjs';
import {
	percentiles,
	startOtherReceiver,
	untilEnded,
	waitWorkflow,
} from '../test/e2e/lib/waiting.mjs';

const COUNT = Number(process.env.BENCH_WAITING ?? 1000);
const PAID = Math.round(COUNT * 0.3);
const STRANGERS = Number(process.env.BENCH_STRANGERS ?? 1000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const WITH_TRIGGER = process.env.BENCH_WAIT_TRIGGER !== '0';
const RESTART_PAID = Number(process.env.BENCH_RESTART_PAID ?? 30);
const say = (line = '') => process.stdout.write(`${line}\n`);
const progress = (/** @type {string} */ line) => process.stderr.write(`[bench:waiting] ${line}\n`);

async function main() {
	/** @type {Awaited<ReturnType<typeof benchN8n>> | null} */
	let bench = null;
	/** @type {Awaited<ReturnType<typeof startOtherReceiver>> | null} */
	let other = null;
	try {
		bench = await benchN8n('bench-waiting', {
			id: 'facilitapay-bench-waiting',
			name: 'FacilitaPay Bench Waiting',
		});
		const own = bench.own;
		const sb = own.sb;
		if (WITH_TRIGGER) await publishTriggerOn(own, { events: ['*'] });
		else {
			other = await startOtherReceiver();
			await sandboxApi('POST', '/enable_webhooks', { url: other.url }, sb.state);
		}
		const subjectId = (await createPerson(samplePerson(4242, 'Bench Waiting'), sb.state)).id;
		const workflow = { id: 'benchwaiting37', path: `bench-waiting-${Date.now().toString(36)}` };
		await importWorkflows(waitWorkflow({ ...workflow, credentials: sb.credentials }), own.state);
		await activateWorkflow(workflow.id, own.state);
		// n8n settles after start and publication before "0 waiting" is measured.
		await new Promise((resolve) => setTimeout(resolve, 15_000));
		const hook = (await sandboxControl('GET', '/webhook', undefined, sb.state)).data;
		const { figures, started } = await runWaitingScale({
			server: { n8nUrl: own.server.url, apiKey: own.server.apiKey, pid: own.pid() },
			sandboxUrl: sb.sandboxUrl,
			control: (method, route, body) => sandboxControl(method, route, body, sb.state),
			workflow,
			subjectId,
			count: COUNT,
			paid: PAID,
			idleSeconds: IDLE_SECONDS,
			forgeries: STRANGERS,
			guesses: STRANGERS,
			forgeUrl: hook.url,
			log: progress,
		});
		const burst = figures.burst;
		say(
			`Wait for Payment in n8n 2.41.1${process.env.BENCH_N8N_ENV ? ` with ${process.env.BENCH_N8N_ENV}` : ''} (${WITH_TRIGGER ? 'FacilitaPay Trigger published on the account' : 'no FacilitaPay Trigger: another system notified'}):`,
		);
		say(
			`  ${COUNT} executions waiting (started in ${figures.startSeconds.toFixed(1)} s); idle ${figures.idle.seconds.toFixed(0)} s: ${figures.idle.reads} API reads = ${figures.idle.perSecond.toFixed(2)} reads/s (${JSON.stringify(figures.idle.byRoute)}); with 0 waiting: ${figures.idleBefore.perSecond.toFixed(2)} reads/s; n8n CPU while idle (lease renewals included): ${figures.idleCpuShare === null ? '?' : (100 * figures.idleCpuShare).toFixed(1)} % of a core`,
		);
		say(
			`  n8n RSS: ${figures.rssIdleMb} MB with 0 waiting, ${figures.rssWaitingMb} MB with ${COUNT} waiting, ${figures.rssAfterMb} MB after the burst`,
		);
		say(
			`  strangers: ${STRANGERS} forged notifications ${JSON.stringify(figures.forgedAnswers ?? {})}, ${STRANGERS} guessed resume URLs ${JSON.stringify(figures.guessAnswers)}: ${figures.movedByStrangers} executions moved on, ${figures.strangerReads} API reads in ${figures.strangerSeconds.toFixed(0)} s`,
		);
		say(
			`  burst of ${PAID} paid: resume latency p50 ${burst.latencyMs?.p50} ms, p95 ${burst.latencyMs?.p95} ms, max ${burst.latencyMs?.max} ms; ${burst.within30s}/${PAID} within 30 s, ${burst.notResumed} not resumed, ${burst.wrongBranch} on a wrong branch (${burst.checkedInFull} read in full), ${burst.unpaidMoved} unpaid moved on`,
		);
		if (RESTART_PAID > 0) {
			figures.restart = await afterRestart(own, sb, workflow, started.slice(PAID));
			const r = figures.restart;
			say(
				`  n8n stopped with ${r.waiting} waiting, ${r.paid} paid while it was down, started again (${WITH_TRIGGER ? 'a Trigger published' : 'no Trigger'}): the paid ones ended after ready p50 ${r.paidEndedAfterReadyMs?.p50} ms, max ${r.paidEndedAfterReadyMs?.max} ms; ${r.notResumed} not resumed, ${r.wrongBranch} on a wrong branch`,
			);
			say(
				`  the restart's cost: ${r.readsFirst300s.reads} FacilitaPay reads in the first ${r.readsFirst300s.seconds.toFixed(0)} s after ready (${JSON.stringify(r.readsFirst300s.byRoute)}) = ${r.readsPerWaitingExecution.toFixed(2)} per waiting execution; RSS ${r.rssMb} MB 15 s after the start (fresh with 0 waiting: ${figures.rssIdleMb} MB)`,
			);
		}
		const file = writeFigures('waiting', { withTrigger: WITH_TRIGGER, ...figures });
		say(`  figures: ${file}`);
	} finally {
		await bench?.stop();
		await other?.close();
	}
}

/**
 * n8n stopped with `waiting` still waiting, RESTART_PAID of their charges paid while it is down, n8n
 * started again (with or without a Trigger: nothing of ours reads after the start but the waits'
 * own code at n8n's time of each, docs/waiting.md): how long after n8n was ready the paid ones
 * ended (and on which branch), the reads of FacilitaPay in the first 300 s after ready (every
 * waiting execution has its one time resume in that window: the restart's cost per execution), and
 * n8n's memory 15 s after the start.
 * @param {any} own @param {any} sb @param {{id: string}} workflow
 * @param {Array<{executionId: string, transactionId: string}>} waiting
 */
async function afterRestart(own, sb, workflow, waiting) {
	const control = (method, route, body) => sandboxControl(method, route, body, sb.state);
	const toPay = waiting.slice(0, RESTART_PAID);
	progress(`stopping n8n with ${waiting.length} waiting; ${toPay.length} paid while it is down`);
	await own.stop();
	if (toPay.length > 0)
		await control('POST', '/transactions/decide_many', {
			ids: toPay.map((one) => one.transactionId),
			outcome: 'paid',
		});
	await own.start();
	const readyAt = Date.now();
	const server = { n8nUrl: own.server.url, apiKey: own.server.apiKey };
	const windowSeconds = 300;
	const reads = idleReads(sb.sandboxUrl, windowSeconds);
	await new Promise((resolve) => setTimeout(resolve, 15_000));
	const rss = rssMb(own.pid());
	const ended = await Promise.all(
		toPay.map(async (one) => {
			try {
				return await untilEnded(server, one.executionId, (windowSeconds + 60) * 1000);
			} catch {
				return undefined;
			}
		}),
	);
	const afterReady = ended
		.filter((outcome) => outcome?.stoppedAt)
		.map((outcome) => /** @type {number} */ (outcome?.stoppedAt) - readyAt);
	const window = await reads;
	return {
		waiting: waiting.length,
		rssMb: rss,
		paid: toPay.length,
		paidEndedAfterReadyMs: percentiles(afterReady),
		notResumed: ended.filter((outcome) => !outcome).length,
		wrongBranch: ended.filter((outcome) => outcome && outcome.branches.join() !== 'Paid').length,
		readsFirst300s: window,
		readsPerWaitingExecution: window.reads / waiting.length,
	};
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
