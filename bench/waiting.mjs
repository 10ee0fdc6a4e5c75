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
//   BENCH_OUT=.cache/bench  where waiting-<time>.json goes
//   BENCH_KEEP=1            keep the n8n user folder
//   FACILITAPAY_TARBALL, FACILITAPAY_CACHE_DIR, FACILITAPAY_E2E_DIR: as for the e2e tests
import fs from 'node:fs';
import path from 'node:path';
import {
	CACHE_DIR,
	E2E_RUNS_DIR,
	buildAndPackPackage,
	removeUserFolder,
} from '../scripts/n8n-runtime.mjs';
import { activateWorkflow, importWorkflows } from '../test/e2e/lib/n8n.mjs';
import { ownN8n } from '../test/e2e/lib/own-n8n.mjs';
import {
	createPerson,
	samplePerson,
	sandboxApi,
	sandboxControl,
} from '../test/e2e/lib/sandbox.mjs';
import { publishTriggerOn } from '../test/e2e/lib/trigger.mjs';
import { runWaitingScale } from '../test/e2e/lib/wait-scale.mjs';
import { startOtherReceiver, waitWorkflow } from '../test/e2e/lib/waiting.mjs';

const COUNT = Number(process.env.BENCH_WAITING ?? 1000);
const PAID = Math.round(COUNT * 0.3);
const STRANGERS = Number(process.env.BENCH_STRANGERS ?? 1000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const WITH_TRIGGER = process.env.BENCH_WAIT_TRIGGER !== '0';
const say = (line = '') => process.stdout.write(`${line}\n`);
const progress = (/** @type {string} */ line) => process.stderr.write(`[bench:waiting] ${line}\n`);

async function main() {
	const tarball = process.env.FACILITAPAY_TARBALL ?? (await buildAndPackPackage({ reuse: true }));
	const userFolder = path.join(E2E_RUNS_DIR, `bench-waiting-${Date.now()}-${process.pid}`);
	fs.mkdirSync(userFolder, { recursive: true });
	const state = /** @type {any} */ ({
		version: 'v2',
		userFolder,
		tarball,
		sandboxToken: 'sandbox-token',
		missing: [],
	});
	/** @type {Awaited<ReturnType<typeof ownN8n>> | null} */
	let own = null;
	/** @type {Awaited<ReturnType<typeof startOtherReceiver>> | null} */
	let other = null;
	try {
		own = await ownN8n(state, {
			version: 'v2',
			suffix: 'n8n',
			sandbox: { id: 'facilitapay-bench-waiting', name: 'FacilitaPay Bench Waiting' },
		});
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
		const { figures } = await runWaitingScale({
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
			`Wait for Payment in n8n 2.41.1 (${WITH_TRIGGER ? 'FacilitaPay Trigger published on the account' : 'no FacilitaPay Trigger: another system notified'}):`,
		);
		say(
			`  ${COUNT} executions waiting (started in ${figures.startSeconds.toFixed(1)} s); idle ${figures.idle.seconds.toFixed(0)} s: ${figures.idle.reads} API reads = ${figures.idle.perSecond.toFixed(2)} reads/s (${JSON.stringify(figures.idle.byRoute)}); with 0 waiting: ${figures.idleBefore.perSecond.toFixed(2)} reads/s`,
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
		const out = process.env.BENCH_OUT ?? path.join(CACHE_DIR, 'bench');
		fs.mkdirSync(out, { recursive: true });
		const file = path.join(out, `waiting-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
		fs.writeFileSync(file, JSON.stringify({ withTrigger: WITH_TRIGGER, ...figures }, null, 2));
		say(`  figures: ${file}`);
	} finally {
		await own?.stop().catch(() => undefined);
		await own?.sb.close().catch(() => undefined);
		await other?.close();
		if (process.env.BENCH_KEEP !== '1') {
			if (own) removeUserFolder(own.userFolder);
			removeUserFolder(userFolder);
		}
	}
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
